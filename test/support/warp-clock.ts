import { MAX_TIMER_MS, scaledClock, type Clock } from '../../src-main/core/clock.ts';

/**
 * A scaled clock a test can also move forward at once: time runs `scale`
 * times faster than the machine's, and `skip(ms)` jumps it ahead, firing
 * every sleep that falls due on the way. So days of a desk and its service
 * pass in seconds while each request still takes its real (scaled) time:
 * between the sleeps nothing is left out, only the waits are shortened.
 * Desk and simulator share one, so they agree on every instant.
 */
export interface WarpClock extends Clock {
  /** Moves time forward by `ms` now; the sleeps due by then fire. */
  skip(ms: number): void;
  /** The monotonic time the earliest pending sleep is due at; null when none is pending. */
  nextDue(): number | null;
}

interface Sleep {
  readonly at: number;
  arm(): void;
  fire(): void;
}

export function warpClock(scale: number, origin?: number): WarpClock {
  const base = scaledClock(scale, origin);
  let ahead = 0;
  const sleeps = new Set<Sleep>();
  const monotonic = () => base.monotonic() + ahead;
  return {
    // Whole milliseconds, as Date.now gives: the store keeps times as integers.
    now: () => Math.round(base.now() + ahead),
    monotonic,
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        let timer: ReturnType<typeof setTimeout> | undefined;
        const end = () => {
          clearTimeout(timer);
          sleeps.delete(entry);
          signal?.removeEventListener('abort', aborted);
        };
        const aborted = () => {
          end();
          reject(signal?.reason);
        };
        const entry: Sleep = {
          at: monotonic() + Math.max(0, ms),
          arm() {
            clearTimeout(timer);
            timer = setTimeout(() => {
              // A timer rounds to whole machine milliseconds: one that came a fraction early waits the rest.
              if (monotonic() + 0.5 < entry.at) return entry.arm();
              entry.fire();
            }, Math.min(MAX_TIMER_MS, Math.max(0, (entry.at - monotonic()) / scale)));
          },
          fire() {
            end();
            resolve();
          },
        };
        signal?.addEventListener('abort', aborted, { once: true });
        sleeps.add(entry);
        entry.arm();
      });
    },
    skip(ms) {
      if (!(ms > 0)) return;
      ahead += ms;
      // The sleeps now due end at once, earliest first; the others wait what is left of theirs.
      const due = [...sleeps].filter((s) => s.at <= monotonic() + 0.5).sort((a, b) => a.at - b.at);
      for (const s of due) s.fire();
      for (const s of sleeps) s.arm();
    },
    nextDue() {
      let due: number | null = null;
      for (const s of sleeps) if (due === null || s.at < due) due = s.at;
      return due;
    },
  };
}
