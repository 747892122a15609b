/**
 * A Listings page as the data worker answers it and as main reads the reply,
 * each timed apart from the thread hops around them: `page()` of the ledger's
 * tables on a 50,000-listing profile with a 47,000-change draft laid over it
 * and the item names (pages of 100 across the whole ledger, as the scale and
 * serve benches ask them), then the channel's output check of one such reply
 * on zod's plain path and on its compiled one, which main reads it on after
 * its first replies (CROSSING_PLAIN_FOR). Run:
 * `node --experimental-strip-types test/bench/ledger-page.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createLedgerTables } from '../../src-main/core/bulk/ledger-tables.ts';
import { PLAIN_PARSE } from '../../src-shared/plain-parse.ts';
import { parseChannelOutput } from '../../src-shared/contract-parse.ts';
import type { ChannelOutput } from '../../src-shared/contract.ts';
import { createDraftService } from '../../src-main/core/drafts/draft-service.ts';
import { createItemNames } from '../../src-main/core/items/index.ts';
import { openStore } from '../../src-main/core/store/db.ts';
import { createRepos } from '../../src-main/core/store/index.ts';
import { BENCH_MAIN } from './bench-ledger.ts';
import { pageOffsets, percentile, PAGE_ROWS } from './page-samples.ts';
import { seedProfile } from './scale/seed-profile.ts';

const LISTINGS = 50_000;
const SAMPLES = 1_000;
/** Pages asked before the timed ones: the first compiles and warms what every later one reuses. */
const WARM_UP = 50;

const dir = mkdtempSync(join(tmpdir(), 'desk-ledger-page-'));
try {
  const path = join(dir, 'default.sqlite');
  seedProfile(path, { account: BENCH_MAIN, settings: {}, serviceListings: [], listings: LISTINGS, draftChanges: 47_000, applyDraft: false });
  const store = openStore(path);
  const repos = createRepos(store);
  const drafts = createDraftService({ store, repos });
  const tables = createLedgerTables({ store, drafts, settings: repos.settings, now: () => Date.now(), names: createItemNames() });

  const reply = (offset: number): ChannelOutput<'ledger:page'> => {
    const page = tables.page('listings', {}, null, offset, PAGE_ROWS);
    if (page.rows.length !== PAGE_ROWS) throw new Error(`a page at ${offset} has ${page.rows.length} rows`);
    return { domain: 'listings', draftId: page.draftId, stamps: { ledger: 1, drafts: 1 }, offset, total: page.total, all: page.all, changed: page.changed, rows: page.rows };
  };
  const times: number[] = [];
  for (const [i, offset] of pageOffsets(LISTINGS, WARM_UP + SAMPLES).entries()) {
    const t = performance.now();
    reply(offset);
    if (i >= WARM_UP) times.push(performance.now() - t);
  }
  const ms = (n: number | null) => `${(n ?? NaN).toFixed(2)} ms`;
  console.log(`page() of ${PAGE_ROWS} rows across ${LISTINGS.toLocaleString('en-US')} listings with the draft laid over, ${SAMPLES} pages:`);
  console.log(`  median ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}, max ${ms(Math.max(...times))}`);

  const sample = reply(LISTINGS / 2);
  const check = (compiled: boolean) => {
    const result = compiled ? parseChannelOutput('ledger:page', sample) : parseChannelOutput('ledger:page', sample, PLAIN_PARSE);
    if (!result.success) throw new Error(`the reply does not fit ledger:page: ${result.error.issues[0]?.message ?? ''}`);
  };
  const t = performance.now();
  check(true);
  const compileMs = performance.now() - t;
  const each = (compiled: boolean) => {
    for (let i = 0; i < WARM_UP; i++) check(compiled);
    const start = performance.now();
    for (let i = 0; i < SAMPLES; i++) check(compiled);
    return (performance.now() - start) / SAMPLES;
  };
  console.log(`main's check of one such reply (${JSON.stringify(sample).length.toLocaleString('en-US')} bytes as JSON), ${SAMPLES} times each:`);
  console.log(`  plain path ${ms(each(false))}, compiled ${ms(each(true))}; the first compiled check (its compile) ${ms(compileMs)}`);
  drafts.dispose();
  store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
