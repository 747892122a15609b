/**
 * How long bulk operations on a 50,000-listing draft take, as the screens
 * make them: the preview the trader reads (the target is under 100 ms, so the
 * form answers as they type), then storing it once they confirm (it reuses
 * the preview's figures and writes the rows with two SQL statements). Run:
 * `node --experimental-strip-types test/bench/drafts-bulk.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createDraftService } from '../../src-main/core/drafts/draft-service.ts';
import type { BulkDomain, BulkOp } from '../../src-shared/drafts.ts';
import { createLedgerTables } from '../../src-main/core/bulk/ledger-tables.ts';
import type { LedgerSelection as Selection } from '../../src-shared/ledger.ts';
import { openStore } from '../../src-main/core/store/db.ts';
import { createRepos } from '../../src-main/core/store/index.ts';
import { BENCH_MAIN as MAIN, seedBenchLedger } from './bench-ledger.ts';
import { createBulkJobs } from '../../src-main/core/bulk/bulk-jobs.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);

const dir = mkdtempSync(join(tmpdir(), 'desk-bench-'));
const store = openStore(join(dir, 'bench.sqlite'));
const repos = createRepos(store);
const listings = seedBenchLedger(repos, ROWS);
const buyOrders = [];
for (let i = 0; i < ROWS; i++) buyOrders.push({ sku: `${i};6`, account: MAIN, price: 50 + (i % 900), quantity: 1 + (i % 5) });
repos.buyOrders.upsertMany(buyOrders);

const drafts = createDraftService({ store, repos, bulk: createBulkJobs });
drafts.create('bench');
// As the Listings screen makes them: a selection main resolves, into the current draft.
const tables = createLedgerTables({ store, drafts, now: () => Date.now() });

const all: Selection = { filter: {} };
const cases: [string, BulkDomain, Selection, BulkOp][] = [
  ['set price (all listings, cold: first statements prepared)', 'listings', all, { op: 'setPrice', cents: 1234 }],
  ['add cents (all listings)', 'listings', all, { op: 'addCents', cents: 15 }],
  ['subtract cents (all listings)', 'listings', all, { op: 'addCents', cents: -7 }],
  ['multiply 95%, nearest (all listings)', 'listings', all, { op: 'multiply', percent: 95, rounding: 'nearest' }],
  ['multiply 110%, up to .x9 (all listings)', 'listings', all, { op: 'multiply', percent: 110, rounding: 'up', step: { size: 10, offset: 9 } }],
  ['set promoted (all listings)', 'listings', all, { op: 'setPromoted', value: 1 }],
  ['clear promoted (filter: note text)', 'listings', { filter: { note: 'fast' } }, { op: 'setPromoted', value: 0 }],
  ['set note (all listings)', 'listings', all, { op: 'setNote', note: 'bulk note' }],
  ['clear note (all listings)', 'listings', all, { op: 'clearNote' }],
  ['set price (selection of 50,000 IDs)', 'listings', { ids: listings.map((l) => l.asset_id) }, { op: 'setPrice', cents: 999 }],
  ['set price (filter: SKU + price range)', 'listings', { filter: { sku: '5001;6', minPrice: 500, maxPrice: 3000 } }, { op: 'setPrice', cents: 321 }],
  ['refused: subtract below zero (reports rows, changes none)', 'listings', all, { op: 'addCents', cents: -100_000 }],
  ['pause (all buy orders, cold for buy orders)', 'buyOrders', all, { op: 'setActive', value: 0 }],
  ['resume (all buy orders)', 'buyOrders', all, { op: 'setActive', value: 1 }],
  ['set quantity (all buy orders)', 'buyOrders', all, { op: 'setQuantity', quantity: 3 }],
  ['multiply 105%, down (all buy orders)', 'buyOrders', all, { op: 'multiply', percent: 105, rounding: 'down' }],
];

console.log(`bulk operations on ${ROWS.toLocaleString('en')} listings and ${ROWS.toLocaleString('en')} buy orders (target < 100 ms each)`);
console.log(' preview    store  cpu (both)  (ms; cpu: this process only; wall includes waiting for a busy machine)');
let worst = 0;
let worstStore = 0;
for (const [name, domain, sel, op] of cases) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await tables.preview(domain, sel, op);
  const t1 = performance.now();
  const r = await tables.bulk(domain, sel, op);
  const t2 = performance.now();
  const cpu = process.cpuUsage(c0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  if (!name.includes('cold')) {
    worst = Math.max(worst, t1 - t0);
    worstStore = Math.max(worstStore, t2 - t1);
  }
  const [preview, store] = [t1 - t0, t2 - t1].map((ms) => ms.toFixed(1).padStart(8));
  console.log(`${preview} ${store} ${cpuMs.toFixed(1).padStart(10)}  ${name}: changed ${r.changed}, refused ${r.refused.reduce((n, g) => n + g.count, 0)}`);
}
console.log(`worst warm operation: preview ${worst.toFixed(1)} ms, store ${worstStore.toFixed(1)} ms (wall)`);
drafts.dispose();
store.close();
rmSync(dir, { recursive: true, force: true });
