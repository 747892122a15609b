import type { Dispatcher, Pool } from 'undici';
import type { ResponseHeaders } from './rate-headers.ts';

/**
 * One HTTP exchange over an undici dispatcher, reporting whether the request
 * was ever handed to a socket. That fact decides what a failure means for a
 * write: a request that never left (connection refused, connect timeout, DNS,
 * aborted while queued) surely did nothing; one that was written may have been
 * processed even though its response was lost.
 */

export interface RawResponse {
  readonly status: number;
  readonly headers: ResponseHeaders;
  readonly body: Buffer;
  /** The body was longer than the cap and was cut (the connection was dropped). */
  readonly truncated: boolean;
}

export type SendResult =
  | { readonly ok: true; readonly response: RawResponse }
  | {
      readonly ok: false;
      /** Whether the request was handed to a connected socket (it may have reached the server). */
      readonly sent: boolean;
      readonly error: unknown;
    };

export interface SendOptions {
  readonly method: Dispatcher.HttpMethod;
  /** Path and query. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Aborts the exchange: while queued or connecting it is dropped unsent. */
  readonly signal: AbortSignal;
  /** Most body bytes kept for a response of this status; beyond it the exchange stops. */
  readonly maxBodyBytes: (status: number) => number;
}

/** A keep-alive connection pool to one origin, made at its first request. */
export interface LazyPool {
  get(): Promise<Dispatcher>;
  /** Closes the pool if one was made; in-flight requests finish first. */
  close(): Promise<void>;
}

/**
 * undici is loaded when the first request is made, not when the desk
 * starts: evaluating it is a good part of a start's work, and a desk opens
 * its profile and answers its first page before it talks to any service.
 * Only its Pool is loaded, not the package's index (see undici-pool.d.ts).
 */
export function lazyPool(origin: string, options: Pool.Options): LazyPool {
  let pool: Promise<Pool> | null = null;
  return {
    get: () => (pool ??= import('undici/lib/dispatcher/pool.js').then(({ default: PoolClass }) => new PoolClass(origin, options))),
    close: async () => {
      if (pool) await (await pool).close();
    },
  };
}

/** Never rejects: every outcome is a SendResult. */
export function send(dispatcher: Dispatcher, options: SendOptions): Promise<SendResult> {
  return new Promise((resolve) => {
    const { signal } = options;
    let settled = false;
    let sent = false;
    let controller: Dispatcher.DispatchController | null = null;
    let status = 0;
    let headers: ResponseHeaders = {};
    const chunks: Buffer[] = [];
    let size = 0;

    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const done = (truncated: boolean) =>
      finish({ ok: true, response: { status, headers, body: Buffer.concat(chunks, size), truncated } });

    const onAbort = () => {
      if (controller !== null) controller.abort(asError(signal.reason));
      // Still queued or connecting: nothing was written, so settle now rather
      // than wait for a connection; onRequestStart drops it if one comes.
      else finish({ ok: false, sent: false, error: signal.reason });
    };

    if (signal.aborted) {
      finish({ ok: false, sent: false, error: signal.reason });
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        if (settled) {
          c.abort(asError(signal.reason));
          return;
        }
        controller = c;
        sent = true;
      },
      onResponseStart(_c, statusCode, responseHeaders) {
        if (statusCode < 200) return; // interim 1xx; the final response follows
        status = statusCode;
        headers = responseHeaders;
      },
      onResponseData(c, chunk) {
        if (settled) return;
        const room = options.maxBodyBytes(status) - size;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, Math.max(0, room)));
          size += Math.max(0, room);
          done(true);
          c.abort(new Error('response body over the size limit'));
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      },
      onResponseEnd() {
        done(false);
      },
      onResponseError(_c, error) {
        finish({ ok: false, sent, error });
      },
    };

    try {
      dispatcher.dispatch(
        {
          method: options.method,
          path: options.path,
          headers: { ...options.headers },
          body: options.body ?? null,
        },
        handler,
      );
    } catch (error) {
      finish({ ok: false, sent: false, error });
    }
  });
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}

/**
 * Error codes that can only arise before a request is written. A second
 * line of defence beside the `sent` flag: with one of these the request
 * surely did not reach the service.
 */
export const NEVER_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
  'UND_ERR_INVALID_ARG',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

/** Whether a failed exchange may have reached the service. */
export function mayHaveReachedServer(sent: boolean, error: unknown): boolean {
  if (!sent) return false;
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return !(typeof code === 'string' && NEVER_SENT_CODES.has(code));
}

/** Why a request could not reach the service, in the trader's words (the code in brackets for support). */
export function unreachableWords(error: unknown): string {
  const code = failureLabel(error);
  const words = REACH_WORDS.find(([codes]) => codes.some((c) => code === c || code.startsWith(c)))?.[1];
  return words === undefined ? `the connection failed (${code})` : `${words} (${code})`;
}

const REACH_WORDS: ReadonlyArray<readonly [readonly string[], string]> = [
  [['ECONNREFUSED'], 'nothing answers at that address'],
  [['ENOTFOUND', 'EAI_AGAIN'], 'the host name cannot be found'],
  [['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'TimeoutError'], 'no answer in time'],
  [['ENETUNREACH', 'EHOSTUNREACH', 'EADDRNOTAVAIL'], 'the network cannot reach that address'],
  [['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'], 'the connection was cut'],
  [['CERT_', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'ERR_TLS_', 'ERR_SSL_', 'EPROTO'],
    'its TLS certificate or handshake is not trusted'],
];

/** The error's code (or name) for a message, e.g. `ECONNREFUSED`, `TimeoutError`. */
export function failureLabel(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? code : error.name;
  }
  return 'unknown error';
}
