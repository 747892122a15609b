import { describe, expect, it } from 'vitest';
import type { MarketTrade } from '../../src-shared/trades.ts';
import { call, MINUTE, sandboxFixture } from './helpers.ts';

const fixture = sandboxFixture({ inventorySize: 200 });

const start = (seed = 1) => fixture({ seed });

describe('listings that sell over time', () => {
  it('sells active listings while the knob is on; each sale is a market trade naming seller, SKU and price, which completes', async () => {
    const { sandbox, clock } = await start();
    const listed = sandbox.admin.seedListings(50);
    const linked = sandbox.admin.seedListings(5, sandbox.accounts.linked[0]);
    sandbox.faults.set({ listingSales: { meanGapMs: 4 * MINUTE, tradeMs: 6 * MINUTE } });
    clock.advance(60 * MINUTE);
    const sales = sandbox.admin.sales();
    expect(sales.length).toBeGreaterThan(5);
    expect(sandbox.log.counters.listingsSold).toBe(sales.length);
    const byId = new Map([...listed, ...linked].map((l) => [l.listing_id, l]));
    const states = new Map(sandbox.admin.listings().map((l) => [l.listing_id, l.state]));
    for (const sale of sales) expect(states.get(sale.listingId)).toBe('sold');
    // Trades of sales in the last 6 minutes are still pending; the others completed.
    const pending = (await call(sandbox, 'load_pending')).body as MarketTrade[];
    const recent = sales.filter((s) => s.at > clock.now() - 6 * MINUTE);
    expect(pending.map((t) => t.trade_id).sort()).toEqual(recent.map((s) => s.tradeId).sort());
    for (const trade of pending) {
      const sale = sales.find((s) => s.tradeId === trade.trade_id);
      const listing = byId.get(sale?.listingId ?? '');
      expect(trade).toMatchObject({
        status: 'Action Required',
        supplier_id: listing?.account,
        total: listing?.price,
        items: [{ sku: listing?.sku, price: listing?.price, quantity: 1 }],
      });
    }
    // A sold listing cannot be edited; every request that names it is counted.
    const sold = sales[0]?.listingId ?? '';
    const edit = await call(sandbox, 'edit_listing', { items: [{ listing_id: sold, price: 1, promoted: 0 }] });
    expect((edit.body as { error: string }).error).toBe(`items.0.listing_id: listing ${sold} is sold`);
    expect(sandbox.admin.listings().find((l) => l.listing_id === sold)?.editsAfterEnd).toBe(1);

    sandbox.faults.set({ listingSales: false });
    clock.advance(60 * MINUTE);
    expect(sandbox.admin.sales()).toHaveLength(sales.length);
  });

  it('a scheduled market trade in which an own account sells is the sale of one of its listings', async () => {
    const { sandbox, clock } = await fixture({ tradeSchedule: true, inventorySize: 200 });
    const t0 = clock.now();
    const listed = [...sandbox.admin.seedListings(100), ...sandbox.admin.seedListings(30, sandbox.accounts.linked[0])];
    // The accounts that have listings: a trade of another one sells nothing of ours.
    const withListings = new Set([sandbox.accounts.main, sandbox.accounts.linked[0]]);
    const seen = new Map<string, MarketTrade>();
    // Looked at every minute: a trade can come and go within a few.
    for (let i = 0; i < 180; i++) {
      clock.advance(MINUTE);
      for (const t of sandbox.admin.trades()) if (t.trade_type === 'market') seen.set(t.trade_id, t);
    }
    const sales = sandbox.admin.sales();
    expect(sales.length).toBeGreaterThan(3);
    const byId = new Map(listed.map((l) => [l.listing_id, l]));
    const states = new Map(sandbox.admin.listings().map((l) => [l.listing_id, l.state]));
    for (const sale of sales) {
      const listing = byId.get(sale.listingId);
      expect(states.get(sale.listingId)).toBe('sold');
      expect(seen.get(sale.tradeId)).toMatchObject({ supplier_id: listing?.account, items: [{ sku: listing?.sku, price: listing?.price, quantity: 1 }] });
    }
    // Every seller-side market trade of those accounts that appeared after the start sold one of their listings.
    const selling = [...seen.values()].filter((t) => withListings.has(t.supplier_id) && t.timestamp * 1000 >= t0);
    expect(selling.map((t) => t.trade_id).sort()).toEqual(sales.map((s) => s.tradeId).sort());
  });

  it('sells only the listings named, and no more than the limit', async () => {
    const { sandbox, clock } = await start();
    const listed = sandbox.admin.seedListings(100);
    const among = listed.slice(60).map((l) => l.listing_id);
    sandbox.faults.set({ listingSales: { meanGapMs: MINUTE, limit: 10, among } });
    clock.advance(120 * MINUTE);
    const sales = sandbox.admin.sales();
    expect(sales).toHaveLength(10);
    expect(sales.every((s) => among.includes(s.listingId))).toBe(true);
    // Set again, the limit counts afresh.
    sandbox.faults.set({ listingSales: { meanGapMs: MINUTE, limit: 2, among } });
    clock.advance(120 * MINUTE);
    expect(sandbox.admin.sales()).toHaveLength(12);
  });

  it('sells the same listings at the same moments for the same seed', async () => {
    const run = async () => {
      const { sandbox, clock } = await start(7);
      sandbox.admin.seedListings(30);
      sandbox.faults.set({ listingSales: { meanGapMs: 5 * MINUTE } });
      for (let i = 0; i < 12; i++) {
        clock.advance(5 * MINUTE);
        sandbox.admin.listings();
      }
      return sandbox.admin.sales().map((s) => [s.assetId, s.at]);
    };
    const first = await run();
    expect(first.length).toBeGreaterThan(0);
    expect(await run()).toEqual(first);
  });
});
