import { describe, expect, it } from 'vitest';
import { createMemorySeenTradesStore } from '../../../src-main/core/trades/seen-trades.ts';
import type { WatchedTrade } from '../../../src-main/core/trades/trade-watcher.ts';
import { marketTrade, buyOrderTrade } from './fixtures.ts';
import { MIN, sentTimes, watch, world } from './support.ts';

const requests = (w: ReturnType<typeof world>) => w.service.log.length;

describe('trade watcher settings changed live', () => {
  it('a new poll interval re-plans the wait under way, sending nothing of its own', async () => {
    const w = world();
    const { watcher } = watch(w, createMemorySeenTradesStore());
    const t0 = w.clock.now();
    watcher.start();
    await w.clock.advance(10_000);
    watcher.configure({ pollIntervalMs: 5 * MIN });
    await w.clock.advance(4 * MIN);
    expect(sentTimes(w.service, 'load_pending').map((t) => t - t0)).toEqual([0]);
    await w.clock.advance(2 * MIN);
    expect(sentTimes(w.service, 'load_pending').map((t) => t - t0)).toEqual([0, 5 * MIN + 200]);
    // Back to a minute while a 5-minute wait is under way: the wait is measured again, and the poll is due.
    await w.clock.advance(2 * MIN);
    watcher.configure({ pollIntervalMs: 60_000 });
    await w.clock.advance(1_000);
    expect(sentTimes(w.service, 'load_pending').map((t) => t - t0)).toEqual([0, 5 * MIN + 200, 8 * MIN + 10_000]);
    // Never faster than the endpoints allow.
    watcher.configure({ pollIntervalMs: 1_000 });
    await w.clock.advance(5 * MIN);
    const times = sentTimes(w.service, 'load_pending');
    times.slice(1).forEach((t, i) => expect(t - (times[i] ?? 0)).toBeGreaterThanOrEqual(MIN));
    watcher.stop();
  });

  it('a new young-account age re-flags the trades on hand: no request, no trade dropped', async () => {
    const w = world();
    w.market.push(marketTrade('1', 'Action Required', 20), marketTrade('2', 'Action Required', 400));
    w.buyOrders.push(buyOrderTrade('3', 'Action required', 5));
    const { watcher } = watch(w, createMemorySeenTradesStore());
    await w.clock.run(watcher.checkNow());
    const flags = (list: readonly WatchedTrade[]) => list.map((t) => [t.trade_id, t.youngPartner]);
    expect(flags(watcher.trades())).toEqual([['3', true], ['1', true], ['2', false]]);
    const announced: (readonly WatchedTrade[])[] = [];
    watcher.on('trades', (list) => announced.push(list));
    const before = requests(w);
    watcher.configure({ youngAccountDays: 10 });
    expect(requests(w)).toBe(before);
    expect(flags(watcher.trades())).toEqual([['3', true], ['1', false], ['2', false]]);
    expect(announced.map(flags)).toEqual([[['3', true], ['1', false], ['2', false]]]);
    // The same age again changes nothing and announces nothing.
    watcher.configure({ youngAccountDays: 10 });
    expect(announced).toHaveLength(1);
  });

  it('a fresh check does not settle for a load sent before it was asked', async () => {
    const w = world();
    const { watcher } = watch(w, createMemorySeenTradesStore());
    const first = watcher.checkNow();
    await w.clock.advance(50);
    w.market.push(marketTrade('7', 'Action Required'));
    const fresh = watcher.checkNow({ fresh: true });
    await w.clock.run(Promise.all([first, fresh]));
    expect(watcher.trades().map((t) => t.trade_id)).toEqual(['7']);
    expect(sentTimes(w.service, 'load_pending')).toHaveLength(2);
  });
});
