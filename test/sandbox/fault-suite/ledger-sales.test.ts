import { describe, expect, it } from 'vitest';
import { deskStackFixture, MIN } from './desk-stack.ts';

const start = deskStackFixture();

describe('fault suite: listings sell while the desk trades', () => {
  it('over an hour marks every sold listing sold, and sends no edit to a sold one more than once', async () => {
    const { sandbox, ws, ready, wait } = await start({ scale: 600 });
    await ready();
    // 200 listings the desk created, on the main and a linked account.
    const linked = sandbox.accounts.linked[0] ?? '';
    const assets = [...sandbox.admin.inventory().slice(0, 150), ...sandbox.admin.inventory(linked).slice(0, 50)];
    const { id } = ws.drafts.create('list them');
    ws.drafts.addChanges(id, assets.map((a, i) => ({ kind: 'listing.create', asset_id: a.asset_id, price: 1_000 + i, promoted: 0, ...(i >= 150 ? { account: linked } : {}) })));
    expect(await ws.apply.apply(id).done).toMatchObject({ itemsDone: 200 });

    sandbox.faults.set({ listingSales: { meanGapMs: 3 * MIN, tradeMs: 4 * MIN } });
    // Every 10 minutes the trader reprices everything the ledger holds as active.
    for (let round = 1; round <= 6; round++) {
      const draft = ws.drafts.create(`reprice ${round}`);
      const active = ws.repos.listings.all().filter((l) => l.state === 'active');
      ws.drafts.addChanges(draft.id, active.map((l) => ({ kind: 'listing.edit', listing_id: l.listing_id ?? '', price: l.price + 1 })));
      await ws.apply.apply(draft.id).done;
      await wait(10 * MIN);
    }
    sandbox.faults.set({ listingSales: false });
    // The last trades complete and leave the pending list; the watcher polls every minute.
    await wait(8 * MIN);

    const sales = sandbox.admin.sales();
    expect(sales.length).toBeGreaterThan(10);
    const ledger = new Map(ws.repos.listings.all().map((l) => [l.asset_id, l]));
    for (const sale of sales) {
      expect(ledger.get(sale.assetId)?.state, `asset ${sale.assetId}`).toBe('sold');
    }
    expect(ws.repos.listings.all().filter((l) => l.state === 'sold')).toHaveLength(sales.length);
    const soldIds = new Set(sales.map((s) => s.listingId));
    const worst = Math.max(...sandbox.admin.listings().filter((l) => soldIds.has(l.listing_id)).map((l) => l.editsAfterEnd));
    expect(worst).toBeLessThanOrEqual(1);
    // Activity says so.
    const soldEntries = ws.repos.activity.list({ limit: 5_000 }).filter((a) => a.note?.startsWith('sold'));
    expect(soldEntries.reduce((n, a) => n + a.item_count, 0)).toBeGreaterThanOrEqual(sales.length);
  });
});
