import { boundedRetryAfterMs } from '../../../src-shared/rate-wait.ts';
import type { SourceView } from '../../../src-shared/pricing.ts';
import type { SourceRow } from '../store/price-repo.ts';

/**
 * When a source is read next, on the clock's monotonic time: its interval
 * after a read, or later when it asks (its max-age); after a 429, what its
 * Retry-After asks (capped as every wait of the desk is) or the desk's own
 * backoff when it asks nothing; after another failure, a backoff that
 * doubles from a minute, up to the source's interval.
 */
export interface ReadPlan {
  /** Monotonic ms the next read is due. */
  dueAt: number;
  /** Failures in a row. */
  failures: number;
  /** A wait the source asked for (a 429): no read before it, whoever asks. */
  askedUntil: number | null;
}

const FIRST_BACKOFF_MS = 60_000;

export type ReadOutcome =
  | { readonly ok: true; readonly maxAgeMs: number | null }
  | { readonly ok: false; readonly rateLimited: boolean; readonly retryAfterMs: number | null };

export function nextReadIn(plan: ReadPlan, intervalMs: number, outcome: ReadOutcome, now: number): ReadPlan {
  if (outcome.ok) {
    return { dueAt: now + Math.max(intervalMs, outcome.maxAgeMs ?? 0), failures: 0, askedUntil: null };
  }
  const failures = plan.failures + 1;
  const backoff = Math.min(intervalMs, FIRST_BACKOFF_MS * 2 ** Math.min(failures - 1, 20));
  if (outcome.rateLimited) {
    const wait = outcome.retryAfterMs === null ? backoff : Math.max(boundedRetryAfterMs(outcome.retryAfterMs), 1_000);
    return { dueAt: now + wait, failures, askedUntil: now + wait };
  }
  return { dueAt: now + backoff, failures, askedUntil: null };
}

/**
 * How fresh a source's prices are: never read; stale (its last good read
 * is older than two of its intervals: a source that is down keeps its last
 * prices, and their age says it); failing (its last read failed, the prices
 * kept are still recent); fresh. A list's refused lines are said beside a
 * fresh read, not as a failure.
 */
export function sourceState(row: Pick<SourceRow, 'read_at' | 'problem' | 'config'>, now: number): SourceView['state'] {
  if (row.read_at === null) return row.problem === null ? 'never' : 'failing';
  if (now - row.read_at > 2 * row.config.refreshMinutes * 60_000) return 'stale';
  return row.problem !== null && !/lines? refused/.test(row.problem) ? 'failing' : 'fresh';
}
