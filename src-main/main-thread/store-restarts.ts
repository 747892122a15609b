import { DomainError } from '../core/errors.ts';

/**
 * When a data worker that died is started again, and what the calls meanwhile
 * are told. Deaths are counted over a window of time (a duration, on the
 * monotonic clock); past `maxRestarts` within it the worker is not started again.
 */

const RESTART_WINDOW_MS = 60_000;
const RESTART_DELAYS_MS = [0, 100, 500, 2_000, 5_000];

export interface RestartPolicy {
  /** Counts a death now: how long to wait before the next start, or null to give up. */
  died(): number | null;
}

export function restartPolicy(maxRestarts: number): RestartPolicy {
  const deaths: number[] = [];
  return {
    died() {
      const now = performance.now();
      deaths.push(now);
      while ((deaths[0] ?? now) < now - RESTART_WINDOW_MS) deaths.shift();
      if (deaths.length > maxRestarts) return null;
      return RESTART_DELAYS_MS[Math.min(deaths.length - 1, RESTART_DELAYS_MS.length - 1)] ?? 0;
    },
  };
}

export const storeRestarting = () =>
  new DomainError('busy', 'The desk’s store stopped and is being restarted; nothing stored was lost. Try again in a moment');
export const storeClosed = () => new DomainError('internal', 'The desk’s store is closed');
export const storeFailed = () =>
  new DomainError('internal', 'The desk’s store stopped several times and was not restarted; restart the app');
/** A call past its deadline: the worker is alive (else the liveness check ends it) but has not answered. */
export const storeLate = (deadlineMs: number) =>
  new DomainError('busy', `The desk’s store did not answer within ${Math.round(deadlineMs / 1000)} s; what was asked may still be done. Try again in a moment`);
