import type { RateLimitInfo } from '../api/client.ts';
import { ENDPOINTS, GLOBAL_LIMIT_PER_MINUTE, RATE_WINDOW_MS, type EndpointName } from '../api/endpoints.ts';
import type { ApiError } from '../api/errors.ts';
import { boundedRetryAfterMs } from '../api/rate-headers.ts';
import type { RateBudget } from './rate-budget.ts';
import type { RateScope } from './types.ts';

/**
 * What a 429 means for the budget. The service has one global limit and one
 * per endpoint and does not say outright which one refused us; the
 * X-RateLimit-* headers and the body's wording tell them apart when they can.
 * Some services describe the global limit in those headers on every answer,
 * so `Limit: 80` means the global limit refused only when it has nothing left
 * (`Remaining: 0`); with room left, it was the endpoint's own limit. When
 * nothing tells, the endpoint is paused and the global budget is assumed half
 * spent by someone else, which is cheap if wrong and stops a storm if right.
 */
export function rateLimitedScope(
  endpoint: EndpointName,
  note: RateLimitInfo | undefined,
  error: ApiError,
): RateScope | 'unsure' {
  if (note?.limit === GLOBAL_LIMIT_PER_MINUTE && note.remaining !== undefined) return note.remaining === 0 ? 'global' : endpoint;
  if (note?.limit === ENDPOINTS[endpoint].perMinute) return endpoint;
  const body = error.body ?? '';
  if (/global/i.test(body)) return 'global';
  if (/endpoint/i.test(body) || body.includes(ENDPOINTS[endpoint].path)) return endpoint;
  return 'unsure';
}

/**
 * How long the service asked us to wait; one window when it did not say.
 * Never more than MAX_RETRY_AFTER_MS, however far away it says.
 */
export function rateLimitedWaitMs(note: RateLimitInfo | undefined, error: ApiError): number {
  const asked = error.retryAfterMs ?? note?.retryAfterMs;
  if (asked !== undefined) return boundedRetryAfterMs(asked);
  if (note?.resetInMs !== undefined && note.resetInMs > 0) return boundedRetryAfterMs(note.resetInMs);
  return RATE_WINDOW_MS;
}

/** Pauses the right scope for a 429 received at `now` (monotonic; a global pause names the endpoint that met it). */
export function applyRateLimited(
  budget: RateBudget,
  endpoint: EndpointName,
  note: RateLimitInfo | undefined,
  error: ApiError,
  now: number,
): void {
  const until = now + rateLimitedWaitMs(note, error);
  const scope = rateLimitedScope(endpoint, note, error);
  if (scope === 'global') {
    budget.pause('global', until, endpoint);
    return;
  }
  budget.pause(endpoint, until, endpoint);
  if (scope === 'unsure') {
    budget.reserve('global', Math.ceil(budget.remaining('global', now) / 2), now);
  }
}
