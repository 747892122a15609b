import type { RateLimitInfo } from '../../../../src-main/core/api/client.ts';
import {
  ENDPOINTS,
  GLOBAL_LIMIT_PER_MINUTE,
  RATE_WINDOW_MS,
  type EndpointName,
  type RequestOf,
  type ResponseOf,
} from '../../../../src-main/core/api/endpoints.ts';
import { ApiError } from '../../../../src-main/core/api/errors.ts';
import type { Clock } from '../../../../src-main/core/clock.ts';
import type { RequestSender } from '../../../../src-main/core/scheduler/types.ts';

/**
 * A scripted stand-in for the client and the service behind it, for unit
 * tests on a virtual clock: each call takes `latencyMs`, is stamped by the
 * "server" part-way through, is refused with a 429 when it breaks a limit in
 * the server's own sliding window, and otherwise answers from `respond`
 * (or throws what a test scripted with `failNext`). The service keeps its
 * own time: the clock's monotonic time, which a step of the desk's wall clock
 * (`stepWall`) does not move.
 */
export interface ServedRequest {
  endpoint: EndpointName;
  input: unknown;
  sentAt: number;
  /** When the server counted it. */
  stampAt: number;
  status: number;
}

export interface FakeService extends RequestSender {
  readonly log: ServedRequest[];
  /** The next `times` calls to `endpoint` (every endpoint when null) throw what `make` returns, after the latency. */
  failNext(endpoint: EndpointName | null, make: (stampAt: number) => ApiError, times?: number): void;
  /** Forgets every scripted failure not yet used. */
  clearFailures(): void;
  /** Replaces the answer of an endpoint. */
  respond<K extends EndpointName>(endpoint: K, answer: (input: RequestOf<K>, stampAt: number) => ResponseOf<K>): void;
  /** Calls started and not yet answered. */
  readonly inFlight: number;
}

export interface FakeServiceOptions {
  clock: Clock;
  /** Round trip of each call; default 200 ms. */
  latencyMs?: (endpoint: EndpointName) => number;
  /** Where in the round trip the server stamps the request, 0..1; default 0.5. */
  stampFraction?: () => number;
  /** Receives X-RateLimit-like notes, as the client's onRateLimit hook would. */
  onRateLimit?: (note: RateLimitInfo) => void;
}

export function createFakeService(options: FakeServiceOptions): FakeService {
  const { clock } = options;
  const log: ServedRequest[] = [];
  const failures: { endpoint: EndpointName | null; make: (stampAt: number) => ApiError; times: number }[] = [];
  const answers = new Map<EndpointName, (input: never, stampAt: number) => unknown>();
  let inFlight = 0;

  const countInWindow = (stampAt: number, endpoint: EndpointName | null) =>
    log.filter(
      (r) => r.status !== 0 && r.stampAt > stampAt - RATE_WINDOW_MS && r.stampAt <= stampAt && (endpoint === null || r.endpoint === endpoint),
    ).length;

  const defaultAnswer = (endpoint: EndpointName, input: unknown, stampAt: number): unknown => {
    switch (endpoint) {
      case 'set_user_agent':
        return { refresh_at: Math.floor(stampAt / 1000) + 600 };
      case 'create_listing': {
        const items = (input as RequestOf<'create_listing'>).items;
        return {
          success: true,
          created_listings: items.map((item, i) => ({ listing_id: `L${stampAt}-${i}`, sku: '5021;6', asset_id: item.asset_id })),
        };
      }
      case 'load_pending':
      case 'load_pending_buy_orders':
        return [];
      case 'get_balance':
        return { balance: 10_000, pending_balance: 0 };
      case 'delete_all_buy_orders':
        return { success: true, deleted_count: 0 };
      case 'get_linked_trade_urls':
        return { main_account: { id64: '76561198000000001', trade_url: null }, linked_accounts: [] };
      default:
        return { success: true };
    }
  };

  return {
    log,
    get inFlight() {
      return inFlight;
    },
    failNext(endpoint, make, times = 1) {
      failures.push({ endpoint, make, times });
    },
    clearFailures() {
      failures.length = 0;
    },
    respond(endpoint, answer) {
      answers.set(endpoint, answer as (input: never, stampAt: number) => unknown);
    },
    call<K extends EndpointName>(endpoint: K, input: RequestOf<K>, callOptions?: { signal?: AbortSignal }): Promise<ResponseOf<K>> {
      const served = serve(endpoint, input);
      const signal = callOptions?.signal;
      if (!signal) return served;
      // A caller that stops waiting gets its answer no more; the service goes on with the request (and counts it).
      served.catch(() => undefined);
      return new Promise((resolve, reject) => {
        const gaveUp = () => reject(new ApiError('network', `${endpoint}: the caller stopped waiting`, { endpoint }));
        if (signal.aborted) return gaveUp();
        signal.addEventListener('abort', gaveUp, { once: true });
        served.then(resolve, reject).finally(() => signal.removeEventListener('abort', gaveUp));
      });
    },
  };

  async function serve<K extends EndpointName>(endpoint: K, input: RequestOf<K>): Promise<ResponseOf<K>> {
    const latency = options.latencyMs?.(endpoint) ?? 200;
    const before = latency * (options.stampFraction?.() ?? 0.5);
    const sentAt = clock.monotonic();
    inFlight += 1;
    try {
      await clock.sleep(before);
      const stampAt = clock.monotonic();
      const entry: ServedRequest = { endpoint, input, sentAt, stampAt, status: 0 };
      const endpointCount = countInWindow(stampAt, endpoint) + 1;
      const globalCount = countInWindow(stampAt, null) + 1;
      const limit = ENDPOINTS[endpoint].perMinute;
      let outcome: { ok: true; value: unknown } | { ok: false; error: ApiError };
      if (globalCount > GLOBAL_LIMIT_PER_MINUTE || endpointCount > limit) {
        const global = globalCount > GLOBAL_LIMIT_PER_MINUTE;
        entry.status = 429;
        options.onRateLimit?.({ endpoint, status: 429, limit: global ? GLOBAL_LIMIT_PER_MINUTE : limit, remaining: 0, retryAfterMs: 10_000 });
        outcome = {
          ok: false,
          error: new ApiError('rate_limited', 'rate limited', { endpoint, status: 429, retryAfterMs: 10_000 }),
        };
      } else {
        const failure = failures.find((f) => f.times > 0 && (f.endpoint === null || f.endpoint === endpoint));
        if (failure) {
          failure.times -= 1;
          const error = failure.make(stampAt);
          entry.status = error.status ?? 599;
          outcome = { ok: false, error };
        } else {
          entry.status = 200;
          const answer = answers.get(endpoint);
          outcome = { ok: true, value: answer ? answer(input as never, stampAt) : defaultAnswer(endpoint, input, stampAt) };
          options.onRateLimit?.({ endpoint, status: 200, limit, remaining: Math.max(0, limit - endpointCount) });
        }
      }
      log.push(entry);
      await clock.sleep(latency - before);
      if (!outcome.ok) throw outcome.error;
      return outcome.value as ResponseOf<K>;
    } finally {
      inFlight -= 1;
    }
  }
}

/** The most requests found in any 60-s span of these server stamps. */
export function maxInAnyWindow(stamps: readonly number[], windowMs = RATE_WINDOW_MS): number {
  const sorted = [...stamps].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while ((sorted[end] as number) - (sorted[start] as number) >= windowMs) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}
