import { asciiLower, keyForms, type KeyForms } from './key-forms.ts';

/**
 * Keeping the API key out of everything an error carries. The client builds
 * every message, body excerpt and cause through these, after the key has been
 * read for the request, so a server that echoes the key (or a transport error
 * that quotes a header) cannot leak it into a log, the renderer or a snapshot.
 */

/** What replaces the key wherever it appears. */
export const REDACTED = '[redacted]';

/** Longest body text an error keeps (after redaction). */
export const MAX_ERROR_BODY_CHARS = 2_000;

/** Longest body excerpt put into an error message. */
export const MAX_MESSAGE_EXCERPT_CHARS = 200;

/**
 * Replaces every occurrence of the key in `text`, in the forms a server could
 * plausibly echo it (see key-forms.ts: raw, escaped, percent-encoded, base64
 * at any alignment, hex in either case), also where a line break (raw or
 * escaped as `\n`) was put inside it, as a wrapped base64 body has. Plain
 * string searches: no pattern whose cost a hostile body could blow up.
 */
export function redactSecret(text: string, secret: string | null | undefined): string {
  if (!secret) return text;
  const forms = formsOf(secret);
  const found: Array<[number, number]> = [];
  const search = (haystack: string, at: (i: number) => number) => {
    findForms(haystack, forms.exact, at, found);
    findForms(asciiLower(haystack), forms.anyCase, at, found);
  };
  search(text, (i) => i);
  if (HAS_LINE_BREAK.test(text)) {
    const { joined, at } = withoutLineBreaks(text);
    search(joined, (i) => at[i] ?? text.length);
  }
  return replaceRanges(text, found);
}

/** A line break with the blanks around it, raw or JSON-escaped (once or more: a JSON error quoted in another). */
const LINE_BREAK = /[ \t]*(?:\r\n|\r|\n|\\+r\\+n|\\+n|\\+r)[ \t]*/g;
const HAS_LINE_BREAK = /[\r\n]|\\[rn]/;

/** The forms of the last key asked for: log lines are cleaned one by one with the same key. */
let cached: { secret: string; forms: KeyForms } | null = null;
function formsOf(secret: string): KeyForms {
  if (cached?.secret !== secret) cached = { secret, forms: keyForms(secret) };
  return cached.forms;
}

/** Adds [start, end) in `text`'s own positions of every occurrence of each form; `at` maps a haystack position back. */
function findForms(haystack: string, forms: readonly string[], at: (i: number) => number, found: Array<[number, number]>): void {
  for (const form of forms) {
    for (let i = haystack.indexOf(form); i !== -1; i = haystack.indexOf(form, i + form.length)) {
      found.push([at(i), at(i + form.length - 1) + 1]);
    }
  }
}

/** `text` with its line breaks taken out, and where each remaining character stood. */
function withoutLineBreaks(text: string): { joined: string; at: number[] } {
  const at: number[] = [];
  let joined = '';
  let from = 0;
  for (const m of text.matchAll(LINE_BREAK)) {
    for (let i = from; i < m.index; i++) at.push(i);
    joined += text.slice(from, m.index);
    from = m.index + m[0].length;
  }
  for (let i = from; i < text.length; i++) at.push(i);
  joined += text.slice(from);
  return { joined, at };
}

/** `text` with each range (merged where they overlap) replaced by REDACTED. */
function replaceRanges(text: string, ranges: Array<[number, number]>): string {
  if (ranges.length === 0) return text;
  ranges.sort((a, b) => a[0] - b[0]);
  let out = '';
  let from = 0;
  for (const [start, end] of ranges) {
    if (end <= from) continue;
    if (start >= from) out += text.slice(from, start) + REDACTED;
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
