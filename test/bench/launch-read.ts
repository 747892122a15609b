/**
 * What the first Listings page waits for after the desk starts on a profile
 * with 50,000 listings and a 47,000-change draft: the ledger and the draft
 * read from disk and checked. The desk starts reading them a slice at a time
 * as the workspace opens (`drafts.warm()`, as `workspace.start()` calls it);
 * a page asked before that is through finishes it at once.
 * Run: `node --experimental-strip-types test/bench/launch-read.ts`.
 * Prints, for each moment the page is asked after the start, how long it
 * took, and the longest the event loop was held during the early reading.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createDraftService } from '../../src-main/core/drafts/draft-service.ts';
import { createLedgerTables } from '../../src-main/core/drafts/ledger-tables.ts';
import { openStore } from '../../src-main/core/store/db.ts';
import { createRepos } from '../../src-main/core/store/index.ts';
import { seedBenchLedger } from './bench-ledger.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);
const CHANGES = Math.round(ROWS * 0.94);
const dir = mkdtempSync(join(tmpdir(), 'desk-bench-'));
const path = join(dir, 'bench.sqlite');

{
  const store = openStore(path);
  const repos = createRepos(store);
  const listings = seedBenchLedger(repos, ROWS);
  const pending: (() => void)[] = [];
  const drafts = createDraftService({ store, repos, defer: (t) => pending.push(t) });
  drafts.create('Big repricing');
  const except = listings.slice(CHANGES).map((l) => l.asset_id);
  createLedgerTables({ drafts, now: () => Date.now() }).bulk('listings', { filter: {}, except }, { op: 'addCents', cents: 10 });
  while (pending.length > 0) pending.shift()?.();
  drafts.dispose();
  store.close();
}

console.log(`first Listings page after a start: ${ROWS.toLocaleString('en')} listings, a ${CHANGES.toLocaleString('en')}-change draft`);
for (const [delayMs, warm] of [[0, false], [0, true], [300, true], [600, true], [1_000, true], [2_000, true]] as const) {
  const store = openStore(path);
  const repos = createRepos(store);
  const drafts = createDraftService({ store, repos });
  const tables = createLedgerTables({ drafts, now: () => Date.now() });
  const held = monitorEventLoopDelay({ resolution: 5 });
  held.enable();
  if (warm) void drafts.warm();
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  const t0 = performance.now();
  const page = tables.page('listings', {}, null, 0, 100);
  const ms = performance.now() - t0;
  held.disable();
  if (page.total !== ROWS || page.changed !== CHANGES) throw new Error(`unexpected page: ${page.total} rows, ${page.changed} changed`);
  const how = warm ? `asked ${String(delayMs).padStart(5)} ms after the start` : 'no early reading, asked at once ';
  const block = delayMs > 0 ? `; event loop held at most ${(held.max / 1e6).toFixed(0)} ms before it` : '';
  console.log(`${ms.toFixed(1).padStart(8)} ms  ${how}${block}`);
  drafts.dispose();
  store.close();
}
rmSync(dir, { recursive: true, force: true });
