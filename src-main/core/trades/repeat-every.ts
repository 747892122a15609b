import type { Clock } from '../clock.ts';

/**
 * Runs `step` (which reports its own failures) now and then `interval()`
 * after each ends, on the monotonic clock, until `signal` aborts. A wait in
 * `waits` can be woken to measure the interval again (the trader changed it):
 * the wait already under way is then as long as the new interval says.
 */
export async function repeatEvery(
  clock: Pick<Clock, 'monotonic' | 'sleep'>,
  signal: AbortSignal,
  interval: () => number,
  step: () => Promise<unknown>,
  waits?: Set<AbortController>,
): Promise<void> {
  while (!signal.aborted) {
    await step();
    const endedAt = clock.monotonic();
    for (;;) {
      const wait = endedAt + interval() - clock.monotonic();
      if (wait <= 0) break;
      const wake = new AbortController();
      waits?.add(wake);
      try {
        await clock.sleep(wait, AbortSignal.any([signal, wake.signal]));
        break;
      } catch {
        if (signal.aborted) return;
      } finally {
        waits?.delete(wake);
      }
    }
  }
}
