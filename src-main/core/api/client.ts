import type { Clock } from '../clock.ts';
import { systemClock } from '../clock.ts';
import { checkBaseUrl } from './base-url.ts';
import { ENDPOINTS } from './endpoints.ts';
import type { EndpointName, RequestOf, ResponseOf } from './endpoints.ts';
import { ApiError } from './errors.ts';
import { safeCause } from './redact.ts';
import { parseDateHeader, type ServiceClock } from './service-clock.ts';
import { readResponse, redactingErrors } from './response.ts';
import type { Turn } from '../turn.ts';
import type { RateLimitInfo } from './response.ts';
import { failureLabel, lazyPool, mayHaveReachedServer, send, unreachableWords } from './transport.ts';
import type { SendOptions } from './transport.ts';
import { validateRequest } from './validate.ts';

/**
 * The typed HTTP client of the service: one call is one HTTP request, its
 * input validated before anything is sent, its response parsed with the
 * endpoint's schema, every failure an ApiError of a kind the scheduler can act
 * on. It keeps no state about the rate budget (the scheduler does) and never
 * keeps the API key: the key is read from the injected source for each call.
 */

export type { RateLimitInfo } from './response.ts';
export { splitIntoRequests } from './split-requests.ts';

export interface ClientOptions {
  /** https://…, or http:// for a loopback host only (the sandbox). */
  baseUrl: string;
  /** Injected key source, read at each call; the client never stores the key. */
  apiKey: () => Promise<string | null>;
  /** Called with every response's X-RateLimit-* headers (errors included). */
  onRateLimit?: (info: RateLimitInfo) => void;
  /** Default 10 000 ms. */
  connectTimeoutMs?: number;
  /** Total time for one request, default 30 000 ms. */
  timeoutMs?: number;
  /**
   * Reads "now" for the service's absolute times (an HTTP-date Retry-After,
   * X-RateLimit-Reset) and times each exchange for the service clock; default
   * the system clock.
   */
  clock?: Clock;
  /** Largest success body accepted, default 16 MiB (larger is 'bad_response'). */
  maxResponseBytes?: number;
  /** Told the `Date` of every response, to learn how far the service's clock is from ours. */
  serviceClock?: Pick<ServiceClock, 'observe'>;
  /**
   * Told after every exchange whether the service answered (any status) or
   * could not be reached, and why; not told of a failure when a request sent
   * after it has already been answered.
   */
  onReach?: (reach: Reach) => void;
  /** Told when an answer (an error or a success) held the API key, which was taken out before anything read it. */
  onKeyEcho?: (endpoint: EndpointName) => void;
  /** How a large answer (response.ts) gives the event loop back between its parts; default the next turn. */
  turn?: Turn;
}

/** Whether the last exchange reached the service; `why` in the trader's words when not. */
export type Reach = { readonly reached: true } | { readonly reached: false; readonly why: string };

export interface CallOptions {
  /** Aborting before the request is sent rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface MarketplaceClient {
  /**
   * One HTTP request. Validates input (ApiError 'invalid', nothing sent),
   * parses the response with the endpoint's schema, throws ApiError of the
   * right kind. A caller abort after a write was sent gives 'unknown_outcome'.
   */
  call<K extends EndpointName>(endpoint: K, input: RequestOf<K>, options?: CallOptions): Promise<ResponseOf<K>>;
  /** Closes the connection pool; in-flight requests finish first. */
  close(): Promise<void>;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** Error bodies are only shown as an excerpt; no need to read megabytes of one. */
const MAX_ERROR_RESPONSE_BYTES = 64 * 1024;
/** The six write endpoints side by side plus reads, with room to spare. */
const POOL_CONNECTIONS = 16;
/**
 * Below common server idle timeouts (Node's is 5 s), so a pooled socket is
 * rarely reused just as the server closes it: that race would turn a write
 * into an unknown outcome. A server's Keep-Alive hint overrides it.
 */
const KEEP_ALIVE_TIMEOUT_MS = 4_000;

/** Visible ASCII only: anything else cannot travel in a header unchanged. */
const HEADER_SAFE_KEY = /^[\x21-\x7e]+$/;

/**
 * Builds the client over one keep-alive connection pool to the base URL's
 * origin. Refuses (ApiError 'invalid', thrown here) a base URL that is not
 * https:// or loopback http://, before any key is read or byte is sent.
 */
export function createMarketplaceClient(options: ClientOptions): MarketplaceClient {
  const base = checkBaseUrl(options.baseUrl);
  const connectTimeoutMs = positive(options.connectTimeoutMs, DEFAULT_CONNECT_TIMEOUT_MS, 'connectTimeoutMs');
  const timeoutMs = positive(options.timeoutMs, DEFAULT_TIMEOUT_MS, 'timeoutMs');
  const maxResponseBytes = positive(options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES, 'maxResponseBytes');
  const clock = options.clock ?? systemClock;
  const pool = lazyPool(base.origin, {
    connections: POOL_CONNECTIONS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    connectTimeout: connectTimeoutMs,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  let closed = false;
  // Requests numbered as they are sent: reach follows the answer to the latest one.
  let sentCount = 0;
  let answeredUpTo = 0;

  async function call<K extends EndpointName>(
    endpoint: K,
    input: RequestOf<K>,
    callOptions: CallOptions = {},
  ): Promise<ResponseOf<K>> {
    validateRequest(endpoint, input);
    const callerSignal = callOptions.signal;
    callerSignal?.throwIfAborted();
    if (closed) throw new ApiError('network', `${endpoint}: the client is closed`, { endpoint });
    const key = await readKey(endpoint, options.apiKey);
    callerSignal?.throwIfAborted();

    // The total deadline is wall-clock network time, not the app's clock: a
    // socket does not run faster under a scaled or faked clock.
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = callerSignal === undefined ? deadline : AbortSignal.any([callerSignal, deadline]);
    const sentAt = clock.monotonic();
    const order = (sentCount += 1);
    const result = await send(await pool.get(), {
      ...buildRequest(endpoint, input, key, base.pathPrefix),
      signal,
      maxBodyBytes: (status) => (status >= 200 && status < 300 ? maxResponseBytes : MAX_ERROR_RESPONSE_BYTES),
    });
    if (result.ok) {
      answeredUpTo = Math.max(answeredUpTo, order);
      options.onReach?.({ reached: true });
      const dateMs = parseDateHeader(result.response.headers['date']);
      if (dateMs !== undefined) options.serviceClock?.observe(dateMs, sentAt, clock.monotonic());
      return readResponse(endpoint, result.response, {
        secret: key,
        nowMs: clock.now(),
        maxResponseBytes,
        ...(options.onRateLimit === undefined ? {} : { onRateLimit: options.onRateLimit }),
        ...(options.onKeyEcho === undefined ? {} : { onKeyEcho: options.onKeyEcho }),
        ...(options.turn === undefined ? {} : { turn: options.turn }),
      });
    }

    const fail = redactingErrors(key);
    const cause = safeCause(result.error, key);
    const label = failureLabel(result.error);
    // A failure of a request sent before one that has since been answered is old news (a body cut
    // while a request alongside went through): the service answers.
    if (callerSignal?.aborted !== true && order > answeredUpTo) {
      options.onReach?.({ reached: false, why: deadline.aborted ? `no answer within ${Math.round(timeoutMs / 1000)} s` : unreachableWords(result.error) });
    }
    const reached = mayHaveReachedServer(result.sent, result.error);
    if (reached && ENDPOINTS[endpoint].write) {
      throw fail(
        'unknown_outcome',
        `${endpoint}: the request may have reached the service but its response was lost (${label}); ` +
          'check the result before sending it again',
        { endpoint, cause },
      );
    }
    // The caller's own abort of a read, or of anything not yet sent, is theirs to handle.
    if (callerSignal?.aborted === true) throw callerSignal.reason;
    const what = reached ? 'the response was lost' : 'the request was not sent';
    const why = deadline.aborted ? `timed out after ${timeoutMs} ms` : label;
    throw fail('network', `${endpoint}: could not reach the service, ${what} (${why})`, { endpoint, cause });
  }

  return {
    call,
    async close() {
      if (closed) return;
      closed = true;
      await pool.close();
    },
  };
}

async function readKey(endpoint: EndpointName, source: () => Promise<string | null>): Promise<string> {
  let key: string | null;
  try {
    key = await source();
  } catch (error) {
    // The source's error is not carried: it might quote what it read.
    throw new ApiError('auth', `${endpoint}: the API key could not be read (${failureLabel(error)})`, { endpoint });
  }
  if (key === null || key === '') {
    throw new ApiError('auth', 'No API key is set', { endpoint });
  }
  if (!HEADER_SAFE_KEY.test(key)) {
    throw new ApiError('auth', 'The API key contains characters that cannot be sent (spaces or line breaks?)', {
      endpoint,
    });
  }
  return key;
}

type RequestParts = Pick<SendOptions, 'method' | 'path' | 'headers' | 'body'>;

/**
 * GET inputs go in the query string (only set_user_agent has one:
 * `multiaccounts`, comma-joined, left out when empty); other inputs are a JSON
 * body, except an empty input where the interface describes no body.
 */
function buildRequest(endpoint: EndpointName, input: unknown, key: string, pathPrefix: string): RequestParts {
  const { method, path } = ENDPOINTS[endpoint];
  const headers: Record<string, string> = { 'x-api-key': key, accept: 'application/json' };
  const fields = input as Record<string, unknown>;
  if (method === 'GET') {
    const accounts = fields['multiaccounts'];
    const query =
      Array.isArray(accounts) && accounts.length > 0
        ? `?multiaccounts=${accounts.map((id) => encodeURIComponent(String(id))).join(',')}`
        : '';
    return { method, path: `${pathPrefix}${path}${query}`, headers };
  }
  if (Object.keys(fields).length === 0) {
    return { method, path: `${pathPrefix}${path}`, headers };
  }
  return {
    method,
    path: `${pathPrefix}${path}`,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(input),
  };
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(Number.isFinite(value) && value > 0)) {
    throw new ApiError('invalid', `${name} must be a positive number`, {
      issues: [{ field: name, message: 'must be a positive number' }],
    });
  }
  return value;
}
