import type { z } from 'zod';
import * as s from './schemas.ts';

/**
 * The one table of the service's endpoints: method, path, schemas and the
 * per-endpoint rate limit of the interface document (section 8). The scheduler,
 * the client, the plan/ETA code and the sandbox all read their numbers here.
 */

/** Global rate: requests per minute per API key, shared by every endpoint. */
export const GLOBAL_LIMIT_PER_MINUTE = 80;

/** The rate-limit window of the interface document, in milliseconds. */
export const RATE_WINDOW_MS = 60_000;

/** How long `set_user_agent` keeps the account marked as automated, in seconds. */
export const USER_AGENT_TTL_SECONDS = 600;

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

interface EndpointSpec<Req extends z.ZodType, Res extends z.ZodType, Itemized extends boolean = boolean> {
  readonly method: Method;
  readonly path: string;
  /** Requests per minute allowed for this endpoint, on top of the global limit. */
  readonly perMinute: number;
  /**
   * A write changes state on the service: when its response is lost the
   * outcome is unknown (the client says `unknown_outcome`).
   */
  readonly write: boolean;
  /**
   * Sending it twice ends in the same state as once (edits set absolute
   * values, deletes name what they delete), so a lost response or a 5xx is
   * retried. A create is not: sent twice it may list an asset twice, so any
   * answer that does not say what happened is an unknown outcome, never
   * re-sent by a retry loop.
   */
  readonly idempotent: boolean;
  /** Whether the request carries an `items` array (≤ 100 per request). */
  readonly itemized: Itemized;
  readonly request: Req;
  readonly response: Res;
}

// `Itemized` keeps the literal true/false, so `ItemizedEndpoint` can select by it.
const spec = <Req extends z.ZodType, Res extends z.ZodType, Itemized extends boolean>(
  e: EndpointSpec<Req, Res, Itemized>,
) => e;

export const ENDPOINTS = {
  create_listing: spec({
    method: 'POST', path: '/api/dev/create_listing', perMinute: 5, write: true, idempotent: false, itemized: true,
    request: s.createListingRequest, response: s.createListingResponse,
  }),
  edit_listing: spec({
    method: 'PATCH', path: '/api/dev/listing', perMinute: 5, write: true, idempotent: true, itemized: true,
    request: s.editListingRequest, response: s.successResponse,
  }),
  delete_listing: spec({
    method: 'DELETE', path: '/api/dev/listing', perMinute: 5, write: true, idempotent: true, itemized: true,
    request: s.deleteListingRequest, response: s.successResponse,
  }),
  delete_all_listings: spec({
    method: 'DELETE', path: '/api/dev/listings', perMinute: 1, write: true, idempotent: true, itemized: false,
    request: s.deleteAllListingsRequest, response: s.successResponse,
  }),
  create_buy_order: spec({
    method: 'POST', path: '/api/dev/create_buy_order', perMinute: 5, write: true, idempotent: false, itemized: true,
    request: s.createBuyOrderRequest, response: s.successResponse,
  }),
  edit_buy_order: spec({
    method: 'PATCH', path: '/api/dev/buy_order', perMinute: 5, write: true, idempotent: true, itemized: true,
    request: s.editBuyOrderRequest, response: s.successResponse,
  }),
  delete_buy_order: spec({
    method: 'DELETE', path: '/api/dev/buy_order', perMinute: 5, write: true, idempotent: true, itemized: true,
    request: s.deleteBuyOrderRequest, response: s.successResponse,
  }),
  delete_all_buy_orders: spec({
    method: 'DELETE', path: '/api/dev/buy_orders', perMinute: 1, write: true, idempotent: true, itemized: false,
    request: s.noInput, response: s.deleteAllBuyOrdersResponse,
  }),
  load_pending: spec({
    method: 'GET', path: '/api/dev/load_pending', perMinute: 1, write: false, idempotent: true, itemized: false,
    request: s.noInput, response: s.loadPendingResponse,
  }),
  load_pending_buy_orders: spec({
    method: 'GET', path: '/api/dev/load_pending_buy_orders', perMinute: 1, write: false, idempotent: true, itemized: false,
    request: s.noInput, response: s.loadPendingBuyOrdersResponse,
  }),
  set_trade_url: spec({
    method: 'POST', path: '/api/dev/set_trade_url', perMinute: 1, write: true, idempotent: true, itemized: false,
    request: s.setTradeUrlRequest, response: s.successResponse,
  }),
  get_linked_trade_urls: spec({
    method: 'GET', path: '/api/dev/get_linked_trade_urls', perMinute: 1, write: false, idempotent: true, itemized: false,
    request: s.noInput, response: s.linkedTradeUrlsResponse,
  }),
  get_balance: spec({
    method: 'GET', path: '/api/dev/get_balance', perMinute: 2, write: false, idempotent: true, itemized: false,
    request: s.noInput, response: s.balanceResponse,
  }),
  set_user_agent: spec({
    // Idempotent in effect (it only extends a deadline), so safe to retry.
    method: 'GET', path: '/api/dev/set_user_agent', perMinute: 1, write: false, idempotent: true, itemized: false,
    request: s.setUserAgentRequest, response: s.setUserAgentResponse,
  }),
} as const;

export type Endpoints = typeof ENDPOINTS;
export type EndpointName = keyof Endpoints;
export type RequestOf<E extends EndpointName> = z.input<Endpoints[E]['request']>;
export type ResponseOf<E extends EndpointName> = z.output<Endpoints[E]['response']>;

/** The endpoints whose request carries `items`. */
export type ItemizedEndpoint = {
  [E in EndpointName]: Endpoints[E]['itemized'] extends true ? E : never;
}[EndpointName];

/** The element type of an itemized endpoint's `items`. */
export type ItemOf<E extends ItemizedEndpoint> = RequestOf<E> extends { items: Array<infer I> } ? I : never;

export const ENDPOINT_NAMES = Object.keys(ENDPOINTS) as EndpointName[];
