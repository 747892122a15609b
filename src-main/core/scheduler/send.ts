import type { RateLimitInfo } from '../api/client.ts';
import { ENDPOINTS, type EndpointName, type RequestOf, type ResponseOf } from '../api/endpoints.ts';
import { ApiError, isApiError } from '../api/errors.ts';
import type { Clock } from '../clock.ts';
import type { Dispatcher } from './dispatcher.ts';
import type { RateBudget } from './rate-budget.ts';
import { applyRateLimited } from './rate-limited.ts';
import type { Lane, RequestSender } from './types.ts';

/**
 * One request carried to its end: wait for a turn, send, and deal with what
 * comes back. A 429 pauses its scope and the request waits for its next turn
 * (not a failure); a request that never left, a 5xx, and for an idempotent
 * write a lost or unreadable answer, are tried again after a backoff with
 * jitter; a create that may have been applied (a 5xx, a lost or unreadable
 * answer) is an unknown outcome at once, never sent again from here;
 * 401/403 block the scheduler; anything else is final. Shared by single
 * requests and job batches.
 */

export interface SendContext {
  readonly clock: Clock;
  readonly budget: RateBudget;
  readonly dispatcher: Dispatcher;
  readonly client: RequestSender;
  readonly random: () => number;
  /** Attempts after the first for network errors and 5xx. */
  readonly maxTransientRetries: number;
  /** The 429 details the client reported for this endpoint's latest response, if any (consumed). */
  takeRateLimitInfo(endpoint: EndpointName): RateLimitInfo | undefined;
  /** Stops everything until unblocked (401/403). */
  block(error: ApiError): void;
  /** Moves on when the trader sets another key: an answer about the previous key says nothing of this one. */
  keyEpoch(): number;
  /** A pause was set (the state changed). */
  paused(): void;
}

/** What `beforeSend` says: send as asked (nothing), send this input instead, or send nothing. */
export type Revision<K extends EndpointName> = void | { readonly input: RequestOf<K> } | 'withdrawn';

export interface SendOptions<K extends EndpointName = EndpointName> {
  lane: Lane;
  /** Aborts waiting (for a turn or a backoff); a request already sent is not cut off by it. */
  waitSignal?: AbortSignal;
  /** Passed to the HTTP call itself. */
  callSignal?: AbortSignal;
  /**
   * Awaited after the turn is granted, just before each attempt is sent: may
   * say to send another input instead (the same request with fewer items), or
   * `'withdrawn'` to send nothing (the turn is given back).
   */
  beforeSend?: () => Promise<Revision<K>> | Revision<K>;
  /** Each attempt actually sent. */
  onSent?: () => void;
  /** An attempt left the service unchanged and will be made again (errors thrown here are ignored). */
  onRetry?: (error: ApiError) => Promise<void> | void;
  /** Attempts after the first for transient failures; the scheduler's default when absent. */
  maxRetries?: number;
}

export type SendResult<R> =
  | { kind: 'ok'; response: R }
  /** `beforeSend` said there was nothing left to send: nothing went, the turn was given back. */
  | { kind: 'withdrawn' }
  | { kind: 'error'; error: ApiError; sent: boolean }
  | { kind: 'aborted'; reason: unknown; lastError: ApiError | null };

/** Exponential backoff from 1 s, capped at 60 s, with jitter in its upper half. */
export function backoffMs(retry: number, random: () => number): number {
  const base = Math.min(60_000, 1_000 * 2 ** Math.max(0, retry - 1));
  return Math.round(base * (0.5 + random() * 0.5));
}

/**
 * Anything thrown by the client that is not an ApiError is a bug or an abort;
 * for a write it may have gone out, so it is treated as an unknown outcome.
 */
export function toApiError(error: unknown, endpoint: EndpointName): ApiError {
  if (isApiError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError(ENDPOINTS[endpoint].write ? 'unknown_outcome' : 'network', message, { endpoint, cause: error });
}

/** Kinds of failure after which the service may have applied the request. */
export function mayHaveApplied(error: Pick<ApiError, 'kind'>): boolean {
  return error.kind === 'server' || error.kind === 'unknown_outcome' || error.kind === 'bad_response';
}

/** A create that may have been applied, said as the unknown outcome it is. */
function asUnknownOutcome(error: ApiError, endpoint: EndpointName): ApiError {
  if (error.kind === 'unknown_outcome') return error;
  const what = error.kind === 'server' ? `answered ${error.status ?? '5xx'} after the request reached it` : 'answered something that cannot be read';
  return new ApiError(
    'unknown_outcome',
    `${endpoint}: the service ${what}; it may have applied it, so it is not sent again by itself (${error.message})`,
    { endpoint, ...(error.status === undefined ? {} : { status: error.status }), cause: error },
  );
}

/**
 * When an attempt that failed stops counting against its slot's window. One
 * that ended (an answer, a refused connection) is counted from its end. One
 * we stopped waiting for (a deadline, a cancel) may still reach the service
 * after that, and the service counts it from when it arrives: it is counted
 * as if it arrived as late as it had already been on its way (a beat given up
 * after 30 s holds its slot 30 s longer). Counted from the moment we gave up,
 * a beat the service saw a few seconds later left the next one inside its
 * minute (a 429).
 */
function abandonedOrEnded(now: number, sentAt: number, callSignal: AbortSignal | undefined): number {
  return callSignal?.aborted === true ? now + (now - sentAt) : now;
}

/** Whether another attempt may succeed and cannot do harm. */
function retryable(error: ApiError, endpoint: EndpointName): boolean {
  if (error.kind === 'network' || error.kind === 'server') return true;
  return ENDPOINTS[endpoint].write && ENDPOINTS[endpoint].idempotent && mayHaveApplied(error);
}

function neverSent(error: unknown): boolean {
  return isApiError(error) && error.status === undefined && (error.kind === 'auth' || error.kind === 'invalid');
}

export async function sendThroughBudget<K extends EndpointName>(
  ctx: SendContext,
  endpoint: K,
  input: RequestOf<K>,
  options: SendOptions<K>,
): Promise<SendResult<ResponseOf<K>>> {
  const clock = ctx.clock;
  let body = input;
  let retries = 0;
  let lastError: ApiError | null = null;
  let sentAny = false;
  for (;;) {
    let slot;
    try {
      slot = await ctx.dispatcher.turn(endpoint, options.lane, options.waitSignal);
    } catch (reason) {
      if (options.waitSignal?.aborted) return { kind: 'aborted', reason, lastError };
      // The gate is closed (blocked or closed): nothing more is sent.
      return { kind: 'error', error: toApiError(reason, endpoint), sent: sentAny };
    }
    let revision: Revision<K>;
    try {
      revision = await options.beforeSend?.();
    } catch (cause) {
      slot.cancel();
      ctx.dispatcher.poke();
      const message = `not sent: preparing the request failed (${cause instanceof Error ? cause.message : String(cause)})`;
      return { kind: 'error', error: new ApiError('invalid', message, { endpoint, cause }), sent: sentAny };
    }
    if (revision === 'withdrawn') {
      slot.cancel();
      ctx.dispatcher.poke();
      return { kind: 'withdrawn' };
    }
    if (revision) body = revision.input;
    let error: ApiError;
    const epoch = ctx.keyEpoch();
    const sentAt = clock.monotonic();
    try {
      options.onSent?.();
      sentAny = true;
      const callOptions = options.callSignal ? { signal: options.callSignal } : undefined;
      const response = await ctx.client.call(endpoint, body, callOptions);
      slot.release(clock.monotonic());
      ctx.dispatcher.poke();
      return { kind: 'ok', response };
    } catch (thrown) {
      // Refused by the client before a byte left (no key set, invalid input):
      // the service never counted it, so neither does the budget.
      if (neverSent(thrown)) slot.cancel();
      else slot.release(abandonedOrEnded(clock.monotonic(), sentAt, options.callSignal));
      ctx.dispatcher.poke();
      error = toApiError(thrown, endpoint);
      if (options.callSignal?.aborted) {
        // A write cut off after it left may still have been applied: say so rather than "aborted".
        if (error.kind === 'unknown_outcome') return { kind: 'error', error, sent: true };
        return { kind: 'aborted', reason: options.callSignal.reason, lastError };
      }
    }
    lastError = error;
    const note = ctx.takeRateLimitInfo(endpoint);
    if (error.kind === 'rate_limited') {
      applyRateLimited(ctx.budget, endpoint, note, error, clock.monotonic());
      ctx.paused();
      await notifyRetry(options, error);
      continue;
    }
    if (error.kind === 'auth' || error.kind === 'forbidden') {
      // Sent with the key the trader just replaced: ask again with the new one.
      if (epoch !== ctx.keyEpoch()) continue;
      ctx.block(error);
      return { kind: 'error', error, sent: true };
    }
    if (ENDPOINTS[endpoint].write && !ENDPOINTS[endpoint].idempotent && mayHaveApplied(error)) {
      return { kind: 'error', error: asUnknownOutcome(error, endpoint), sent: true };
    }
    if (!retryable(error, endpoint) || retries >= (options.maxRetries ?? ctx.maxTransientRetries)) {
      return { kind: 'error', error, sent: true };
    }
    retries += 1;
    await notifyRetry(options, error);
    try {
      await clock.sleep(backoffMs(retries, ctx.random), options.waitSignal);
    } catch (reason) {
      return { kind: 'aborted', reason, lastError };
    }
  }
}

/** Tells the caller an attempt changed nothing; a failing hook must not turn a retry into a failure. */
async function notifyRetry(options: SendOptions, error: ApiError): Promise<void> {
  try {
    await options.onRetry?.(error);
  } catch {
    // The caller keeps its conservative record (sent); nothing else to do.
  }
}
