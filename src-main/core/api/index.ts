/**
 * The service's vocabulary and client in one import for the layers above
 * (scheduler, heartbeat, trades, router).
 */
export { createMarketplaceClient, splitIntoRequests } from './client.ts';
export type { CallOptions, ClientOptions, MarketplaceClient, RateLimitInfo } from './client.ts';
export { ApiError, isApiError } from './errors.ts';
export type { ApiErrorKind, FieldIssue, SerializedApiError } from './errors.ts';
export {
  ENDPOINTS,
  ENDPOINT_NAMES,
  GLOBAL_LIMIT_PER_MINUTE,
  RATE_WINDOW_MS,
  USER_AGENT_TTL_SECONDS,
  isItemized,
} from './endpoints.ts';
export type { EndpointName, ItemOf, ItemizedEndpoint, RequestOf, ResponseOf } from './endpoints.ts';
export { MAX_ITEMS_PER_REQUEST } from './schemas.ts';
