import type { Clock } from '../clock.ts';
import { boundedRetryAfterMs, parseRetryAfterBody, parseRetryAfterHeader } from '../api/rate-headers.ts';
import { send, unreachableWords, type LazyPool, type RawResponse } from '../api/transport.ts';
import { printable } from '../safe-text.ts';

/**
 * One POST of an alert to a receiver, over undici as the service's client
 * sends, and what it came to: delivered, asked to wait (a 429), worth
 * another try (no answer, a 5xx), or refused for good (another 4xx: a
 * removed webhook, a message the receiver will never take). Its deadline
 * is measured on the desk's clock and ends the exchange whatever the
 * receiver does (a socket that accepts and never answers).
 */

export type PostOutcome =
  | { readonly kind: 'delivered'; readonly status: number; readonly words: string; readonly ms: number }
  /** `waitMs`: what the receiver asked (Discord's body `retry_after` in seconds, else `Retry-After`), bounded by MAX_RETRY_AFTER_MS. */
  | { readonly kind: 'rate_limited'; readonly status: 429; readonly waitMs: number; readonly words: string; readonly ms: number }
  | { readonly kind: 'retry'; readonly status: number | null; readonly words: string; readonly ms: number }
  | { readonly kind: 'refused'; readonly status: number; readonly words: string; readonly ms: number };

export interface PostRequest {
  /** Path and query of the webhook's URL. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface PostOptions {
  readonly clock: Clock;
  readonly timeoutMs: number;
  /** Ends the exchange at once (the desk closes, the webhook is removed). */
  readonly signal: AbortSignal;
  /** Takes the URL, its token and the signing secret out of what a receiver or a library said. */
  readonly clean: (text: string) => string;
}

/** A 429 that says nothing of how long: Discord's shortest bucket resets in about this. */
const DEFAULT_RETRY_AFTER_MS = 5_000;
/** Enough of a receiver's error body to say what it meant ("Unknown Webhook"). */
const MAX_BODY_BYTES = 8_192;
const MAX_WORDS = 160;

export async function postAlert(pool: LazyPool, request: PostRequest, options: PostOptions): Promise<PostOutcome> {
  const { clock } = options;
  const startedAt = clock.monotonic();
  const deadline = new AbortController();
  const waiting = new AbortController();
  void clock.sleep(options.timeoutMs, AbortSignal.any([waiting.signal, options.signal])).then(() => deadline.abort(new Error('deadline')), () => undefined);
  try {
    const result = await send(await pool.get(), {
      method: 'POST',
      path: request.path,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.any([deadline.signal, options.signal]),
      maxBodyBytes: () => MAX_BODY_BYTES,
    });
    const ms = Math.max(0, Math.round(clock.monotonic() - startedAt));
    if (!result.ok) {
      const why = deadline.signal.aborted ? `no answer within ${Math.round(options.timeoutMs / 1000)} s` : unreachableWords(result.error);
      return { kind: 'retry', status: null, words: options.clean(why), ms };
    }
    return outcomeOf(result.response, ms, options);
  } finally {
    waiting.abort();
  }
}

function outcomeOf(response: RawResponse, ms: number, options: PostOptions): PostOutcome {
  const { status } = response;
  const words = answerWords(response, options.clean);
  if (status >= 200 && status < 300) return { kind: 'delivered', status, words, ms };
  if (status === 429) {
    const asked = parseRetryAfterBody(jsonOf(response.body)) ?? parseRetryAfterHeader(response.headers, options.clock.now()) ?? DEFAULT_RETRY_AFTER_MS;
    return { kind: 'rate_limited', status, waitMs: boundedRetryAfterMs(asked), words, ms };
  }
  if (status >= 500 || status === 408) return { kind: 'retry', status, words, ms };
  return { kind: 'refused', status, words, ms };
}

/**
 * The status's reason phrase, from node:http as CommonJS: importing it as an
 * ES module builds its namespace, whose WebSocket getter loads Node's bundled
 * undici (about 40 ms and 2.5 MB of the data worker's start).
 */
const statusText = (status: number): string | undefined => process.getBuiltinModule('node:http').STATUS_CODES[status];

/** "answered 404 Not Found: Unknown Webhook": the status, and the receiver's own message when it gave one. */
function answerWords(response: RawResponse, clean: (text: string) => string): string {
  const reason = statusText(response.status);
  const head = `answered ${response.status}${reason ? ` ${reason}` : ''}`;
  const json = jsonOf(response.body);
  // A JSON answer says its meaning in `message` (Discord's, most relays'); a text one says it whole.
  const message = typeof json === 'object' && json !== null
    ? 'message' in json && typeof json.message === 'string' ? json.message : ''
    : response.status >= 300 ? response.body.toString('utf8') : '';
  // Cleaned whole before it is cut: a cut could leave a token's head that no longer matches it.
  const said = printable(clean(message.slice(0, MAX_BODY_BYTES)).replace(/\s+/g, ' ').trim(), MAX_WORDS);
  return said === '' ? head : `${head}: ${said}`;
}

function jsonOf(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}
