import { z } from 'zod';
import { rateLimitedBody } from './schemas.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

export { boundedRetryAfterMs, MAX_RETRY_AFTER_MS } from '../../../src-shared/rate-wait.ts';

/**
 * Reading the service's rate-limit signals: the X-RateLimit-* headers of every
 * response, and for a 429 how long to wait (the JSON body's `retry_after`
 * first, the `Retry-After` header second). The scheduler learns its budget
 * from these, so a malformed value is dropped rather than guessed at. What
 * the service asks is read as it is; the wait is bounded (MAX_RETRY_AFTER_MS)
 * where it is turned into one.
 */

/** Header values as undici hands them over. */
export type ResponseHeaders = Record<string, string | string[] | undefined>;

export interface RateHeaders {
  limit?: number;
  remaining?: number;
  /** When the window resets, in ms since the epoch on the service's clock (the header is Unix seconds). */
  resetAt?: number;
}

const wholeNumber = lazySchema(() => z
  .string()
  .trim()
  .regex(/^\d{1,15}$/)
  .transform(Number));

const seconds = lazySchema(() => z
  .string()
  .trim()
  .regex(/^\d{1,10}(?:\.\d+)?$/)
  .transform(Number));

function header(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function numberHeader(headers: ResponseHeaders, name: string): number | undefined {
  const result = wholeNumber.safeParse(header(headers, name));
  return result.success ? result.data : undefined;
}

/** The X-RateLimit-Limit/Remaining/Reset headers; absent or malformed ones are left out. */
export function readRateHeaders(headers: ResponseHeaders): RateHeaders {
  const out: RateHeaders = {};
  const limit = numberHeader(headers, 'x-ratelimit-limit');
  const remaining = numberHeader(headers, 'x-ratelimit-remaining');
  const reset = numberHeader(headers, 'x-ratelimit-reset');
  if (limit !== undefined) out.limit = limit;
  if (remaining !== undefined) out.remaining = remaining;
  if (reset !== undefined) out.resetAt = reset * 1000;
  return out;
}

/**
 * The `Retry-After` header in ms: delta seconds, or an HTTP-date measured
 * against `nowMs` (the same clock the service's dates are compared with).
 * A date in the past means "now" (0).
 */
export function parseRetryAfterHeader(headers: ResponseHeaders, nowMs: number): number | undefined {
  const value = header(headers, 'retry-after');
  if (value === undefined) return undefined;
  const delta = seconds.safeParse(value);
  if (delta.success) return Math.round(delta.data * 1000);
  const date = z.string().trim().regex(/[A-Za-z]/).safeParse(value);
  if (!date.success) return undefined;
  const at = Date.parse(date.data);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** `retry_after` of the documented 429 body, in ms; undefined when the body is not that shape. */
export function parseRetryAfterBody(body: unknown): number | undefined {
  const result = rateLimitedBody.safeParse(body);
  return result.success ? Math.round(result.data.retry_after * 1000) : undefined;
}
