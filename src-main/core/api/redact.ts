import type { Steps } from '../turn.ts';
import { findKey, keyForms, KeyScan, type KeyForms } from './key-forms.ts';

/**
 * Keeping the API key out of everything the desk keeps or shows of the
 * service's answers and of its own errors. Every text the service sends is
 * searched for the key in any spelling (key-forms.ts: any case, escaped in
 * whole or in part, percent- or HTML-encoded, base64, hex, broken by
 * separators, cut short) and each occurrence replaced, so a server that
 * echoes the key (or a transport error that quotes a header) cannot leak it
 * into the store, a log, an export or the renderer.
 */

/** What replaces the key wherever it appears. */
export const REDACTED = '[key removed]';

/** Longest body text an error keeps (after redaction). */
export const MAX_ERROR_BODY_CHARS = 2_000;

/** Longest body excerpt put into an error message. */
export const MAX_MESSAGE_EXCERPT_CHARS = 200;

/** `text` with every occurrence of the key replaced by REDACTED. */
export function redactSecret(text: string, secret: string | null | undefined): string {
  return removeKey(text, secret).text;
}

/** `text` with every occurrence of the key replaced, and whether there was one. */
export function removeKey(text: string, secret: string | null | undefined): { text: string; found: boolean } {
  if (!secret) return { text, found: false };
  const ranges = findKey(text, formsOf(secret));
  return ranges.length === 0 ? { text, found: false } : { text: replaceRanges(text, ranges), found: true };
}

/** Whether `text` holds the key anywhere (one pass, stopping at the first). */
export function holdsKey(text: string, secret: string | null | undefined): boolean {
  return !!secret && findKey(text, formsOf(secret), true).length > 0;
}

/**
 * Characters searched per step when a large answer is searched a slice at a
 * time: a few milliseconds of the scan, so the event loop is given back
 * between slices.
 */
export const SCAN_SLICE = 256 * 1024;

/**
 * `holdsKey`, a slice of SCAN_SLICE characters a step (yielding between
 * two): the pass goes on where the last slice stopped, so a key that lies
 * across two slices is found as in one pass.
 */
export function* holdsKeyInSlices(text: string, secret: string | null | undefined): Steps<boolean> {
  if (!secret) return false;
  const scan = new KeyScan(text, formsOf(secret), true);
  for (let to = SCAN_SLICE; !scan.scanTo(to); to += SCAN_SLICE) yield;
  return scan.found.length > 0;
}

/** The forms of the last key asked for: answers and log lines are searched one after another with the same key. */
let cached: { secret: string; forms: KeyForms } | null = null;
function formsOf(secret: string): KeyForms {
  if (cached?.secret !== secret) cached = { secret, forms: keyForms(secret) };
  return cached.forms;
}

/** `text` with each range (in order, not overlapping) replaced by REDACTED. */
function replaceRanges(text: string, ranges: ReadonlyArray<readonly [number, number]>): string {
  let out = '';
  let from = 0;
  for (const [start, end] of ranges) {
    out += text.slice(from, start) + REDACTED;
    from = end;
  }
  return out + text.slice(from);
}

/**
 * Cuts `text` to `max` characters with a marker. Always applied after
 * redaction: cutting first could leave a prefix of the key at the cut.
 */
export { truncate } from '../safe-text.ts';

/**
 * A transport failure reduced to what is safe to keep: name, code and a
 * redacted message. Undici errors can reference sockets and request state;
 * this copy has no link back to them and no `cause` chain of its own.
 */
export class TransportError extends Error {
  override readonly name: string;
  readonly code: string | undefined;

  constructor(name: string, code: string | undefined, message: string) {
    super(message);
    this.name = name;
    this.code = code;
  }
}

/** Copies the safe parts of any thrown value into a `TransportError`. */
export function safeCause(error: unknown, secret: string | null | undefined): TransportError {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return new TransportError(
      redactSecret(error.name, secret),
      typeof code === 'string' ? redactSecret(code, secret) : undefined,
      redactSecret(error.message, secret),
    );
  }
  return new TransportError('Error', undefined, redactSecret(String(error), secret));
}
