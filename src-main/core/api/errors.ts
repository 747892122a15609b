import { z } from 'zod';
import { ENDPOINT_NAMES, type EndpointName } from './endpoints.ts';
import { serializedApiErrorSchema as sharedSerializedError, type ApiErrorKind, type FieldIssue } from '../../../src-shared/errors.ts';

/**
 * What went wrong, in terms the scheduler and the UI can act on: the kinds
 * are the shared closed set (src-shared/errors.ts says what each means).
 */


export type { ApiErrorKind, FieldIssue };

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
 * apply journal, the activity log): the shared form with the endpoint names
 * of this client. Checked against the interface above, so the two cannot drift.
 */
export const serializedApiErrorSchema = sharedSerializedError.extend({
  endpoint: z.enum(ENDPOINT_NAMES as [EndpointName, ...EndpointName[]]).optional(),
}) satisfies z.ZodType<SerializedApiError>;
