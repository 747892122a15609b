import { z } from 'zod';
import { PLAIN_PARSE } from '../../../src-shared/plain-parse.ts';
import { CHANNEL_NAMES } from '../../../src-shared/channels.ts';
import { DESK_ERROR_KINDS } from '../../../src-shared/errors.ts';
import { DomainError } from '../errors.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * The messages between the main thread and the data worker. Each is read in
 * two steps: its head (which call, reply, event or ask it is) by a schema
 * here, then its part (`args`, `value`, `payload`, `input`) by the schema
 * that part has: the method's in the method map (`methods.ts`), the event's
 * in an event map, the channel's in the contract. So nothing that crosses is
 * taken as it is, and nothing is parsed twice. A reply is a value or an
 * error value, never a thrown object.
 */

/**
 * How a message that crossed is parsed: on zod's plain path (PLAIN_PARSE).
 * Each schema here reads a few messages of its kind (a start's replies and
 * events, the heads of messages), where compiling the fast path on the first
 * parse costs more than it saves: 3 to 10 ms of the start's first replies.
 */
export const CROSSING = PLAIN_PARSE;

/**
 * How many replies of a channel main reads on the plain path before the
 * compiled one (safeParseWarming): a channel asked again and again is worth
 * its compile. A Listings page of 100 rows took 1.0–1.3 ms to check on the
 * plain path and 0.2 ms compiled, on every page a scroll or a jump asks;
 * compiling it takes about 10 ms, repaid within about ten pages. A start's
 * first replies stay plain (test/bench/ledger-page.ts). A Listings page's
 * check is compiled sooner, in the first quiet moment after a long ledger's
 * first page (main-thread/page-warmup.ts).
 */
export const CROSSING_PLAIN_FOR = 10;

const id = lazySchema(() => z.number().int().nonnegative());
const callHead = { target: z.string().min(1).max(40), method: z.string().min(1).max(60) };

/** A call of a method of the map; its `args` are read by the method's schema. */
export const requestHead = z.object({ id, ...callHead });
export interface DataRequest {
  readonly id: number;
  readonly target: string;
  readonly method: string;
  readonly args: readonly unknown[];
}

/**
 * A call of the bridge, for the desk: the channel and the renderer's input as
 * it came, which the router reads at its door (see `bridge-calls.ts`).
 */
export const bridgeCallHead = z.object({ id, channel: z.enum(CHANNEL_NAMES) });
export interface BridgeCall {
  readonly id: number;
  readonly channel: string;
  readonly input: unknown;
}

export const dataErrorValue = lazySchema(() => z.strictObject({
  kind: z.enum(DESK_ERROR_KINDS),
  message: z.string().max(4_000),
}));
export type DataErrorValue = z.infer<typeof dataErrorValue>;

/** Kinds that core code throws on purpose outside DomainError (ApplyRefused, KeyError). */
const KINDED: ReadonlySet<string> = new Set(['conflict', 'invalid', 'not_found', 'busy', 'keychain_unavailable']);

/** An error thrown on purpose, as the value that crosses; null for a bug. */
export function kindedError(error: unknown): DataErrorValue | null {
  if (error instanceof DomainError) return { kind: error.kind, message: error.message.slice(0, 4_000) };
  if (!(error instanceof Error) || !('kind' in error) || typeof error.kind !== 'string') return null;
  const kind = error.kind;
  return isKind(kind) ? { kind, message: error.message.slice(0, 4_000) } : null;
}

function isKind(kind: string): kind is DataErrorValue['kind'] {
  return KINDED.has(kind);
}

/** The answer to a call, by its ID; a `value` is read by the schema of what was called. */
export const replyHead = lazySchema(() => z.discriminatedUnion('ok', [
  z.object({ id: z.number().int(), ok: z.literal(true) }),
  z.object({ id: z.number().int(), ok: z.literal(false), error: dataErrorValue }),
]));
export type DataReply = { readonly id: number; readonly ok: true; readonly value: unknown } | { readonly id: number; readonly ok: false; readonly error: DataErrorValue };

/** An event the worker pushes; its `payload` is read by the schema of the event map that names it. */
export const eventHead = lazySchema(() => z.object({ event: z.string().min(1).max(60) }));
export interface DataEvent {
  readonly event: string;
  readonly payload: unknown;
}

/**
 * The worker asking main (for what only main may hold: the keychain, whose
 * native module must not be torn down with a dying worker); its `args` are
 * read by the method's schema in main's map.
 */
export const askHead = z.object({ ask: id, ...callHead });
export interface WorkerAsk {
  readonly ask: number;
  readonly target: string;
  readonly method: string;
  readonly args: readonly unknown[];
}

/** Main's answer to an ask; a `value` is read by the schema of the method asked. */
export const answerHead = lazySchema(() => z.discriminatedUnion('ok', [
  z.object({ answer: z.number().int(), ok: z.literal(true) }),
  z.object({ answer: z.number().int(), ok: z.literal(false), error: dataErrorValue }),
]));
export type MainAnswer = { readonly answer: number; readonly ok: true; readonly value: unknown } | { readonly answer: number; readonly ok: false; readonly error: DataErrorValue };

/**
 * Main asking whether the worker's thread still turns; the worker answers
 * with the same number as soon as its event loop reads the message.
 */
export const livenessPing = z.strictObject({ ping: id });
export const livenessPong = z.strictObject({ pong: id });

/** Everything the worker posts, by its head: replies to calls, events, asks, and answers to pings. */
export const fromWorker = z.union([replyHead, eventHead, askHead, livenessPong]);

/**
 * The part of a message its head said is there, for the part's own schema
 * to read (`undefined` when it is missing, which that schema refuses).
 */
export function partOf(message: unknown, part: 'args' | 'value' | 'payload' | 'input'): unknown {
  if (typeof message !== 'object' || message === null) return undefined;
  const parts: { readonly [key: string]: unknown } = { ...message };
  return parts[part];
}

/**
 * A string this long or longer crosses as UTF-8 bytes whose buffer is
 * transferred, not copied (a 200,000-line CSV export is tens of MB).
 */
export const TRANSFER_STRING_BYTES = 1 << 20;

/** A large string as it crosses: the bytes of its UTF-8, in a buffer handed over with the message. */
export interface TransferredText {
  readonly transferredText: Uint8Array;
}

/**
 * Plain objects are looked into this deep for large text: a bridge reply
 * `{ ok, value: { csv: '…' } }` carries its text two levels down.
 */
const PACK_DEPTH = 3;

/** The value as it is posted, and the buffers to transfer with it. */
export function packValue(value: unknown, depth = PACK_DEPTH): { value: unknown; transfer: ArrayBuffer[] } {
  if (typeof value === 'string' && value.length >= TRANSFER_STRING_BYTES / 4) {
    const bytes = new TextEncoder().encode(value);
    return { value: { transferredText: bytes } satisfies TransferredText, transfer: [bytes.buffer] };
  }
  if (depth > 0 && isPlainObject(value)) {
    const transfer: ArrayBuffer[] = [];
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      const packed = packValue(field, depth - 1);
      out[key] = packed.value;
      transfer.push(...packed.transfer);
    }
    return { value: transfer.length > 0 ? out : value, transfer };
  }
  return { value, transfer: [] };
}

/** The value as the sender meant it. */
export function unpackValue(value: unknown, depth = PACK_DEPTH): unknown {
  if (isTransferred(value)) return new TextDecoder().decode(value.transferredText);
  if (depth > 0 && isPlainObject(value) && Object.values(value).some((field) => isTransferred(field) || isPlainObject(field))) {
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, unpackValue(field, depth - 1)]));
  }
  return value;
}

function isTransferred(value: unknown): value is TransferredText {
  return isPlainObject(value) && value.transferredText instanceof Uint8Array && Object.keys(value).length === 1;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}
