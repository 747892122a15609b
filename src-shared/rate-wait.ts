/**
 * The longest the desk waits on a 429, whatever the service asks (its
 * `Retry-After`, its body's `retry_after`, an `X-RateLimit-Reset` far away):
 * a garbled or hostile answer must not stop the heartbeat and every send for
 * hours. Past it the desk asks again, which costs at most one more 429.
 * The screens that show a wait say this bound.
 */
export const MAX_RETRY_AFTER_MS = 15 * 60_000;

/** The bound in words, for the screens and messages that show a wait. */
export const MAX_RETRY_AFTER_WORDS = '15 min';

/** A wait the service asked for, bounded by MAX_RETRY_AFTER_MS. */
export function boundedRetryAfterMs(ms: number): number {
  return Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS);
}
