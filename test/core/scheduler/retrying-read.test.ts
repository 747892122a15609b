import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import { createRetryingRead, type ReadState } from '../../../src-main/core/scheduler/retrying-read.ts';
import { createVirtualClock } from './support/virtual-clock.ts';

function setup(failures: number) {
  const clock = createVirtualClock();
  const calls: number[] = [];
  let left = failures;
  const read = createRetryingRead({
    clock,
    what: 'get_linked_trade_urls',
    random: () => 1,
    read: async () => {
      calls.push(clock.now());
      await clock.sleep(1_000);
      if (left-- > 0) throw new ApiError('bad_response', 'get_linked_trade_urls: main_account: required');
      return 'accounts';
    },
  });
  const states: ReadState[] = [];
  read.on('state', (s) => states.push(s));
  return { clock, read, calls, states };
}

describe('retrying read', () => {
  it('once started, tries again with growing backoff until a read succeeds, saying when the next try goes', async () => {
    const { clock, read, calls, states } = setup(3);
    const t0 = clock.now();
    read.start();
    await clock.advance(1_500);
    expect(read.state()).toMatchObject({ phase: 'retrying', failures: 1, nextAttemptAt: t0 + 1_000 + 5_000, lastError: { kind: 'bad_response' } });
    await clock.advance(60_000);
    expect(calls.map((t) => t - t0)).toEqual([0, 6_000, 17_000, 38_000]);
    expect(read.state()).toMatchObject({ phase: 'done', failures: 0, lastError: null, nextAttemptAt: null, readAt: t0 + 39_000 });
    expect(states.map((s) => s.phase)).toEqual(['reading', 'retrying', 'reading', 'retrying', 'reading', 'retrying', 'reading', 'done']);
  });

  it('runs one read at a time: every caller meanwhile joins it', async () => {
    const { clock, read, calls } = setup(0);
    const all = Promise.all(Array.from({ length: 10 }, () => read.read()));
    await clock.run(all);
    expect(await all).toEqual(Array(10).fill('accounts'));
    expect(calls).toHaveLength(1);
  });

  it('a read that fails when not started rejects, shows the failure, and plans nothing', async () => {
    const { clock, read, calls } = setup(1);
    await expect(clock.run(read.read())).rejects.toMatchObject({ kind: 'bad_response' });
    expect(read.state()).toMatchObject({ phase: 'failed', nextAttemptAt: null });
    await clock.advance(10 * 60_000);
    expect(calls).toHaveLength(1);
  });

  it('answers a caller with a deadline by then, while the read goes on and still counts', async () => {
    const clock = createVirtualClock();
    const read = createRetryingRead({ clock, what: 'get_balance', read: async () => (await clock.sleep(60_000), 42) });
    const t0 = clock.now();
    await expect(clock.run(read.read(30_000))).rejects.toMatchObject({ kind: 'network', message: 'get_balance: no answer within 30 s; still trying' });
    expect(clock.now() - t0).toBe(30_000);
    await clock.advance(30_000);
    expect(read.state()).toMatchObject({ phase: 'done', readAt: t0 + 60_000 });
  });

  it('stops retrying when stopped', async () => {
    const { clock, read, calls } = setup(99);
    read.start();
    await clock.advance(8_000);
    read.stop();
    await clock.advance(10 * 60_000);
    expect(calls.length).toBeLessThanOrEqual(2);
    expect(read.state().phase).toBe('failed');
  });
});
