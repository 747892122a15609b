import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src-main/core/clock.ts';
import { matchBalanceMove } from '../../../src-main/core/history/balance-match.ts';
import { createTradeHistory, type TradeHistory } from '../../../src-main/core/history/trade-history.ts';
import { buyOrderTrade, marketTrade } from '../trades/fixtures.ts';
import { MAIN, tempStore, type TempStore } from '../store/temp-store.ts';

/** How the desk tells how a trade that left the pending lists ended, from the balance and the ledger. */

const T0 = Date.UTC(2025, 0, 6, 9);
const MIN = 60_000;
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

describe('the trade recorder', () => {
  it('keeps a sale and a filled buy order whose amounts the balance moved by, and a declined one as vanished', async () => {
    const h = history();
    const sale = { ...marketTrade('1', 'Action Required'), total: 1_250 };
    const fill = { ...buyOrderTrade('2', 'Waiting for seller'), buyer_id: MAIN, supplier_id: '76561198000000009', total: 700 };
    const declined = { ...marketTrade('3', 'Action Required'), total: 999 };
    await reading(h, T0, 10_000);
    await h.notePending([sale, fill, declined], T0 + MIN);
    await h.notePending([sale, fill, declined], T0 + 2 * MIN);
    await h.noteGone([{ tradeType: 'market', tradeId: '1' }, { tradeType: 'buy_order', tradeId: '2' }, { tradeType: 'market', tradeId: '3' }], T0 + 3 * MIN);
    expect(endings()).toEqual({ 1: 'left', 2: 'left', 3: 'left' });
    // +1,250 for the sale, −700 for the fill: the declined trade's 999 is not in it.
    await reading(h, T0 + 5 * MIN, 10_550);
    expect(endings()).toEqual({ 1: 'balance_moved', 2: 'balance_moved', 3: 'left' });
    await reading(h, T0 + 10 * MIN, 10_550);
    expect(endings()).toEqual({ 1: 'balance_moved', 2: 'balance_moved', 3: 'vanished' });
    const summary = h.summary({ from: T0 - 60 * MIN, to: T0 + 60 * MIN, account: null });
    expect(summary.sales).toEqual({ count: 1, amount: 1_250 });
    expect(summary.purchases).toEqual({ count: 1, amount: 700 });
    expect(summary.vanished).toBe(1);
    expect(summary.topItems[0]).toMatchObject({ sku: '378;6', name: 'Team Captain', sold: { count: 1, amount: 1_250 }, bought: { count: 1, amount: 1_250 } });
  });

  it('does not call vanished a sale and a purchase of one amount that left together: the balance cannot tell them from neither', async () => {
    const h = history();
    await reading(h, T0, 10_000);
    const sale = { ...marketTrade('5', 'Action Required'), total: 252 };
    const bought = { ...buyOrderTrade('6', 'Waiting for seller'), buyer_id: MAIN, supplier_id: '76561198000000009', total: 252 };
    const other = { ...marketTrade('7', 'Action Required'), total: 148 };
    await h.notePending([sale, bought, other], T0 + MIN);
    await h.noteGone([{ tradeType: 'market', tradeId: '5' }, { tradeType: 'buy_order', tradeId: '6' }, { tradeType: 'market', tradeId: '7' }], T0 + 2 * MIN);
    // +148: the other sale; +252 − 252 may be in it too, or not.
    await reading(h, T0 + 5 * MIN, 10_148);
    await reading(h, T0 + 10 * MIN, 10_148);
    await reading(h, T0 + 15 * MIN, 10_148);
    expect(endings()).toEqual({ 5: 'left', 6: 'left', 7: 'balance_moved' });
    // Hours on, time calls them vanished as it does any trade nothing explains.
    await reading(h, T0 + 4 * 60 * MIN, 10_148);
    expect(endings()).toEqual({ 5: 'vanished', 6: 'vanished', 7: 'balance_moved' });
  });

  it('matches a balance move read before the trade was seen to leave the lists', async () => {
    const h = history();
    await reading(h, T0, 10_000);
    await h.notePending([{ ...marketTrade('4', 'Action Required'), total: 300 }], T0 + MIN);
    // The trade completed at T0+1.5 min; the reading at T0+2 min shows it before the next load does.
    await reading(h, T0 + 2 * MIN, 10_300);
    await h.noteGone([{ tradeType: 'market', tradeId: '4' }], T0 + 2.5 * MIN);
    expect(endings()).toEqual({ 4: 'balance_moved' });
  });

  it('keeps the last status, and keeps a trade listed again with another timestamp as it was, refusing the listing', async () => {
    const h = history();
    let told = 0;
    h.on('changed', () => (told += 1));
    await h.notePending([marketTrade('5', 'Action Required')], T0 - MIN);
    await h.notePending([marketTrade('5', 'Action Required')], T0 - MIN / 2);
    // A load that saw nothing new does not make the screen ask again.
    expect(told).toBe(1);
    await h.notePending([{ ...marketTrade('5', 'Action Required'), raw_status: 'CONFIRMATION_REQUIRED', status: 'Waiting for seller' }], T0 + MIN);
    const row = () => t?.store.db.prepare("SELECT status, first_seen_at, last_seen_at, created_at FROM trade_history WHERE trade_id = '5'").get();
    expect(row()).toMatchObject({ status: 'Waiting for seller', first_seen_at: T0 - MIN, last_seen_at: T0 + MIN });
    expect(told).toBe(2);
    const first = marketTrade('5', 'Action Required').timestamp;
    await h.notePending([{ ...marketTrade('5', 'Action Required'), timestamp: first - 3_600 }], T0 + 2 * MIN);
    expect(row()).toMatchObject({ status: 'Waiting for seller', first_seen_at: T0 - MIN, last_seen_at: T0 + MIN, created_at: first * 1000 });
    expect(h.summary({ from: T0 - 60 * MIN, to: T0 + 60 * MIN, account: null }).refused.recent).toEqual([expect.objectContaining({
      kind: 'market', ref: '5', field: 'timestamp', value: String(first - 3_600), reason: `differs from ${first}, the timestamp it was first listed with`,
    })]);
  });

  it('pages the trades behind the figures, newest first, and writes them as spreadsheet-safe CSV', async () => {
    const h = history();
    await reading(h, T0, 10_000);
    const base = marketTrade('6', 'Action Required');
    const evil = { ...base, total: 100, items: base.items.map((i) => ({ ...i, name: '=HYPERLINK("x")', price: 100 })) };
    await h.notePending([evil, { ...marketTrade('7', 'Action Required'), total: 200 }], T0 + MIN);
    await h.noteGone([{ tradeType: 'market', tradeId: '6' }], T0 + 2 * MIN);
    await h.noteGone([{ tradeType: 'market', tradeId: '7' }], T0 + 3 * MIN);
    await reading(h, T0 + 5 * MIN, 10_300);
    const range = { from: T0 - MIN, to: T0 + 60 * MIN, account: null };
    const page = h.page(range, 'completed', 0, 1);
    expect(page.total).toBe(2);
    expect(page.rows.map((r) => r.tradeId)).toEqual(['7']);
    expect(h.page(range, 'completed', 1, 1).rows.map((r) => r.tradeId)).toEqual(['6']);
    const { csv, rows } = h.csv(range, 'completed', { timeZone: 'UTC' });
    expect(rows).toBe(2);
    expect(csv.split(/\r?\n/)[0]).toBe('\uFEFFwhen (UTC),trade,trade id,account,partner,ending,how the desk knows,status while pending,amount,items,skus,item count,made (UTC),left the pending lists (UTC),listed (UTC)');
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
    expect(h.page({ ...range, account: '76561198000000002' }, 'completed', 0, 10).total).toBe(0);
  });

  it('writes the file in the screen’s words and the trader’s local time, in the shape their spreadsheet reads', async () => {
    const h = history();
    await reading(h, T0, 10_000);
    await h.notePending([{ ...marketTrade('8', 'Action Required'), total: 1_250 }, { ...marketTrade('9', 'Action Required'), total: 333 }], T0 + MIN);
    await h.noteGone([{ tradeType: 'market', tradeId: '8' }], T0 + 2 * MIN);
    await reading(h, T0 + 5 * MIN, 11_250);
    const range = { from: T0 - MIN, to: T0 + 60 * MIN, account: null };
    const { csv } = h.csv(range, 'all', { timeZone: 'Europe/Berlin', format: 'semicolon' });
    const [header, ...lines] = csv.slice(1).split('\r\n').filter((l) => l !== '');
    expect(header?.split(';').slice(0, 9)).toEqual([
      'when (Europe/Berlin)', 'trade', 'trade id', 'account', 'partner', 'ending', 'how the desk knows', 'status while pending', 'amount',
    ]);
    const byId = Object.fromEntries(lines.map((l) => l.split(';')).map((cells) => [cells[2], cells]));
    // T0 + 2 min is 09:02 UTC, 10:02 in Berlin in January; a completed trade shows no status, as the screen shows none.
    expect(byId['8']?.slice(0, 9)).toEqual(['2025-01-06 10:02:00', 'Sale · listing', '8', MAIN, expect.any(String), 'completed', 'the balance moved by its amount', '', '12,50']);
    expect(byId['9']?.slice(5, 9)).toEqual(['pending', 'still in the pending lists', 'Action required', '3,33']);
    expect(csv).not.toMatch(/balance_moved|Action Required/);
  });
});

describe('matching a balance move', () => {
  it('picks the fewest trades whose amounts add up, or none', () => {
    expect(matchBalanceMove([500, -200, 300], 300)).toEqual([2]);
    expect(matchBalanceMove([500, -200, 999], 300)).toEqual([0, 1]);
    expect(matchBalanceMove([500, -200], 301)).toBeNull();
    expect(matchBalanceMove([], 5)).toBeNull();
    expect(matchBalanceMove([1, 2], 0)).toBeNull();
  });
});

describe('a sale of a listing the desk made', () => {
  it('keeps when it was listed, and ends as sold when the service says the listing is gone', async () => {
    const h = history();
    const repos = t?.repos;
    if (!repos) throw new Error('no store');
    repos.listings.upsertMany([{ asset_id: '555', listing_id: 'L555', sku: '378;6', price: 1_250, promoted: 0, game: '440', account: MAIN }]);
    // The create went through at T0 (the store's clock).
    const listedAt = T0;
    repos.activity.recordSent({ batchId: 'b1', endpoint: 'create_listing', account: MAIN, targets: ['L:555'], itemCount: 1 });
    repos.activity.recordOutcome('b1', 'done');
    const sale = { ...marketTrade('8', 'Action Required'), timestamp: Math.floor((T0 + 60 * MIN) / 1000) };
    repos.listings.markEnded(['555'], 'sold_in_trade', { reason: 'sold in trade 8', tradeId: '8' });
    await h.notePending([sale], T0 + 61 * MIN);
    const row = () => t?.store.db.prepare("SELECT sold_assets, listed_at, ending FROM trade_history WHERE trade_id = '8'").get();
    expect(row()).toMatchObject({ sold_assets: '["555"]', listed_at: listedAt });
    // It leaves; no balance reading explains it, but an edit refused says the listing is gone.
    await h.noteGone([{ tradeType: 'market', tradeId: '8' }], T0 + 70 * MIN);
    repos.listings.markEnded(['555'], 'not_on_service', { reason: 'no such listing' });
    await reading(h, T0 + 75 * MIN, 10_000);
    expect(row()).toMatchObject({ ending: 'listing_sold' });
    const summary = h.summary({ from: T0, to: T0 + 2 * 60 * MIN, account: null });
    expect(summary.listingToSale).toMatchObject({ sales: 1, known: 1, medianMs: 60 * MIN });
  });
});
