import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import { createMemorySeenTradesStore } from '../../../src-main/core/trades/seen-trades.ts';
import { MIN, sentTimes, watch, world } from './support.ts';

describe('balance reads', () => {
  it('retries a failed first read with backoff instead of waiting for the next poll, and shows it', async () => {
    const w = world();
    const { watcher } = watch(w, createMemorySeenTradesStore());
    w.service.failNext('get_balance', () => new ApiError('server', 'down', { status: 503 }), 3);
    const t0 = w.clock.now();
    watcher.start();
    await w.clock.advance(1_000);
    expect(watcher.balanceState()).toMatchObject({ phase: 'retrying', lastError: { kind: 'server' } });
    await w.clock.advance(3 * MIN);
    expect(watcher.balance()).not.toBeNull();
    expect(watcher.balanceState()).toMatchObject({ phase: 'done', lastError: null });
    // Each try waited for the endpoint's 2-a-minute slots, not for the 5-minute poll.
    const tries = sentTimes(w.service, 'get_balance').map((t) => t - t0);
    expect(tries).toHaveLength(4);
    expect(tries.at(-1)).toBeLessThan(2 * MIN);
    watcher.stop();
  });

  it('makes one read however many refreshes are asked meanwhile', async () => {
    const w = world();
    const { watcher } = watch(w, createMemorySeenTradesStore());
    const all = Promise.all(Array.from({ length: 10 }, () => watcher.refreshBalance()));
    await w.clock.run(all);
    expect(sentTimes(w.service, 'get_balance')).toHaveLength(1);
  });

  it('answers a refresh within 30 s when the read waits for its slot; the read still lands', async () => {
    const w = world();
    const { watcher } = watch(w, createMemorySeenTradesStore());
    // Both of get_balance's two slots a minute are spent.
    await w.clock.run(watcher.refreshBalance());
    await w.clock.run(watcher.refreshBalance());
    const t0 = w.clock.now();
    await expect(w.clock.run(watcher.refreshBalance())).rejects.toMatchObject({ kind: 'network' });
    expect(w.clock.now() - t0).toBe(30_000);
    await w.clock.advance(MIN);
    expect(sentTimes(w.service, 'get_balance')).toHaveLength(3);
    expect(watcher.balanceState()).toMatchObject({ phase: 'done', lastError: null });
  });

  it('reads for the desk\'s own use through the same read: joins the one on its way, or with `fresh` waits for one sent after the call', async () => {
    const w = world();
    const { watcher } = watch(w, createMemorySeenTradesStore());
    const balances: number[] = [];
    watcher.on('balance', (b) => balances.push(b.readAt));
    // A refresh is on its way (each call takes 200 ms of the virtual clock).
    const onItsWay = watcher.refreshBalance();
    const joined = watcher.readBalance();
    const fresh = watcher.readBalance({ fresh: true });
    const [first, same, after] = await w.clock.run(Promise.all([onItsWay, joined, fresh]));
    expect(same).toBe(first);
    expect(after).not.toBe(first);
    const sent = sentTimes(w.service, 'get_balance');
    expect(sent).toHaveLength(2);
    // The fresh reading's request left after the first one answered.
    expect(sent[1]).toBeGreaterThanOrEqual(first.readAt);
    // Both readings reached the screen like any other.
    expect(balances).toEqual([first.readAt, after.readAt]);
    // With nothing on its way, a fresh read is one read.
    await w.clock.run(watcher.readBalance({ fresh: true }));
    expect(sentTimes(w.service, 'get_balance')).toHaveLength(3);
  });
});
