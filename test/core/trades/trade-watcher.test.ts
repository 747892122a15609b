import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import { createMemorySeenTradesStore } from '../../../src-main/core/trades/seen-trades.ts';
import type { SeenTradesStore } from '../../../src-main/core/store/watcher-memory.ts';
import { tradeKey } from '../../../src-main/core/trades/trade-diff.ts';
import type { WatchedTrade } from '../../../src-main/core/trades/trade-watcher.ts';
import { buyOrderTrade, marketTrade } from './fixtures.ts';
import { MIN, sentTimes, watch, world } from './support.ts';

describe('trade watcher', () => {
  it('polls both trade lists within their 1/min limit and reads the balance every few minutes', async () => {
    const w = world();
    const { watcher } = watch(w, createMemorySeenTradesStore());
    const t0 = w.clock.now();
    watcher.start();
    await w.clock.advance(12 * MIN);
    watcher.stop();
    for (const endpoint of ['load_pending', 'load_pending_buy_orders']) {
      const times = sentTimes(w.service, endpoint);
      expect(times.length).toBeGreaterThanOrEqual(11);
      times.slice(1).forEach((t, i) => expect(t - (times[i] as number)).toBeGreaterThanOrEqual(MIN));
    }
    expect(sentTimes(w.service, 'get_balance').map((t) => t - t0)).toEqual([0, 5 * MIN + 200, 10 * MIN + 400]);
    expect(watcher.balance()).toMatchObject({ balance: 10_000, pending_balance: 0 });
    expect(w.service.log.filter((r) => r.status === 429)).toEqual([]);
    const count = w.service.log.length;
    await w.clock.advance(10 * MIN);
    expect(w.service.log).toHaveLength(count);
  });

  it('says when the trades on hand were asked for, before the load answered (the lists are as of some moment between)', async () => {
    const w = world({ latencyMs: () => 20_000 });
    // History places each trade's end between the balance readings by this moment: the answer's would be up to a
    // whole latency late, after a balance read asked later and answered sooner.
    const recorded: Array<{ listedAt: number; at: number }> = [];
    const { watcher } = watch(w, createMemorySeenTradesStore(), undefined, { record: async ({ listedAt, at }) => void recorded.push({ listedAt, at }) });
    w.market = [marketTrade('m1', 'Waiting for seller')];
    const t0 = w.clock.now();
    watcher.start();
    await w.clock.advance(30_000);
    watcher.stop();
    expect(watcher.trades().map(tradeKey)).toEqual(['market:m1']);
    expect(watcher.listedAt()).toBe(t0);
    expect(watcher.checkedAt()).toBe(t0 + 20_000);
    expect(recorded).toEqual([{ listedAt: t0, at: t0 + 20_000 }]);
  });

  it('announces each trade and status that needs action once, also across a restart', async () => {
    const w = world();
    const store = createMemorySeenTradesStore();
    const first = watch(w, store);
    w.market = [marketTrade('m1', 'Action Required'), marketTrade('m2', 'Waiting for seller')];
    w.buyOrders = [buyOrderTrade('b1', 'Action required'), buyOrderTrade('b2', 'Waiting for buyer')];
    first.watcher.start();
    await w.clock.advance(5 * MIN);
    expect(first.events.needsAction).toEqual(['market:m1=Action Required', 'buy_order:b1=Action required']);
    expect(first.events.new).toEqual(['market:m1', 'market:m2', 'buy_order:b1', 'buy_order:b2']);

    // A status moves on: announced once more, with the change.
    w.buyOrders = [buyOrderTrade('b1', 'Action required'), buyOrderTrade('b2', 'confirmation_required')];
    await w.clock.advance(5 * MIN);
    expect(first.events.needsAction).toEqual([
      'market:m1=Action Required',
      'buy_order:b1=Action required',
      'buy_order:b2=confirmation_required',
    ]);
    expect(first.events.changed).toEqual(['buy_order:b2:Waiting for buyer->confirmation_required']);
    first.watcher.stop();

    // Restart: a fresh watcher over the same saved set says nothing about what was announced.
    const second = watch(w, store);
    second.watcher.start();
    await w.clock.advance(3 * MIN);
    expect(second.events).toMatchObject({ needsAction: [], new: [], changed: [] });
    // m1 goes away, m2 now waits for the trader.
    w.market = [marketTrade('m2', 'Action Required')];
    await w.clock.advance(2 * MIN);
    expect(second.events.needsAction).toEqual(['market:m2=Action Required']);
    expect(second.events.gone).toEqual(['market:m1']);
    expect(second.watcher.trades().map(tradeKey)).toEqual(['buy_order:b1', 'buy_order:b2', 'market:m2']);
    second.watcher.stop();
  });

  it('flags partners whose account is younger than the configured age', async () => {
    const w = world();
    const { watcher } = watch(w, createMemorySeenTradesStore(), 14);
    w.market = [marketTrade('young', 'Action Required', 3), marketTrade('old', 'Action Required', 20)];
    await w.clock.run(watcher.checkNow());
    const byId = new Map(watcher.trades().map((t: WatchedTrade) => [t.trade_id, t]));
    expect(byId.get('young')).toMatchObject({ youngPartner: true, partnerAgeDays: 3, needsAction: true });
    expect(byId.get('old')).toMatchObject({ youngPartner: false, partnerAgeDays: 20 });
  });

  it('does not call trades of a list that failed to load gone, and reports the error', async () => {
    const w = world();
    const { watcher, events } = watch(w, createMemorySeenTradesStore());
    w.market = [marketTrade('m1', 'Action Required')];
    w.buyOrders = [buyOrderTrade('b1', 'Action required')];
    await w.clock.run(watcher.checkNow());
    w.service.failNext('load_pending_buy_orders', () => new ApiError('rejected', 'odd', { status: 400 }));
    w.market = [];
    await w.clock.run(watcher.checkNow());
    expect(events.gone).toEqual(['market:m1']);
    expect(events.errors.map((e) => e.kind)).toEqual(['rejected']);
    expect(watcher.trades().map(tradeKey)).toEqual(['buy_order:b1']);
  });

  it('refreshes the balance on demand', async () => {
    const w = world();
    const { watcher } = watch(w, createMemorySeenTradesStore());
    const readings: number[] = [];
    watcher.on('balance', (b) => readings.push(b.balance));
    w.service.respond('get_balance', () => ({ balance: 4_200, pending_balance: 100 }));
    const reading = await w.clock.run(watcher.refreshBalance());
    expect(reading).toEqual({ balance: 4_200, pending_balance: 100, readAt: w.clock.now() });
    expect(readings).toEqual([4_200]);
  });

  it('still watches when the saved set cannot be read or written', async () => {
    const w = world();
    const broken: SeenTradesStore = {
      load: () => Promise.reject(new Error('database locked')),
      save: () => Promise.reject(new Error('disk full')),
    };
    const { watcher, events } = watch(w, broken);
    w.market = [marketTrade('m1', 'Action Required')];
    await w.clock.run(watcher.checkNow());
    await w.clock.run(watcher.checkNow());
    expect(events.needsAction).toEqual(['market:m1=Action Required']);
    expect(events.errors.map((e) => e.message)).toEqual(['Error: database locked', 'Error: disk full']);
  });
});
