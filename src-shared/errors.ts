import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';

/**
 * What can go wrong, as a closed set every process shares: the client and the
 * scheduler act on the kinds, the bridge carries them, and the renderer's
 * wording table is keyed by them, so the compiler says when a kind has no words.
 *
 * Kinds of the service's answers (set by the client):
 * - `auth` 401 (or no key set): stop work that needs the key, ask for a new one.
 * - `forbidden` 403: the account may not do this; stop, tell the trader.
 * - `rate_limited` 429: wait `retryAfterMs`, then send again; not a failure.
 * - `invalid`: our own validation refused the input; nothing was sent.
 * - `rejected`: the service refused the content (another 4xx, or `success: false`);
 *   re-sending the same thing will not help.
 * - `server`: a 5xx; transient for reads and idempotent writes.
 * - `network`: the request did not reach the service, or a read failed; retried.
 * - `bad_response`: the response did not match its schema; names endpoint and field.
 * - `unknown_outcome`: a write may have reached the service but its answer was
 *   lost or unreadable; it must never be re-sent blindly.
 */
export const API_ERROR_KINDS = [
  'auth', 'forbidden', 'rate_limited', 'invalid', 'rejected', 'server', 'network', 'bad_response', 'unknown_outcome',
] as const;
export type ApiErrorKind = (typeof API_ERROR_KINDS)[number];

/**
 * Kinds of the desk itself, beside the service's:
 * - `not_found`: the trader named something that is not there (a draft, an outcome, a job).
 * - `conflict`: the thing is in a state that does not allow this now (changes in flight).
 * - `busy`: the store is held by another process or task; try again shortly.
 * - `disk_full`: the disk holding the profile is full; nothing saved is lost,
 *   and work that must write (an apply) waits until there is room again.
 * - `io`: the disk holding the profile failed a read or a write (SQLite's I/O
 *   error); as `disk_full`, nothing saved is lost and an apply waits.
 * - `keychain_unavailable`: no usable system keychain (missing or locked).
 * - `bridge`: the window lost contact with the app's main process.
 * - `internal`: a bug; the details are in the log, never on screen.
 */
export const DESK_ERROR_KINDS = [
  ...API_ERROR_KINDS, 'not_found', 'conflict', 'busy', 'disk_full', 'io', 'keychain_unavailable', 'bridge', 'internal',
] as const;
export type DeskErrorKind = (typeof DESK_ERROR_KINDS)[number];

/** One problem found by validation: where (item index and field) and why. */
export const fieldIssue = lazySchema(() => z.object({
  /** Index in the caller's `items`, when the problem is in one item. */
  item: z.number().int().optional(),
  /** Dotted path of the field, e.g. `items.3.price` or `trade_url`. */
  field: z.string(),
  message: z.string(),
}));
export type FieldIssue = z.infer<typeof fieldIssue>;

/**
 * An error of the service's kinds as stored (journal, activity log) and sent.
 * The endpoint is a plain string here: the endpoint table belongs to the client.
 */
export const serializedApiErrorSchema = z.object({
  kind: z.enum(API_ERROR_KINDS),
  message: z.string(),
  endpoint: z.string().optional(),
  status: z.number().int().optional(),
  retryAfterMs: z.number().optional(),
  issues: z.array(fieldIssue).optional(),
});

/** An error as the renderer receives it: any kind of the closed set. */
export const errorView = lazySchema(() => serializedApiErrorSchema.extend({
  kind: z.enum(DESK_ERROR_KINDS),
  /** Problems found beyond the `issues` listed (a refusal stays a few kB whatever the input). */
  moreIssues: z.number().int().positive().optional(),
}));
export type ErrorView = z.infer<typeof errorView>;
