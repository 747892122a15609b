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
 * plausibly echo it (see `echoForms`). Plain string searches, longest form
 * first: no pattern whose cost a hostile body could blow up.
 */
export function redactSecret(text: string, secret: string | null | undefined): string {
  if (!secret) return text;
  let out = text;
  for (const form of echoForms(secret)) out = out.split(form).join(REDACTED);
  return out;
}

/**
 * The key as it reads raw; JSON-escaped once, twice and three times (an
 * error body quoted as a string inside another JSON body doubles the
 * backslashes before a `"`), also with `/` escaped and with every character
 * as `\uXXXX`; and each of those URL-encoded (upper- or lower-case hex,
 * form encoding) and encoded twice.
 */
function echoForms(secret: string): string[] {
  const json = (s: string) => JSON.stringify(s).slice(1, -1);
  const escaped = [secret, json(secret), json(json(secret)), json(json(json(secret)))];
  escaped.push(json(secret).replaceAll('/', '\\/'));
  escaped.push([...secret].map((c) => [...c].map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')).join(''));
  const urls = escaped.flatMap((s) => [encodeURIComponent(s), new URLSearchParams({ k: s }).toString().slice(2), encodeURIComponent(encodeURIComponent(s))]);
  const lowerHex = urls.map((u) => u.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()));
  const forms = new Set([...escaped, ...urls, ...lowerHex].filter((f) => f !== ''));
  return [...forms].sort((x, y) => y.length - x.length);
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
