import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src-main/core/clock.ts';
import { createTradeHistory, type TradeHistory } from '../../../src-main/core/history/trade-history.ts';
import { buyOrderTrade, marketTrade } from '../trades/fixtures.ts';
import { MAIN, tempStore, type TempStore } from '../store/temp-store.ts';

/**
 * History keeps what happened, whatever the service lists later: an ended
 * trade never goes back to pending, a record is never replaced, and a trade
 * with a number no trade has is refused on its own while the rest goes on.
 */

const T0 = Date.UTC(2025, 0, 6, 9);
const MIN = 60_000;
const RANGE = { from: T0 - 60 * MIN, to: T0 + 120 * MIN, account: null };
let t: TempStore | null = null;
afterEach(() => {
  t?.dispose();
  t = null;
});

function history(): TradeHistory {
  t = tempStore({ clock: { now: () => T0 } as Clock });
  return createTradeHistory({ store: t.store, repos: t.repos, ownIds: () => [MAIN] });
}
const endings = () => Object.fromEntries((t?.store.db.prepare('SELECT trade_id, ending FROM trade_history').all() as { trade_id: string; ending: string }[]).map((r) => [r.trade_id, r.ending]));
const reading = (h: TradeHistory, at: number, balance: number) => h.noteBalance({ balance, pending_balance: 0, readAt: at });
const gone = (...ids: string[]) => ids.map((tradeId) => ({ tradeType: 'market', tradeId }));

describe('History keeps what happened', () => {
  it('keeps a completed sale completed when the service lists it again, and in the figures', async () => {
    const h = history();
    const sale = { ...marketTrade('1', 'Action Required'), total: 700 };
    await reading(h, T0, 10_000);
    await h.notePending([sale], T0 + MIN);
    await h.noteGone(gone('1'), T0 + 2 * MIN);
    await reading(h, T0 + 5 * MIN, 10_700);
    expect(endings()).toEqual({ 1: 'balance_moved' });

    // Listed again, then gone again; the balance does not move a second time.
    await h.notePending([sale], T0 + 6 * MIN);
    await h.noteGone(gone('1'), T0 + 7 * MIN);
    await reading(h, T0 + 10 * MIN, 10_700);
    await reading(h, T0 + 15 * MIN, 10_700);
    expect(endings()).toEqual({ 1: 'balance_moved' });
    expect(h.summary(RANGE).sales).toEqual({ count: 1, amount: 700 });

    // Listed again with another timestamp: the record stays as it was, the listing is refused.
    await h.notePending([{ ...sale, timestamp: sale.timestamp + 3_600 }], T0 + 20 * MIN);
    expect(t?.store.db.prepare("SELECT ending, created_at, total FROM trade_history WHERE trade_id = '1'").get()).toEqual({
      ending: 'balance_moved', created_at: sale.timestamp * 1000, total: 700,
    });
    expect(h.summary(RANGE).sales).toEqual({ count: 1, amount: 700 });
    expect(h.summary(RANGE).refused.recent).toEqual([expect.objectContaining({ kind: 'market', ref: '1', field: 'timestamp' })]);
  });

  it('refuses a trade with a total or timestamp near 2^53 or a negative total, naming it and the field; the rest of History answers', async () => {
    const h = history();
    const sale = { ...marketTrade('1', 'Action Required'), total: 700 };
    const huge = { ...marketTrade('2', 'Action Required'), total: Number.MAX_SAFE_INTEGER };
    const far = { ...marketTrade('3', 'Action Required'), total: 900, timestamp: Number.MAX_SAFE_INTEGER };
    const negative = { ...marketTrade('4', 'Action Required'), total: -700 };
    const bought = { ...buyOrderTrade('5', 'Waiting for seller'), buyer_id: MAIN, supplier_id: '76561198000000009', total: 250 };
    await reading(h, T0, 10_000);
    // The balance falls by 700 (a purchase the desk never saw) while the "sale" of −700 leaves: it is no sale.
    await h.notePending([negative], T0 + MIN);
    await h.noteGone(gone('4'), T0 + 2 * MIN);
    await reading(h, T0 + 5 * MIN, 9_300);
    await h.notePending([sale, huge, far, bought], T0 + 6 * MIN);
    await h.noteGone([...gone('1', '2', '3'), { tradeType: 'buy_order', tradeId: '5' }], T0 + 7 * MIN);
    await reading(h, T0 + 10 * MIN, 9_750);
    await reading(h, T0 + 15 * MIN, 9_750);

    const summary = h.summary(RANGE);
    expect(summary.sales).toEqual({ count: 1, amount: 700 });
    expect(summary.purchases).toEqual({ count: 1, amount: 250 });
    expect(summary.refused.count).toBe(3);
    expect(summary.refused.recent.map((r) => [r.ref, r.field, r.value])).toEqual([
      ['2', 'total', String(Number.MAX_SAFE_INTEGER)], ['3', 'timestamp', String(Number.MAX_SAFE_INTEGER)], ['4', 'total', '-700'],
    ]);
    expect(endings()).toEqual({ 1: 'balance_moved', 5: 'balance_moved' });
    for (const show of ['completed', 'all', 'pending', 'vanished'] as const) {
      expect(() => h.page(RANGE, show, 0, 100), show).not.toThrow();
      expect(() => h.csv(RANGE, show), show).not.toThrow();
    }
    expect(h.page(RANGE, 'all', 0, 100).rows.map((r) => r.tradeId).sort()).toEqual(['1', '5']);
    expect(h.problem()).toBeNull();
  });

  it('refuses a balance reading beyond ±$10,000,000 and goes on with the next', async () => {
    const h = history();
    await reading(h, T0, 10_000);
    await h.notePending([{ ...marketTrade('1', 'Action Required'), total: 700 }], T0 + MIN);
    await h.noteGone(gone('1'), T0 + 2 * MIN);
    await reading(h, T0 + 5 * MIN, Number.MAX_SAFE_INTEGER);
    await reading(h, T0 + 10 * MIN, 10_700);
    expect(endings()).toEqual({ 1: 'balance_moved' });
    const summary = h.summary(RANGE);
    expect(summary.balance.map((b) => b.balance)).toEqual([10_000, 10_700]);
    expect(summary.refused.recent).toEqual([expect.objectContaining({ kind: 'balance', field: 'balance', value: String(Number.MAX_SAFE_INTEGER) })]);
  });
});
