import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../src-main/core/clock.ts';
import { watchForSleep } from '../../src-main/core/sleep-watch.ts';

/**
 * A suspend stops Node's monotonic clock and its timers but not the wall
 * clock: after it, the wall clock has moved on by the night. vitest's fake
 * timers play it: `vi.setSystemTime` moves the wall clock alone.
 */
describe('watchForSleep', () => {
  afterEach(() => void vi.useRealTimers());

  it('calls onWake once after the wall clock ran ahead of the monotonic one, and not for a check that was merely late', async () => {
    vi.useFakeTimers();
    const wakes: number[] = [];
    const watch = watchForSleep({ clock: systemClock, onWake: (ms) => wakes.push(ms), everyMs: 10_000, thresholdMs: 30_000 });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(wakes).toEqual([]);

    // Eight hours of sleep: the wall clock moved on, the timers did not.
    vi.setSystemTime(Date.now() + 8 * 3_600_000);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(wakes).toHaveLength(1);
    expect(wakes[0]).toBeGreaterThanOrEqual(8 * 3_600_000 - 10_000);

    // A clock set back, or twenty seconds of drift, is not sleep.
    vi.setSystemTime(Date.now() - 2 * 3_600_000);
    await vi.advanceTimersByTimeAsync(10_000);
    vi.setSystemTime(Date.now() + 20_000);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(wakes).toHaveLength(1);
    watch.stop();
  });

  it('stops comparing once stopped', async () => {
    vi.useFakeTimers();
    const wakes: number[] = [];
    const watch = watchForSleep({ clock: systemClock, onWake: (ms) => wakes.push(ms) });
    watch.stop();
    vi.setSystemTime(Date.now() + 8 * 3_600_000);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(wakes).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
