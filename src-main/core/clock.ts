/**
 * Time, injected. Core code never calls `Date.now()` or `setTimeout` directly so
 * that tests drive it with fake timers and benchmarks run a "minute" of the
 * service in a fraction of a second (the sandbox scales its clock the same way).
 */
export interface Clock {
  /** Milliseconds since the Unix epoch, in the clock's own time. */
  now(): number;
  /**
   * Resolves after `ms` of the clock's own time. Rejects with the signal's
   * reason when aborted, so a cancelled wait never lingers.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Wall-clock time. Honours vitest's fake timers, which replace the globals. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => sleepReal(ms, signal),
};

/**
 * A clock that runs `scale` times faster than the wall clock. `scale = 60`
 * makes a minute last a second. Two processes that pass the same `origin`
 * (a wall-clock epoch in ms, default: now) agree on the time, which lets a
 * child process share the sandbox's scaled time.
 */
export function scaledClock(scale: number, origin: number = systemClock.now(), base: Clock = systemClock): Clock {
  if (!(scale > 0)) throw new RangeError('time scale must be a positive number');
  return {
    now: () => origin + (base.now() - origin) * scale,
    sleep: (ms, signal) => base.sleep(ms / scale, signal),
  };
}

function sleepReal(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
