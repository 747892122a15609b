import type { Clock } from '../../../../src-main/core/clock.ts';

/**
 * A clock that stands still until the test moves it. `sleep` resolves when
 * the test advances time past its deadline; between deadlines every pending
 * promise chain is let run, so code under test sees time pass exactly as it
 * would, only without waiting. Its monotonic time starts at the same number
 * as its wall time and the two move together, until the test steps the wall
 * clock alone (`stepWall`), as NTP or a trader setting the clock does.
 */
export interface VirtualClock extends Clock {
  /** Moves time forward by `ms`, firing every sleep that falls due on the way, in order. */
  advance(ms: number): Promise<void>;
  /** Steps the wall clock by `ms` (negative: back); monotonic time and the sleeps do not move. */
  stepWall(ms: number): void;
  /** Moves time forward from deadline to deadline until `promise` settles; fails after `maxMs`. */
  run<T>(promise: Promise<T>, maxMs?: number): Promise<T>;
  /** Lets every pending promise chain run without moving time. */
  flush(): Promise<void>;
  /** Sleeps not yet due. */
  readonly pending: number;
}

interface Timer {
  at: number;
  seq: number;
  fire(): void;
}

export function createVirtualClock(start = Date.UTC(2025, 0, 6, 9, 0, 0)): VirtualClock {
  // `now` is the monotonic time; the wall clock is it plus every step so far.
  let now = start;
  let wallStep = 0;
  let seq = 0;
  const timers: Timer[] = [];

  const flush = async () => {
    // A macrotask turn runs after the whole microtask queue has drained.
    for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  };

  const nextDue = (limit: number): Timer | undefined => {
    let best: Timer | undefined;
    for (const t of timers) {
      if (t.at <= limit && (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq))) best = t;
    }
    return best;
  };

  const fireNext = (limit: number): boolean => {
    const timer = nextDue(limit);
    if (!timer) return false;
    timers.splice(timers.indexOf(timer), 1);
    now = Math.max(now, timer.at);
    timer.fire();
    return true;
  };

  return {
    now: () => now + wallStep,
    monotonic: () => now,
    stepWall(ms) {
      wallStep += ms;
    },
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const onAbort = () => {
          const i = timers.indexOf(timer);
          if (i >= 0) timers.splice(i, 1);
          reject(signal?.reason);
        };
        const timer: Timer = {
          at: now + Math.max(0, ms),
          seq: seq++,
          fire: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        timers.push(timer);
      });
    },
    async advance(ms) {
      const target = now + ms;
      await flush();
      while (fireNext(target)) await flush();
      now = Math.max(now, target);
      await flush();
    },
    async run(promise, maxMs = 24 * 3_600_000) {
      const limit = now + maxMs;
      let settled = false;
      promise.then(
        () => (settled = true),
        () => (settled = true),
      );
      await flush();
      while (!settled) {
        if (!fireNext(limit)) throw new Error(`nothing left to run before ${maxMs} ms and the promise has not settled`);
        await flush();
      }
      return promise;
    },
    flush,
    get pending() {
      return timers.length;
    },
  };
}
