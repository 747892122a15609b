import { describe, expect, it } from 'vitest';
import { loadPendingBuyOrdersResponse, loadPendingResponse } from '../../src-main/core/api/schemas.ts';
import type { PendingTrade } from '../../src-shared/trades.ts';
import type { Sandbox } from '../../src-main/sandbox/index.ts';
import { RAW_STATUS, TRADE_STATUS } from '../../src-main/sandbox/index.ts';
import type { ManualClock } from './helpers.ts';
import { call, manualClock, MINUTE, sandboxFixture } from './helpers.ts';

const fixture = sandboxFixture();
const start = (seed = 1, tradeSchedule = true) => fixture({ seed, tradeSchedule });

/** The pending lists at every 5 minutes over `hours`, through the admin API. */
function timeline(sandbox: Sandbox, clock: ManualClock, hours: number): PendingTrade[][] {
  const out: PendingTrade[][] = [];
  for (let t = 0; t < hours * 60; t += 5) {
    out.push([...sandbox.admin.trades()]);
    clock.advance(5 * MINUTE);
  }
  return out;
}

describe('sandbox pending trades', () => {
  it('follows the same schedule from the same seed, another from another seed', async () => {
    const a = await start(7);
    const b = await start(7);
    const c = await start(8);
    const ta = timeline(a.sandbox, a.clock, 6);
    expect(timeline(b.sandbox, b.clock, 6)).toEqual(ta);
    expect(timeline(c.sandbox, c.clock, 6)).not.toEqual(ta);
    expect(ta[0]?.length).toBeGreaterThan(0);
  });

  it('never gives a trade\'s ID to another trade when started again later with the same seed', async () => {
    const first = await start(7);
    const ids = new Map<string, number>();
    for (const list of timeline(first.sandbox, first.clock, 3)) for (const t of list) ids.set(t.trade_id, t.timestamp);
    // The same seed, started an hour later (as the app starts its sandbox each time it opens, on the same profile).
    const later = manualClock(first.clock.now() - 3 * 60 * MINUTE + 60 * MINUTE);
    const { sandbox, clock } = await fixture({ seed: 7, tradeSchedule: true, clock: later });
    let listed = 0;
    for (const list of timeline(sandbox, clock, 3)) {
      for (const t of list) {
        listed += 1;
        if (ids.has(t.trade_id)) expect(t.timestamp, `trade ${t.trade_id}`).toBe(ids.get(t.trade_id));
      }
    }
    expect(ids.size).toBeGreaterThan(20);
    expect(listed).toBeGreaterThan(20);
  });

  it('makes trades appear, change status and leave over time', async () => {
    const { sandbox, clock } = await start(3);
    const seen = new Map<string, Set<string>>();
    const lists = timeline(sandbox, clock, 12);
    for (const list of lists) {
      for (const t of list) {
        const key = `${t.trade_type}:${t.trade_id}`;
        if (!seen.has(key)) seen.set(key, new Set());
        seen.get(key)?.add(`${t.status}|${t.raw_status}`);
      }
    }
    expect(seen.size).toBeGreaterThan(50);
    expect([...seen.values()].some((statuses) => statuses.size > 1)).toBe(true);
    const first = new Set(lists[0]?.map((t) => t.trade_id));
    expect(lists.at(-1)?.some((t) => first.has(t.trade_id))).toBe(false);
  });

  it('uses every status and raw status of the document, with the fields of each kind', async () => {
    const { sandbox, clock } = await start(5);
    const all = new Map<string, PendingTrade>();
    const statuses = new Set<string>();
    for (let i = 0; i < 24 * 12; i++) {
      for (const t of sandbox.admin.trades()) {
        all.set(`${t.trade_type}:${t.trade_id}:${t.status}:${t.raw_status}`, t);
        statuses.add(`${t.trade_type}|${t.status}|${t.raw_status}`);
      }
      clock.advance(5 * MINUTE);
    }
    expect([...statuses].sort()).toEqual([
      `buy_order|${TRADE_STATUS.buyOrderActionRequired}|${RAW_STATUS.sent}`,
      `buy_order|${TRADE_STATUS.buyOrderWaitingForBuyer}|${RAW_STATUS.sent}`,
      `buy_order|${TRADE_STATUS.buyOrderWaitingForSeller}|${RAW_STATUS.sent}`,
      `buy_order|${TRADE_STATUS.buyOrderConfirmationRequired}|${RAW_STATUS.confirmationRequired}`,
      `market|${TRADE_STATUS.marketActionRequired}|${RAW_STATUS.confirmationRequired}`,
      `market|${TRADE_STATUS.marketActionRequired}|${RAW_STATUS.sent}`,
      `market|${TRADE_STATUS.marketWaitingForSeller}|${RAW_STATUS.sent}`,
    ].sort());
    const trades = [...all.values()];
    const market = trades.filter((t) => t.trade_type === 'market');
    const buyOrder = trades.filter((t) => t.trade_type === 'buy_order');
    const marketItems = market.flatMap((t) => t.items);
    const buyOrderItems = buyOrder.flatMap((t) => t.items);
    // particle_url: '' in market trades, null in buy order trades, an effect ID on unusuals.
    expect(marketItems.some((i) => i.particle_url === '')).toBe(true);
    expect(marketItems.some((i) => i.particle_url !== '' && i.quality === 'Unusual')).toBe(true);
    expect(buyOrderItems.some((i) => i.particle_url === null)).toBe(true);
    expect(buyOrderItems.some((i) => typeof i.particle_url === 'string' && i.quality === 'Unusual')).toBe(true);
    // wear: only in market trades, only on some items.
    expect(marketItems.some((i) => 'wear' in i)).toBe(true);
    expect(marketItems.some((i) => !('wear' in i))).toBe(true);
    expect(buyOrderItems.some((i) => 'wear' in i)).toBe(false);
    // name_tax_reduction only on market; supplier_linked_account object or null only on buy orders.
    expect(market.every((t) => 'name_tax_reduction' in t && !('supplier_linked_account' in t))).toBe(true);
    expect(buyOrder.every((t) => !('name_tax_reduction' in t) && 'supplier_linked_account' in t)).toBe(true);
    const linkedIds = new Set(sandbox.accounts.linked);
    expect(buyOrder.some((t) => t.trade_type === 'buy_order' && t.supplier_linked_account === null)).toBe(true);
    expect(buyOrder.some((t) => t.trade_type === 'buy_order' && linkedIds.has(t.supplier_linked_account?.id64 ?? ''))).toBe(true);
    expect(trades.some((t) => typeof t.verification_code === 'string')).toBe(true);
    expect(trades.some((t) => !('verification_code' in t))).toBe(true);
    // Some partners are young accounts (under 30 days at the trade).
    expect(trades.some((t) => t.timestamp - t.partner_steam_creation_time < 30 * 86_400)).toBe(true);
    for (const t of trades) {
      expect(t.user_id).toBe(sandbox.accounts.main);
      expect(t.total).toBe(t.items.reduce((sum, i) => sum + i.price * i.quantity, 0));
      const own = new Set([sandbox.accounts.main, ...sandbox.accounts.linked]);
      expect(own.has(t.buyer_id) !== own.has(t.supplier_id)).toBe(true);
    }
  });

  it('serves both lists over HTTP, each kind on its endpoint, parseable by the shared schemas', async () => {
    const { sandbox } = await start(2);
    const market = await call(sandbox, 'load_pending');
    const buyOrders = await call(sandbox, 'load_pending_buy_orders');
    const m = loadPendingResponse.parse(market.body);
    const b = loadPendingBuyOrdersResponse.parse(buyOrders.body);
    expect(m.length + b.length).toBe(sandbox.admin.trades().length);
    expect(m.length + b.length).toBeGreaterThan(0);
  });

  it('lets a test inject trades and set their status; the schedule can be off', async () => {
    const { sandbox, clock } = await start(1, false);
    expect(sandbox.admin.trades()).toEqual([]);
    const added = sandbox.admin.addTrade({ trade_type: 'buy_order', role: 'seller', trade_id: '42' });
    expect(added).toMatchObject({ trade_id: '42', status: TRADE_STATUS.buyOrderActionRequired, raw_status: 'SENT' });
    sandbox.admin.addTrade({ trade_type: 'market', role: 'buyer', total: 1234 });
    sandbox.admin.setTradeStatus('42', TRADE_STATUS.buyOrderConfirmationRequired);
    const list = loadPendingBuyOrdersResponse.parse((await call(sandbox, 'load_pending_buy_orders')).body);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ trade_id: '42', status: 'confirmation_required', raw_status: 'CONFIRMATION_REQUIRED' });
    const market = loadPendingResponse.parse((await call(sandbox, 'load_pending')).body);
    expect(market[0]).toMatchObject({ total: 1234, status: TRADE_STATUS.marketWaitingForSeller });
    const own = new Set([sandbox.accounts.main, ...sandbox.accounts.linked]);
    const buying = sandbox.admin.addTrade({ trade_type: 'buy_order', status: TRADE_STATUS.buyOrderWaitingForSeller });
    expect(own.has(buying.buyer_id) && !own.has(buying.supplier_id)).toBe(true);
    const confirming = sandbox.admin.addTrade({ trade_type: 'buy_order', status: TRADE_STATUS.buyOrderConfirmationRequired });
    expect(confirming.raw_status).toBe(RAW_STATUS.confirmationRequired);
    expect(own.has(confirming.supplier_id)).toBe(true);
    sandbox.admin.removeTrade(buying.trade_id);
    sandbox.admin.removeTrade(confirming.trade_id);
    sandbox.admin.removeTrade('42');
    clock.advance(MINUTE);
    expect((await call(sandbox, 'load_pending_buy_orders')).body).toEqual([]);
  });
});
