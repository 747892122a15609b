import { z } from 'zod';
import { ENDPOINT_NAMES, type EndpointName } from './endpoints.ts';

/**
 * What went wrong, in terms the scheduler and the UI can act on.
 *
 * - `auth` 401 (or no key set): stop work that needs the key, ask for a new one.
 * - `forbidden` 403: the account may not do this; stop, tell the trader.
 * - `rate_limited` 429: wait `retryAfterMs`, then send again; not a failure.
 * - `invalid`: our own validation refused the input; nothing was sent.
 * - `rejected`: the service refused the content (another 4xx, or `success: false`);
 *   re-sending the same thing will not help.
 * - `server`: a 5xx; transient, retried with backoff.
 * - `network`: the request did not reach the service, or a read failed; retried.
 * - `bad_response`: the response did not match its schema; names endpoint and field.
 * - `unknown_outcome`: a write may have reached the service but its response was
 *   lost; it must never be re-sent blindly.
 */
export type ApiErrorKind =
  | 'auth'
  | 'forbidden'
  | 'rate_limited'
  | 'invalid'
  | 'rejected'
  | 'server'
  | 'network'
  | 'bad_response'
  | 'unknown_outcome';

/** One problem found by validation: where (item index and field) and why. */
export interface FieldIssue {
  /** Index in the caller's `items`, when the problem is in one item. */
  readonly item?: number;
  /** Dotted path of the field, e.g. `items.3.price` or `trade_url`. */
  readonly field: string;
  readonly message: string;
}

export interface ApiErrorDetails {
  readonly endpoint?: EndpointName;
  readonly status?: number;
  /** Response body text, truncated, with the API key redacted. */
  readonly body?: string;
  /** For `rate_limited`: how long the service asked us to wait. */
  readonly retryAfterMs?: number;
  /** For `invalid` and `bad_response`: every field that did not pass. */
  readonly issues?: readonly FieldIssue[];
  /** The underlying cause (never carrying request headers). */
  readonly cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly endpoint?: EndpointName;
  readonly status?: number;
  readonly body?: string;
  readonly retryAfterMs?: number;
  readonly issues: readonly FieldIssue[];

  constructor(kind: ApiErrorKind, message: string, details: ApiErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = kind;
    this.endpoint = details.endpoint;
    this.status = details.status;
    this.body = details.body;
    this.retryAfterMs = details.retryAfterMs;
    this.issues = details.issues ?? [];
  }

  /** Whether sending the same request again later may succeed. */
  get transient(): boolean {
    return this.kind === 'network' || this.kind === 'server' || this.kind === 'rate_limited';
  }

  /** A plain object safe to log, store or send to the renderer. */
  toJSON(): SerializedApiError {
    return {
      kind: this.kind,
      message: this.message,
      ...(this.endpoint === undefined ? {} : { endpoint: this.endpoint }),
      ...(this.status === undefined ? {} : { status: this.status }),
      ...(this.retryAfterMs === undefined ? {} : { retryAfterMs: this.retryAfterMs }),
      ...(this.issues.length === 0 ? {} : { issues: [...this.issues] }),
    };
  }
}

export interface SerializedApiError {
  kind: ApiErrorKind;
  message: string;
  endpoint?: EndpointName;
  status?: number;
  retryAfterMs?: number;
  issues?: FieldIssue[];
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/**
 * The zod form of SerializedApiError, for reading one back from storage (the
 * apply journal, the activity log) or across the bridge. Checked against the
 * interface above, so the two cannot drift apart.
 */
export const serializedApiErrorSchema = z.object({
  kind: z.enum(['auth', 'forbidden', 'rate_limited', 'invalid', 'rejected', 'server', 'network', 'bad_response', 'unknown_outcome']),
  message: z.string(),
  endpoint: z.enum(ENDPOINT_NAMES as [EndpointName, ...EndpointName[]]).optional(),
  status: z.number().int().optional(),
  retryAfterMs: z.number().optional(),
  issues: z.array(z.object({ item: z.number().int().optional(), field: z.string(), message: z.string() })).optional(),
}) satisfies z.ZodType<SerializedApiError>;
