/**
 * Time, injected. Core code never calls `Date.now()`, `performance.now()` or
 * `setTimeout` directly so that tests drive it with fake timers and benchmarks
 * run a "minute" of the service in a fraction of a second (the sandbox scales
 * its clock the same way).
 *
 * Two readings, for two jobs. The wall clock (`now`) steps: NTP corrects it,
 * the trader sets it, a laptop resumes with a wrong RTC. So it only shows
 * times and reads the service's absolute times. Every duration (a plan, a
 * rate slot, a backoff, a deadline) is measured on `monotonic`, which never
 * steps.
 */
export interface Clock {
  /** Whole milliseconds since the Unix epoch, in the clock's own time: for showing times, never for measuring them. */
  now(): number;
  /** Milliseconds from an arbitrary origin that never steps back or jumps: for every duration. */
  monotonic(): number;
  /**
   * Resolves after `ms` of the clock's own monotonic time. Rejects with the
   * signal's reason when aborted, so a cancelled wait never lingers.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * The longest delay a timer takes: setTimeout runs a longer one after 1 ms
 * (a wait of years would spin), so a longer sleep is made of chunks.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The real clocks. Honours vitest's fake timers, which replace the globals
 * (`vi.setSystemTime` steps `Date.now` alone, as a wall-clock step does).
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  sleep: (ms, signal) => sleepReal(ms, signal),
};

/**
 * A clock that runs `scale` times faster than `base`. `scale = 60` makes a
 * minute last a second. Two processes that pass the same `origin` (a
 * wall-clock epoch in ms, default: now) agree on the wall time, which lets a
 * child process share the sandbox's scaled time; monotonic time is each
 * process's own, scaled from when the clock was made.
 */
export function scaledClock(scale: number, origin: number = systemClock.now(), base: Clock = systemClock): Clock {
  if (!(scale > 0)) throw new RangeError('time scale must be a positive number');
  const monotonicOrigin = base.monotonic();
  // The base's wall time is read as its monotonic time plus this offset, so the two readings agree to a
  // fraction of a millisecond (Date.now has whole ones, and a scaled millisecond is many): a wall time
  // shown for a monotonic instant does not jitter. A step of the base's wall clock moves the offset.
  let wallOffset = base.now() - monotonicOrigin;
  const baseWall = () => {
    const mono = base.monotonic();
    const offset = base.now() - mono;
    if (Math.abs(offset - wallOffset) > 1) wallOffset = offset;
    return mono + wallOffset;
  };
  return {
    // Whole milliseconds, as Date.now gives: the store keeps times as integers.
    now: () => Math.round(origin + (baseWall() - origin) * scale),
    monotonic: () => monotonicOrigin + (base.monotonic() - monotonicOrigin) * scale,
    sleep: (ms, signal) => base.sleep(ms / scale, signal),
  };
}

/** A monotonic instant of `clock` as the wall-clock time it falls at, read now (for showing it). */
export function wallTimeOf(clock: Clock, monotonicAt: number): number {
  return Math.round(clock.now() + (monotonicAt - clock.monotonic()));
}

async function sleepReal(ms: number, signal?: AbortSignal): Promise<void> {
  let left = Math.max(0, ms);
  do {
    const chunk = Math.min(left, MAX_TIMER_MS);
    await timer(chunk, signal);
    left -= chunk;
  } while (left > 0);
}

function timer(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const handle = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(handle);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
