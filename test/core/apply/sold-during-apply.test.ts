import { describe, expect, it } from 'vitest';
import { deskStackFixture } from '../../sandbox/fault-suite/desk-stack.ts';

const start = deskStackFixture();

describe('listings sold while an edit apply runs', () => {
  it('cost at most two refused requests: one refusal makes the desk read the trades, and every sale they show leaves the batches', async () => {
    // The strict service: a sold listing is refused as unknown, and a batch naming one is refused whole.
    const { sandbox, ws, ready, until } = await start({ scale: 300, faults: { endedListingsUnknown: true } });
    await ready();
    // 1,000 listings the desk created, each at its own price (so a sale's SKU and price name one listing).
    const assets = sandbox.admin.inventory().slice(0, 1_000);
    const create = ws.drafts.create('list them');
    ws.drafts.addChanges(create.id, assets.map((a, i) => ({ kind: 'listing.create', asset_id: a.asset_id, price: 1_000 + i, promoted: 0 })));
    expect(await ws.apply.apply(create.id).done).toMatchObject({ itemsDone: 1_000 });
    const listed = ws.repos.listings.all();

    const reprice = ws.drafts.create('reprice');
    ws.drafts.addChanges(reprice.id, listed.map((l) => ({ kind: 'listing.edit', listing_id: l.listing_id ?? '', price: l.price + 1 })));
    const editsBefore = sandbox.log.requests.length;
    const handle = ws.apply.apply(reprice.id);
    // Once the first batch is answered, buyers take ten listings the apply has not reached: it sends five batches a minute.
    await until(() => sandbox.log.requests.slice(editsBefore).some((r) => r.endpoint === 'edit_listing' && r.status === 200), 'the first edit');
    const notReached = listed.slice(600).map((l) => l.listing_id ?? '');
    sandbox.faults.set({ listingSales: { meanGapMs: 3_000, limit: 10, among: notReached } });
    const final = await handle.done;

    const sales = sandbox.admin.sales();
    expect(sales).toHaveLength(10);
    const edits = sandbox.log.requests.slice(editsBefore).filter((r) => r.endpoint === 'edit_listing');
    expect(edits.filter((r) => r.status !== 200).length).toBeLessThanOrEqual(2);
    // (Those the trade polls showed sold before their batch was planned are settled while planning, outside the job's counts.)
    expect(final).toMatchObject({ state: 'done', itemsDone: 990, itemsUnknown: 0, itemsLeft: 0 });

    // No change lost: every listing still standing holds its new price on the service and in the ledger.
    const sold = new Set(sales.map((s) => s.assetId));
    const service = new Map(sandbox.admin.listings().map((l) => [l.asset_id, l]));
    for (const row of listed.filter((l) => !sold.has(l.asset_id))) {
      expect(service.get(row.asset_id)?.price, row.asset_id).toBe(row.price + 1);
      expect(ws.repos.listings.get(row.asset_id)?.price).toBe(row.price + 1);
    }
    // Every sold listing is marked sold in its trade, and its edit says so.
    const entries = new Map(ws.drafts.entries(reprice.id).map((e) => [e.target, e]));
    for (const sale of sales) {
      expect(ws.repos.listings.get(sale.assetId)).toMatchObject({ state: 'sold_in_trade', trade_id: sale.tradeId });
      const entry = entries.get(`L:${sale.assetId}`);
      expect(entry?.status).toBe('failed');
      expect(entry?.error?.message).toBe(`not sent: the listing was sold in trade ${sale.tradeId}, which is still pending`);
    }
    expect([...entries.values()].filter((e) => e.status === 'done')).toHaveLength(990);
    expect(sandbox.log.counters.count429).toBe(0);
  }, 60_000);
});
