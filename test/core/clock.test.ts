import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS, scaledClock, systemClock, wallTimeOf } from '../../src-main/core/clock.ts';

/** The clock every duration is measured on, and the test tool that steps the wall clock. */

const HOUR = 3_600_000;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('clock', () => {
  it('vi.setSystemTime steps the wall clock alone: monotonic time and pending timers do not move', async () => {
    const wall = systemClock.now();
    const mono = systemClock.monotonic();
    let fired = false;
    void systemClock.sleep(60_000).then(() => (fired = true));
    vi.setSystemTime(wall - 2 * HOUR);
    expect(systemClock.now()).toBe(wall - 2 * HOUR);
    expect(systemClock.monotonic()).toBe(mono);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(fired).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(fired).toBe(true);
    expect(systemClock.monotonic() - mono).toBe(60_000);
  });

  it('a scaled clock scales both readings, and a wall step moves only its wall time', () => {
    const clock = scaledClock(60);
    const wall = clock.now();
    const mono = clock.monotonic();
    vi.advanceTimersByTime(1_000);
    expect(clock.now() - wall).toBe(60_000);
    expect(clock.monotonic() - mono).toBe(60_000);
    vi.setSystemTime(Date.now() + 2 * HOUR);
    expect(clock.monotonic() - mono).toBe(60_000);
    expect(clock.now() - wall).toBe(60_000 + 2 * HOUR * 60);
  });

  it('a scaled clock\'s two readings move together: a wall time shown for a monotonic instant does not jitter by a scaled millisecond', async () => {
    vi.useRealTimers();
    const clock = scaledClock(600);
    const gaps: number[] = [];
    for (let i = 0; i < 50; i++) {
      gaps.push(clock.now() - clock.monotonic());
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    // The two reads are microseconds apart, which a scale of 600 makes milliseconds; Date.now's whole
    // milliseconds would make up to 600.
    expect(Math.max(...gaps) - Math.min(...gaps)).toBeLessThan(100);
    expect(Number.isInteger(clock.now())).toBe(true);
  });

  it('a sleep longer than a timer can hold is made of chunks: it neither fires early nor spins', async () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const long = MAX_TIMER_MS + 5_000;
    let fired = false;
    void systemClock.sleep(long).then(() => (fired = true));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fired).toBe(false);
    await vi.advanceTimersByTimeAsync(long - 1_001);
    expect(fired).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(fired).toBe(true);
    expect(timers).toHaveBeenCalledTimes(2);
  });

  it('an aborted long sleep rejects at once', async () => {
    const abort = new AbortController();
    const sleeping = systemClock.sleep(10 * MAX_TIMER_MS, abort.signal);
    abort.abort(new Error('stop'));
    await expect(sleeping).rejects.toThrow('stop');
  });

  it('shows a monotonic instant as the wall-clock time it falls at now', () => {
    const clock = scaledClock(1);
    const at = clock.monotonic() + 30_000;
    vi.setSystemTime(Date.now() - 2 * HOUR);
    expect(wallTimeOf(clock, at)).toBe(Date.now() + 30_000);
  });
});
