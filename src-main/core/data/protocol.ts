import { z } from 'zod';
import { DESK_ERROR_KINDS } from '../../../src-shared/errors.ts';
import { DomainError } from '../errors.ts';

/**
 * The messages between the main thread and the data worker, checked on both
 * sides like the bridge's: a request names a target (a service the worker
 * hosts), one of its methods, and the arguments; a reply is a value or an
 * error value, never a thrown object; events are pushed with a name. What
 * the arguments, values and events hold is the method map's (`methods.ts`).
 */

/** The most arguments a method takes: a guard against a call built by mistake, not a limit anyone meets. */
const MAX_ARGS = 8;

/** What a call names, whichever side makes it: a hosted service, one of its methods, and the arguments. */
const callFields = {
  target: z.string().min(1).max(40),
  method: z.string().min(1).max(60),
  args: z.array(z.unknown()).max(MAX_ARGS),
};

export const dataRequest = z.strictObject({ id: z.number().int().nonnegative(), ...callFields });
export type DataRequest = z.infer<typeof dataRequest>;

export const dataErrorValue = z.strictObject({
  kind: z.enum(DESK_ERROR_KINDS),
  message: z.string().max(4_000),
});
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

export const dataReply = z.discriminatedUnion('ok', [
  z.strictObject({ id: z.number().int(), ok: z.literal(true), value: z.unknown() }),
  z.strictObject({ id: z.number().int(), ok: z.literal(false), error: dataErrorValue }),
]);
export type DataReply = z.infer<typeof dataReply>;

export const dataEvent = z.strictObject({
  event: z.string().min(1).max(60),
  payload: z.unknown(),
});

/**
 * The worker asking main (for what only main may hold: the keychain, whose
 * native module must not be torn down with a dying worker).
 */
export const workerAsk = z.strictObject({ ask: z.number().int().nonnegative(), ...callFields });
export type WorkerAsk = z.infer<typeof workerAsk>;

/** Main's answer to an ask. */
export const mainAnswer = z.discriminatedUnion('ok', [
  z.strictObject({ answer: z.number().int(), ok: z.literal(true), value: z.unknown() }),
  z.strictObject({ answer: z.number().int(), ok: z.literal(false), error: dataErrorValue }),
]);
export type MainAnswer = z.infer<typeof mainAnswer>;

/**
 * Main asking whether the worker's thread still turns; the worker answers
 * with the same number as soon as its event loop reads the message.
 */
export const livenessPing = z.strictObject({ ping: z.number().int().nonnegative() });
export const livenessPong = z.strictObject({ pong: z.number().int().nonnegative() });

/** Everything the worker posts: replies to requests, events, asks, and answers to pings. */
export const fromWorker = z.union([dataReply, dataEvent, workerAsk, livenessPong]);

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
