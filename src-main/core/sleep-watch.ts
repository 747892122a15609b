import type { Clock } from './clock.ts';

/**
 * Notices that the machine slept. Node's monotonic clock (and every timer)
 * stands still while Linux or macOS is suspended, so a heartbeat planned in
 * monotonic time would think its mark still valid after a night with the lid
 * closed, while the service let it lapse hours ago. The wall clock does count
 * the night: when it moves on by more than the monotonic clock did, beyond
 * what a check's own lateness explains, the machine slept (or its clock was
 * set forward, which calls for the same cheap answer: beat and read now).
 * The desktop shell also hears the OS's resume event; this covers a server
 * shell that has none, and a resume event that never came.
 */
export interface SleepWatch {
  stop(): void;
}

export interface SleepWatchOptions {
  readonly clock: Clock;
  /** Called once per sleep noticed, with how long the wall clock says it lasted (ms). */
  readonly onWake: (sleptMs: number) => void;
  /** How often the two clocks are compared; default 10 s. */
  readonly everyMs?: number;
  /** A gap above this counts as sleep; default 30 s. */
  readonly thresholdMs?: number;
}

export function watchForSleep(options: SleepWatchOptions): SleepWatch {
  const { clock } = options;
  const everyMs = options.everyMs ?? 10_000;
  const thresholdMs = options.thresholdMs ?? 30_000;
  const stopped = new AbortController();
  void (async () => {
    let wall = clock.now();
    let mono = clock.monotonic();
    while (!stopped.signal.aborted) {
      try {
        await clock.sleep(everyMs, stopped.signal);
      } catch {
        return;
      }
      const nextWall = clock.now();
      const nextMono = clock.monotonic();
      const gap = nextWall - wall - (nextMono - mono);
      wall = nextWall;
      mono = nextMono;
      if (gap > thresholdMs) options.onWake(gap);
    }
  })();
  return { stop: () => stopped.abort() };
}
