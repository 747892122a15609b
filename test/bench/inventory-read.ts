/**
 * What reading an inventory costs the desk's thread: the largest inventory a
 * read takes (MAX_INVENTORY_ITEMS, 5,000 items) read from the simulator
 * twice (the first read of a process loads the schema's item list for the
 * parser), with the event loop's delay while each runs (its longest step),
 * then a few pages of the picker and its facets.
 * The simulator runs in a worker thread of its own (as Steam is elsewhere),
 * so only the desk's work counts. Steam's pacing is left out (no gap between
 * requests).
 * Run: `node --experimental-strip-types test/bench/inventory-read.ts` (Node 24
 * from node_modules/.bin, as npm scripts and npx put it first on PATH).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { systemClock } from '../../src-main/core/clock.ts';
import { createDraftService } from '../../src-main/core/drafts/draft-service.ts';
import { openInventory } from '../../src-main/core/inventory/index.ts';
import { MAX_INVENTORY_ITEMS } from '../../src-main/core/inventory/read-bounds.ts';
import { createItemNames } from '../../src-main/core/items/index.ts';
import { createRepos, openStore } from '../../src-main/core/store/index.ts';
import type { ServiceReady, ServiceWorkerData } from './service-worker.ts';

const ITEMS = MAX_INVENTORY_ITEMS;
const service = new Worker(new URL('./service-worker.ts', import.meta.url), {
  workerData: { scale: 1, origin: Date.now(), listings: 0, inventory: ITEMS } satisfies ServiceWorkerData,
});
const sandbox = await new Promise<ServiceReady>((resolve) => service.once('message', resolve));
const main = sandbox.main;
const dir = mkdtempSync(join(tmpdir(), 'bench-inventory-'));
const store = openStore(join(dir, 'profile.sqlite'));
const repos = createRepos(store);
repos.accounts.upsert({ account_id: main, kind: 'main' });
const names = createItemNames();
await names.warm();
const drafts = createDraftService({ store, repos });
const inventory = openInventory({
  store, clock: systemClock, baseUrl: sandbox.url, names, accounts: () => [main], main: () => main, drafts, timing: { gapMs: 0, minIntervalMs: 0 },
});

for (const label of ['first read', 'second read']) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const started = performance.now();
  inventory.reads.refresh();
  while (inventory.reads.state()[0]?.phase !== 'done' || performance.now() - started < 50) await new Promise((r) => setTimeout(r, 5));
  delay.disable();
  const items = inventory.reads.state()[0]?.items ?? 0;
  console.log(`${label}: ${items} items in ${Math.round(performance.now() - started)} ms; event loop delay p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms, max ${(delay.max / 1e6).toFixed(1)} ms`);
}
const time = (what: string, run: () => unknown) => {
  const started = performance.now();
  run();
  console.log(`${what}: ${(performance.now() - started).toFixed(1)} ms`);
};
time('page searched for "strange"', () => inventory.queries.page({ text: 'strange' }, null, 0, 100));
time('page of Unusuals sorted by name, offset 1,000', () => inventory.queries.page({ quality: 5 }, { column: 'name', dir: 'asc' }, 1_000, 100));
time('facets (counted again after a read)', () => inventory.queries.facets());
await inventory.close();
drafts.dispose();
store.close();
service.postMessage('close');
rmSync(dir, { recursive: true, force: true });
