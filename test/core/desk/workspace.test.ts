import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scaledClock } from '../../../src-main/core/clock.ts';
import { openWorkspace, type Workspace } from '../../../src-main/core/desk/workspace.ts';
import { DEFAULT_SETTINGS } from '../../../src-main/core/settings/settings.ts';
import { openStore } from '../../../src-main/core/store/db.ts';
import { createRepos } from '../../../src-main/core/store/index.ts';
import { startSandbox, type Sandbox } from '../../../src-main/sandbox/index.ts';
import { until } from '../../support/until.ts';

/** One workspace over the simulator, on a clock where a minute of the service lasts 0.1 s. */

const clock = scaledClock(600);
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function open(): Promise<{ ws: Workspace; sandbox: Sandbox; dbPath: string }> {
  const sandbox = await startSandbox({ clock, seed: 31, tradeSchedule: false });
  const dir = mkdtempSync(join(tmpdir(), 'desk-ws-'));
  cleanups.push(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const dbPath = join(dir, 'profile.sqlite');
  const ws = await reopen(sandbox, dbPath);
  // Closed by the test or, when it fails early, here (a second close finds nothing left to do).
  cleanups.push(() => ws.close().catch(() => undefined));
  return { ws, sandbox, dbPath };
}

/** A workspace on this profile and service, started, once it knows the main account. */
async function reopen(sandbox: Sandbox, dbPath: string): Promise<Workspace> {
  const ws = openWorkspace({
    mode: 'live', dbPath, baseUrl: sandbox.url, clock,
    settings: { ...DEFAULT_SETTINGS, mode: 'live', serviceUrl: sandbox.url, refuseUnautomatedPosts: false },
    apiKey: async () => sandbox.apiKey,
  });
  ws.start();
  await until('the main account', () => ws.accounts.snapshot().main);
  return ws;
}

describe('a workspace', () => {
  it('closing it lets a batch on its way get its outcome journaled and leaves the apply for the next start', async () => {
    const { ws, sandbox, dbPath } = await open();
    const free = sandbox.admin.inventory().slice(0, 700);
    const { id } = ws.drafts.create('closed mid-apply');
    ws.drafts.addChanges(id, free.map((a) => ({ kind: 'listing.create', asset_id: a.asset_id, price: 300, promoted: 0, game: a.game })));
    // Each create takes 20 s of the service's time, so the close below finds batches on their way.
    sandbox.faults.set({ delayMs: { ms: 20_000, endpoints: ['create_listing'] } });
    ws.apply.apply(id);
    // Apply sends one batch first; its answer plans the rest of the window, which goes at once.
    await until('batches on their way', () => ws.repos.journal.batches({ states: ['sent'] }).length > 1);
    const onTheirWay = ws.repos.journal.batches({ states: ['sent', 'done'] }).length;

    // Whatever closes it (a switch of service, the desk closing), not only the quit path.
    await ws.close();
    expect(sandbox.admin.listings()).toHaveLength(onTheirWay * 100);

    const store = openStore(dbPath, { clock });
    cleanups.push(() => store.close());
    const repos = createRepos(store);
    // Every batch sent has its outcome: nothing the next start would have to show as unknown.
    expect(repos.journal.batches({ states: ['sent', 'unknown'] })).toEqual([]);
    expect(repos.journal.batches({ states: ['done'] })).toHaveLength(onTheirWay);
    expect(repos.listings.count()).toBe(onTheirWay * 100);
    // The run stays open with the rest planned or waiting: the next start resumes it.
    expect(repos.journal.runs({ state: 'running' })).toHaveLength(1);
    expect(repos.journal.batches({ states: ['planned'] }).length).toBeGreaterThan(0);
    store.close();

    // The next start resumes it: the rest is created, nothing twice.
    sandbox.faults.clear();
    const next = await reopen(sandbox, dbPath);
    cleanups.push(() => next.close());
    await until('the resumed apply to finish', () => sandbox.admin.listings().length === 700 && next.apply.handles().length === 0);
    expect(sandbox.log.counters.duplicateCreates).toBe(0);
    expect(next.repos.listings.count()).toBe(700);
    expect(next.apply.unknownOutcomes()).toEqual([]);
  });

  it('shows buy orders an apply created with the quantity the service stored, read through the trade watcher', async () => {
    const { ws, sandbox } = await open();
    sandbox.admin.setBalance(10_000);
    const { id } = ws.drafts.create('buy orders');
    ws.drafts.addChanges(id, [
      { kind: 'buyOrder.create', sku: '5021;6', price: 1_000, quantity: 5 },
      { kind: 'buyOrder.create', sku: '5002;6', price: 3_000, quantity: 10 },
    ]);
    const balances: number[] = [];
    ws.trades.on('balance', (b) => balances.push(b.balance));
    await ws.apply.apply(id).done;
    const page = ws.tables.page('buyOrders', {}, null, 0, 10);
    const shown = page.rows.map((r) => (r.domain === 'buyOrders' ? [r.sku, r.quantity, r.quantityMayBeCut] : null));
    expect(shown).toEqual(expect.arrayContaining([['5021;6', 5, false], ['5002;6', 3, false]]));
    // The readings were the watcher's: the Overview's balance moved with them.
    expect(balances.length).toBeGreaterThanOrEqual(1);
    expect(ws.trades.balance()?.balance).toBe(10_000);
  });

  it('keeps the shown draft’s counts when it closes, which the next start takes out of the store as it reads them', async () => {
    const { ws, sandbox, dbPath } = await open();
    const { id } = ws.drafts.create('kept');
    ws.drafts.addChanges(id, [{ kind: 'listing.create', asset_id: '991', price: 300, promoted: 0 }, { kind: 'buyOrder.create', sku: '5021;6', price: 100, quantity: 2 }]);
    expect(ws.tables.page('listings', {}, null, 0, 1)).toMatchObject({ total: 1, changed: 1 });
    await ws.close();

    const kept = () => {
      const store = openStore(dbPath, { clock });
      try {
        return createRepos(store).settings.keys().includes('ledger.countsAtClose');
      } finally {
        store.close();
      }
    };
    expect(kept()).toBe(true);
    const next = await reopen(sandbox, dbPath);
    cleanups.push(() => next.close());
    expect(next.tables.page('buyOrders', {}, null, 0, 1)).toMatchObject({ total: 1, changed: 1 });
    // Taken at the start: a desk that dies from here on leaves no counts that could be older than its rows.
    expect(kept()).toBe(false);
  });
});
