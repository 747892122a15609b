import type { Clock } from '../../src-main/core/clock.ts';

/**
 * A clock whose wall time the test steps as NTP, a trader setting the clock
 * or a resume with a wrong RTC would, while its monotonic time and its sleeps
 * run on: a fault of the trader's machine, so it wraps the desk's clock and
 * never the simulator's (the service's clock does not step with ours).
 */
export interface SteppingClock extends Clock {
  /** Steps the wall clock by `ms` (negative: back). */
  stepWall(ms: number): void;
}

export function steppingClock(base: Clock): SteppingClock {
  let step = 0;
  return {
    now: () => base.now() + step,
    monotonic: () => base.monotonic(),
    sleep: (ms, signal) => base.sleep(ms, signal),
    stepWall(ms) {
      step += ms;
    },
  };
}
