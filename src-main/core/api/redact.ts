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
 * plausibly echo it: raw, JSON-escaped and URL-encoded.
 */
export function redactSecret(text: string, secret: string | null | undefined): string {
  if (!secret) return text;
  const forms = new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)]);
  let out = text;
  for (const form of forms) {
    if (form !== '') out = out.split(form).join(REDACTED);
  }
  return out;
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
