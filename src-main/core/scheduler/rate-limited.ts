import type { RateLimitInfo } from '../api/client.ts';
import { ENDPOINTS, GLOBAL_LIMIT_PER_MINUTE, RATE_WINDOW_MS, type EndpointName } from '../api/endpoints.ts';
import type { ApiError } from '../api/errors.ts';
import type { RateBudget } from './rate-budget.ts';
import type { RateScope } from './types.ts';

/**
 * What a 429 means for the budget. The service has one global limit and one
 * per endpoint and does not say outright which one refused us; the
 * X-RateLimit-Limit header (80 = global) and the body's wording tell them
 * apart when they can. When they cannot, the endpoint is paused and the
 * global budget is assumed half spent by someone else, which is cheap if
 * wrong and stops a storm if right.
 */
export function rateLimitedScope(
  endpoint: EndpointName,
  note: RateLimitInfo | undefined,
  error: ApiError,
): RateScope | 'unsure' {
  if (note?.limit === GLOBAL_LIMIT_PER_MINUTE) return 'global';
  if (note?.limit === ENDPOINTS[endpoint].perMinute) return endpoint;
  const body = error.body ?? '';
  if (/global/i.test(body)) return 'global';
  if (/endpoint/i.test(body) || body.includes(ENDPOINTS[endpoint].path)) return endpoint;
  return 'unsure';
}

/** How long the service asked us to wait; one window when it did not say. */
export function rateLimitedWaitMs(note: RateLimitInfo | undefined, error: ApiError, now: number): number {
  const asked = error.retryAfterMs ?? note?.retryAfterMs;
  if (asked !== undefined) return asked;
  if (note?.resetAt !== undefined && note.resetAt > now) return note.resetAt - now;
  return RATE_WINDOW_MS;
}

/** Pauses the right scope for a 429 received at `now`. */
export function applyRateLimited(
  budget: RateBudget,
  endpoint: EndpointName,
  note: RateLimitInfo | undefined,
  error: ApiError,
  now: number,
): void {
  const until = now + rateLimitedWaitMs(note, error, now);
  const scope = rateLimitedScope(endpoint, note, error);
  if (scope === 'global') {
    budget.pause('global', until);
    return;
  }
  budget.pause(endpoint, until);
  if (scope === 'unsure') {
    budget.reserve('global', Math.ceil(budget.remaining('global', now) / 2), now);
  }
}
