import { ENDPOINTS } from './endpoints.ts';
import type { EndpointName, ResponseOf } from './endpoints.ts';
import { ApiError } from './errors.ts';
import type { ApiErrorDetails, ApiErrorKind } from './errors.ts';
import { parseRetryAfterBody, parseRetryAfterHeader, readRateHeaders } from './rate-headers.ts';
import type { RateHeaders } from './rate-headers.ts';
import { parseDateHeader } from './service-clock.ts';
import { echoedKeyFilter, type EchoedKeyFilter } from './echoed-key.ts';
import { boundedRetryAfterMs, MAX_RETRY_AFTER_MS, MAX_RETRY_AFTER_WORDS } from '../../../src-shared/rate-wait.ts';
import { MAX_ERROR_BODY_CHARS, MAX_MESSAGE_EXCERPT_CHARS, redactSecret, truncate } from './redact.ts';
import type { RawResponse } from './transport.ts';
import { describeIssues, toFieldIssues } from './validate.ts';
import { checkAtOnce, checkInParts } from './list-check.ts';
import { atOnce, inTurns, nextTurn, type Steps, type Turn } from '../turn.ts';
import { parseJsonInParts } from './json-in-parts.ts';

/**
 * What a received response means: the parsed value of the endpoint's response
 * schema, or an ApiError of the kind the scheduler and the UI act on. The key,
 * in any spelling, is taken out of the answer (body and headers, errors and
 * successes alike) before anything reads it, and every error built here has
 * it redacted from its message, body and issues once more.
 *
 * An answer larger than READ_IN_PARTS_ABOVE (a trade list of thousands) is
 * read by the client in parts, a turn of the event loop apart: the search
 * for the key a slice at a time, the check of a list some elements at a
 * time, and a list's JSON a group of its elements at a time
 * (json-in-parts.ts). Smaller answers are read in one step.
 */

/** Bytes above which the client reads an answer in parts. */
export const READ_IN_PARTS_ABOVE = 256 * 1024;

/**
 * Rate-limit facts of one response, handed to `onRateLimit`. The service's
 * absolute times are turned into durations from the moment the answer came,
 * so no wall-clock step between then and their use can move them.
 */
export interface RateLimitInfo extends Omit<RateHeaders, 'resetAt'> {
  endpoint: EndpointName;
  status: number;
  /** How long after the answer came the window resets (X-RateLimit-Reset, read on the service's clock). */
  resetInMs?: number;
  /** For a 429: how long the service asked us to wait, at most MAX_RETRY_AFTER_MS. */
  retryAfterMs?: number;
}

export interface ResponseContext {
  /** The key sent with this request, to redact from anything kept. */
  readonly secret: string;
  /** Now on the client's clock: the service's absolute times are turned into it. */
  readonly nowMs: number;
  readonly maxResponseBytes: number;
  readonly onRateLimit?: (info: RateLimitInfo) => void;
  /** Told when the answer held the key (which was taken out before anything read it). */
  readonly onKeyEcho?: (endpoint: EndpointName) => void;
  /** How a large answer gives the event loop back between its parts; default the next turn. */
  readonly turn?: Turn;
}

/** Builds ApiErrors with the key scrubbed from every text they carry. */
export function redactingErrors(secret: string) {
  return (kind: ApiErrorKind, message: string, details: ApiErrorDetails = {}): ApiError =>
    new ApiError(kind, redactSecret(message, secret), {
      ...details,
      ...(details.body === undefined ? {} : { body: redactSecret(details.body, secret) }),
      ...(details.issues === undefined
        ? {}
        : {
            issues: details.issues.map((issue) => ({
              ...issue,
              field: redactSecret(issue.field, secret),
              message: redactSecret(issue.message, secret),
            })),
          }),
    });
}

/** Turns a received response into the endpoint's parsed value or throws its ApiError, in one step. */
export function interpretResponse<K extends EndpointName>(
  endpoint: K,
  raw: RawResponse,
  ctx: ResponseContext,
): ResponseOf<K> {
  return atOnce(interpretSteps(endpoint, raw, ctx, false));
}

/**
 * The same for the client: an answer over READ_IN_PARTS_ABOVE bytes is read
 * in parts with a turn between them, a smaller one in one step.
 */
export async function readResponse<K extends EndpointName>(
  endpoint: K,
  raw: RawResponse,
  ctx: ResponseContext,
): Promise<ResponseOf<K>> {
  const large = raw.body.length > READ_IN_PARTS_ABOVE;
  const steps = interpretSteps(endpoint, raw, ctx, large);
  return large ? inTurns(steps, ctx.turn ?? nextTurn) : atOnce(steps);
}

function* interpretSteps<K extends EndpointName>(endpoint: K, raw: RawResponse, ctx: ResponseContext, inParts: boolean): Steps<ResponseOf<K>> {
  const filter = echoedKeyFilter(ctx.secret);
  try {
    return yield* interpret(endpoint, { ...raw, headers: filter.headers(raw.headers) }, ctx, filter, inParts);
  } finally {
    if (filter.found) tell(() => ctx.onKeyEcho?.(endpoint));
  }
}

function* interpret<K extends EndpointName>(
  endpoint: K,
  raw: RawResponse,
  ctx: ResponseContext,
  filter: EchoedKeyFilter,
  inParts: boolean,
): Steps<ResponseOf<K>> {
  const { status } = raw;
  const fail = redactingErrors(ctx.secret);
  const text = raw.body.toString('utf8');
  // Built when an error needs it: a large successful answer is not copied for nothing.
  let kept: { body: string; excerpt: string } | null = null;
  const errorBody = () => {
    if (kept === null) {
      const body = truncate(filter.text(text), MAX_ERROR_BODY_CHARS);
      kept = { body, excerpt: body === '' ? '' : `: ${truncate(body.replace(/\s+/g, ' ').trim(), MAX_MESSAGE_EXCERPT_CHARS)}` };
    }
    return kept;
  };

  // The service's absolute times are on its clock, which its Date header shows: an HTTP-date
  // Retry-After and X-RateLimit-Reset are measured against that, as durations from now.
  const serviceNow = ctx.nowMs + serviceSkew(raw, ctx.nowMs);
  const askedMs = status === 429 ? (parseRetryAfterBody(parseJson(text)) ?? parseRetryAfterHeader(raw.headers, serviceNow)) : undefined;
  const retryAfterMs = askedMs === undefined ? undefined : boundedRetryAfterMs(askedMs);
  const { resetAt, ...counts } = readRateHeaders(raw.headers);
  report(ctx, {
    endpoint,
    status,
    ...counts,
    ...(resetAt === undefined ? {} : { resetInMs: Math.max(0, resetAt - serviceNow) }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });

  const base = () => ({ endpoint, status, body: errorBody().body });
  const excerpt = () => errorBody().excerpt;
  if (status === 401) {
    throw fail('auth', `${endpoint}: the service refused the API key (status 401)`, base());
  }
  if (status === 403) {
    throw fail('forbidden', `${endpoint}: the account is not allowed to do this (status 403)${excerpt()}`, base());
  }
  if (status === 429) {
    const wait = retryAfterMs === undefined ? '' : `; retry after ${Math.ceil(retryAfterMs / 1000)} s${waitCapped(askedMs)}`;
    throw fail('rate_limited', `${endpoint}: rate limit exceeded (status 429)${wait}`, {
      ...base(),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  }
  if (status >= 500) {
    throw fail('server', `${endpoint}: the service failed (status ${status})${excerpt()}`, base());
  }
  if (status >= 400) {
    throw fail('rejected', `${endpoint}: the service refused the request (status ${status})${excerpt()}`, base());
  }
  if (status < 200 || status >= 300) {
    throw fail('bad_response', `${endpoint}: unexpected status ${status}`, base());
  }

  if (raw.truncated) {
    throw fail('bad_response', `${endpoint}: the response is larger than ${ctx.maxResponseBytes} bytes`, base());
  }
  // A large list is parsed a group of its elements a step, after the body's decoding.
  if (inParts) yield;
  const parsedJson = inParts ? yield* parseJsonSteps(text) : parseJson(text);
  if (parsedJson === NOT_JSON) {
    throw fail('bad_response', `${endpoint}: the response is not valid JSON${excerpt()}`, base());
  }
  if (inParts) yield;
  const json = yield* filter.json(parsedJson, text);
  if (typeof json === 'object' && json !== null && (json as { success?: unknown }).success === false) {
    throw fail('rejected', `${endpoint}: the service answered success: false${excerpt()}`, base());
  }
  const schema = ENDPOINTS[endpoint].response;
  const parsed = inParts ? yield* checkInParts(schema, json) : checkAtOnce(schema, json);
  if (!parsed.success) {
    const issues = toFieldIssues(parsed.issues);
    throw fail('bad_response', `${endpoint}: ${describeIssues(issues)}`, { ...base(), issues });
  }
  return parsed.data as ResponseOf<K>;
}

/**
 * Below this, a difference between the `Date` header and our clock is the
 * header's whole seconds and the answer's travel time, not a clock that is
 * off: correcting by it would only add noise.
 */
const CLOCK_NOISE_MS = 2_000;

/** How far the service's clock is ahead of ours by this response's `Date` (0 when within the noise or absent). */
function serviceSkew(raw: RawResponse, nowMs: number): number {
  const date = parseDateHeader(raw.headers['date']);
  if (date === undefined) return 0;
  const skew = date - nowMs;
  return Math.abs(skew) > CLOCK_NOISE_MS ? skew : 0;
}

/** Says so when the service asked for more than the desk waits. */
function waitCapped(askedMs: number | undefined): string {
  if (askedMs === undefined || askedMs <= MAX_RETRY_AFTER_MS) return '';
  return ` (the service asked for ${Math.ceil(askedMs / 1000)} s; the desk waits at most ${MAX_RETRY_AFTER_WORDS})`;
}

const NOT_JSON: unique symbol = Symbol('not JSON');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

function* parseJsonSteps(text: string): Steps<unknown> {
  try {
    return yield* parseJsonInParts(text);
  } catch {
    return NOT_JSON;
  }
}

function report(ctx: ResponseContext, info: RateLimitInfo): void {
  const { onRateLimit } = ctx;
  if (onRateLimit !== undefined) tell(() => onRateLimit(info));
}

function tell(listener: () => void): void {
  try {
    listener();
  } catch {
    // A listener's own failure must not turn a received response into an
    // error: the request's outcome is already decided by the service.
  }
}
