import { describe, expect, it } from 'vitest';
import { MAX_INVENTORY_ITEMS, MAX_INVENTORY_PAGES } from '../../../src-main/core/inventory/read-bounds.ts';
import { DEFAULT_INVENTORY_TIMING } from '../../../src-main/core/inventory/inventory-service.ts';
import { inventoryFixture, type InventoryFixture } from './fixture.ts';

/**
 * An answer from Steam that never ends (every page says `more_items`) is cut
 * short: at the first page that adds no asset not already read, at a page
 * that points back to one already read, and at the bounds on pages and items
 * a read takes. What was read is the account's copy and the picker's
 * sentence says the read stopped and why. The count shown is the desk's
 * own, whatever Steam's `total_inventory_count` says. Each knob is limited
 * to a few dozen answers, so a reader that does not stop ends too, later.
 */

const open = inventoryFixture();

/** The main account's requests, and its state once its read is over. */
async function readMain(f: InventoryFixture) {
  const main = f.sandbox.accounts.main;
  f.inventory.reads.refresh([main]);
  const end = await f.settled();
  return { requests: f.sandbox.log.inventoryRequests.filter((r) => r.account === main), state: end.find((s) => s.account === main) };
}

describe('inventory reads: answers that never end', () => {
  // The main account holds 2,500 items: two pages of Steam's own, then the knob's.
  it('stops at the first page that holds only items already read (the same page again), keeping what it read', async () => {
    const f = await open();
    f.sandbox.faults.set({ inventoryEndless: { kind: 'same', count: 30 } });
    const { requests, state } = await readMain(f);
    expect(requests.length).toBe(3);
    expect(state).toMatchObject({ phase: 'done', items: 2_500, problem: { kind: 'stopped' } });
    expect(state?.problem?.message).toMatch(/^The read stopped: .*none the desk had not already read.*Refresh/);
    expect(f.inventory.queries.page({ account: f.sandbox.accounts.main }, null, 0, 5_000).total).toBe(2_500);
  });

  it('stops at the first empty page that says there are more', async () => {
    const f = await open();
    f.sandbox.faults.set({ inventoryEndless: { kind: 'empty', count: 30 } });
    const { requests, state } = await readMain(f);
    expect(requests.length).toBe(3);
    expect(new Set(requests.map((r) => r.startAssetId)).size).toBe(3);
    expect(state).toMatchObject({ phase: 'done', items: 2_500, problem: { kind: 'stopped' } });
  });

  it('stops at a page that points back to one already read, though it carried new items', async () => {
    const f = await open();
    f.sandbox.faults.set({ inventoryEndless: { kind: 'same_start', perPage: 10, count: 30 } });
    const { requests, state } = await readMain(f);
    expect(requests.length).toBe(3);
    expect(state).toMatchObject({ phase: 'done', items: 2_510, problem: { kind: 'stopped' } });
    expect(state?.problem?.message).toMatch(/pointed the desk back to a page it had already read/);
  });

  it(`stops at ${MAX_INVENTORY_ITEMS.toLocaleString('en-US')} items when every page brings new asset IDs`, async () => {
    const f = await open();
    f.sandbox.faults.set({ inventoryEndless: { kind: 'new_ids', count: 10 } });
    const { requests, state } = await readMain(f);
    // 2,000 + 500 of Steam's own, then 2,000 new, then the page that reaches the bound.
    expect(requests.length).toBe(4);
    expect(state).toMatchObject({ phase: 'done', items: MAX_INVENTORY_ITEMS, problem: { kind: 'stopped' } });
    expect(state?.problem?.message).toMatch(/more items past 5,000, more than a TF2 backpack holds/);
    expect(f.t.store.db.prepare('SELECT count(*) AS n FROM inventory_items').get()).toEqual({ n: MAX_INVENTORY_ITEMS });
  });

  it(`stops after ${MAX_INVENTORY_PAGES} pages when every short page brings new asset IDs`, async () => {
    const f = await open();
    const [linked = ''] = f.sandbox.accounts.linked;
    const owned = f.sandbox.admin.inventory(linked).length;
    f.sandbox.faults.set({ inventoryEndless: { kind: 'new_ids', perPage: 10, count: 40 } });
    f.inventory.reads.refresh([linked]);
    const [, state] = await f.settled();
    expect(f.sandbox.log.inventoryRequests.length).toBe(MAX_INVENTORY_PAGES);
    expect(state).toMatchObject({ phase: 'done', items: owned + 10 * (MAX_INVENTORY_PAGES - 1), problem: { kind: 'stopped' } });
    expect(state?.problem?.message).toMatch(/after 20 pages/);
  });

  it('keeps the copy read before when a stopped read found nothing, and says why', async () => {
    const f = await open();
    const [linked = ''] = f.sandbox.accounts.linked;
    f.inventory.reads.refresh([linked]);
    await f.settled();
    const before = f.inventory.reads.state()[1]?.items ?? 0;
    expect(before).toBeGreaterThan(0);
    // Steam now says the account's items are gone but that more follow, and nothing does.
    f.sandbox.faults.set({ inventoryEndless: { kind: 'empty', count: 30 } });
    for (const asset of f.sandbox.admin.inventory(linked)) f.sandbox.admin.takeAsset(asset.asset_id);
    f.clock.advance(DEFAULT_INVENTORY_TIMING.minIntervalMs);
    f.inventory.reads.refresh([linked]);
    const [, state] = await f.settled();
    expect(state).toMatchObject({ phase: 'failed', items: before, problem: { kind: 'unreadable' } });
    expect(state?.problem?.message).toMatch(/so the read stopped\. What was read before is kept/);
  });
});

describe('inventory reads: the count shown is the desk’s own', () => {
  for (const total of [2_000, 564_000]) {
    it(`never shows more items read than the total, when Steam says ${total.toLocaleString('en-US')}`, async () => {
      const f = await open();
      f.sandbox.faults.set({ inventoryLyingTotal: { total } });
      const { state } = await readMain(f);
      const progress = f.states.flat().flatMap((s) => (s.progress === null ? [] : [s.progress]));
      expect(progress.map((p) => p.read)).toContain(2_500);
      // Steam's count is shown only while it can be true: no fewer than read, no more than a read takes.
      expect(progress.filter((p) => p.total !== null && (p.total < p.read || p.total > MAX_INVENTORY_ITEMS))).toEqual([]);
      expect(state).toMatchObject({ phase: 'done', items: 2_500, problem: null });
      expect(f.inventory.reads.repo.read(f.sandbox.accounts.main)?.total).toBe(2_500);
    });
  }
});
