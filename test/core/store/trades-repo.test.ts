import { afterEach, describe, expect, it } from 'vitest';
import type { MarketTrade } from '../../../src-shared/trades.ts';
import { tempStore, type TempStore } from './temp-store.ts';

let t: TempStore;
afterEach(() => t.dispose());

const trade = (id: string, status: string): MarketTrade => ({
  user_id: '1', trade_id: id, timestamp: 1_700_000_000, status, total: 500, raw_status: 'SENT',
  buyer_id: '2', supplier_id: '1', buyer_steam_creation_time: 1, supplier_steam_creation_time: 1,
  partner_steam_creation_time: 1, trade_type: 'market', name_tax_reduction: false,
  items: [{ name: 'Key', sku: '5021;6', quantity: 1, price: 500, quality: 'Unique', image_url: '', particle_url: '' }],
});

describe('trades repo', () => {
  it('implements the SeenTradesStore port: what is saved loads back after a restart', async () => {
    t = tempStore();
    await t.repos.trades.seen.save(new Map([['market:1', 'Action Required'], ['buy_order:2', 'Waiting for buyer']]));
    t.reopen();
    const seen = await t.repos.trades.seen.load();
    expect([...seen.entries()].sort()).toEqual([['buy_order:2', 'Waiting for buyer'], ['market:1', 'Action Required']]);
    await t.repos.trades.seen.save(new Map([['market:3', 'x']]));
    expect([...(await t.repos.trades.seen.load()).keys()]).toEqual(['market:3']);
  });

  it('keeps the trades announced as needing action across a restart, oldest first, replaced as a whole', async () => {
    t = tempStore();
    await t.repos.trades.announced.save(['market:1:Action Required', 'buy_order:2:Action required', 'buy_order:2:confirmation_required']);
    t.reopen();
    expect(await t.repos.trades.announced.load()).toEqual(['market:1:Action Required', 'buy_order:2:Action required', 'buy_order:2:confirmation_required']);
    await t.repos.trades.announced.save(['buy_order:2:confirmation_required']);
    expect(await t.repos.trades.announced.load()).toEqual(['buy_order:2:confirmation_required']);
  });

  it('replaces pending trades, keeping when each was first seen', () => {
    let now = 1000;
    t = tempStore({ clock: { now: () => now, monotonic: () => now, sleep: async () => undefined } });
    t.repos.trades.replacePending([trade('1', 'Action Required'), trade('2', 'Waiting for seller')]);
    now = 2000;
    t.repos.trades.replacePending([trade('1', 'Waiting for seller')]);
    const rows = t.repos.trades.pending();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ trade_id: '1', status: 'Waiting for seller', first_seen_at: 1000, updated_at: 2000 });
    expect(rows[0]?.body.items[0]?.sku).toBe('5021;6');
  });

  it('keeps a load in parts: each part as pending, then the trades no part kept dropped a few at a time', () => {
    t = tempStore();
    t.repos.trades.keepPending([trade('1', 'a'), trade('2', 'a'), trade('3', 'a'), trade('4', 'a')], 1000);
    expect(t.repos.trades.dropPendingNotKeptAt(1000, 10)).toBe(0);
    t.repos.trades.keepPending([trade('4', 'b')], 2000);
    t.repos.trades.keepPending([trade('5', 'b')], 2000);
    expect(t.repos.trades.dropPendingNotKeptAt(2000, 2)).toBe(2);
    expect(t.repos.trades.dropPendingNotKeptAt(2000, 2)).toBe(1);
    expect(t.repos.trades.dropPendingNotKeptAt(2000, 2)).toBe(0);
    expect(t.repos.trades.pending().map((r) => [r.trade_id, r.status, r.first_seen_at])).toEqual([['4', 'b', 1000], ['5', 'b', 2000]]);
  });
});
