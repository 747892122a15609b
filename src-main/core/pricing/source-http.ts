import { serviceUrlProblem } from '../../../src-shared/fields.ts';
import { boundedRetryAfterMs } from '../../../src-shared/rate-wait.ts';
import { ApiError } from '../api/errors.ts';
import { parseRetryAfterBody, parseRetryAfterHeader } from '../api/rate-headers.ts';
import { failureLabel, lazyPool, send, unreachableWords, type RawResponse } from '../api/transport.ts';

/**
 * One HTTP exchange with a price source (pricedb.io, a trader's list at an
 * URL), through undici: no key travels, every failure is an ApiError naming
 * the source, a 429's wait is read from Retry-After (or the body's
 * `retry_after`) and capped as every wait of the desk is, and the answer's
 * `Cache-Control: max-age` says how soon the source wants to be asked again.
 */

export interface SourceAnswer {
  readonly status: number;
  readonly body: Buffer;
  /** How long the source asks to be left alone (its max-age), ms; null when it says nothing. */
  readonly maxAgeMs: number | null;
}

export interface SourceHttp {
  request(options: { method: 'GET' | 'POST'; path: string; body?: string; accept: string; signal?: AbortSignal }): Promise<SourceAnswer>;
  readonly prefix: string;
  close(): Promise<void>;
}

/** The most a price answer may weigh. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

export function createSourceHttp(options: { source: string; url: string; timeoutMs?: number; now: () => number }): SourceHttp {
  const problem = serviceUrlProblem(options.url);
  if (problem !== null) throw new ApiError('invalid', `${options.source}: the URL ${problem}`, { issues: [{ field: 'url', message: problem }] });
  const url = new URL(options.url);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const pool = lazyPool(url.origin, { connections: 2, connectTimeout: 10_000, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const { source } = options;
  return {
    prefix: url.pathname.replace(/\/+$/, ''),
    async request({ method, path, body, accept, signal }) {
      const deadline = AbortSignal.timeout(timeoutMs);
      const result = await send(await pool.get(), {
        method, path,
        headers: { accept, ...(body === undefined ? {} : { 'content-type': 'application/json' }), 'user-agent': 'MarketplaceDesk' },
        ...(body === undefined ? {} : { body }),
        signal: signal === undefined ? deadline : AbortSignal.any([signal, deadline]),
        maxBodyBytes: () => MAX_BODY_BYTES,
      });
      if (!result.ok) {
        if (signal?.aborted === true) throw signal.reason;
        const why = deadline.aborted ? `no answer within ${Math.round(timeoutMs / 1000)} s` : unreachableWords(result.error);
        throw new ApiError('network', `${source} could not be reached: ${why}`, { cause: new Error(failureLabel(result.error)) });
      }
      return checked(source, result.response, options.now());
    },
    close: () => pool.close(),
  };
}

function checked(source: string, response: RawResponse, now: number): SourceAnswer {
  const { status, headers, body, truncated } = response;
  if (status === 429) {
    const asked = parseRetryAfterHeader(headers, now) ?? parseRetryAfterBody(jsonOrNull(body));
    throw new ApiError('rate_limited', `${source} asked the desk to slow down (429)`, { status, ...(asked === undefined ? {} : { retryAfterMs: boundedRetryAfterMs(asked) }) });
  }
  if (status >= 500) throw new ApiError('server', `${source} is not answering as it should: it answered ${status}`, { status });
  if (status !== 200) throw new ApiError('rejected', `${source} refused the question: it answered ${status}`, { status });
  if (truncated) throw new ApiError('bad_response', `${source}: the answer is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB`, { status });
  return { status, body, maxAgeMs: maxAge(headers['cache-control']) };
}

function maxAge(value: string | string[] | undefined): number | null {
  const text = Array.isArray(value) ? value.join(',') : value;
  const match = text === undefined ? null : /(?:^|,)\s*max-age=(\d{1,9})\s*(?:,|$)/i.exec(text);
  return match ? Number(match[1]) * 1000 : null;
}

/** The body as JSON, or null when it is not. */
export function jsonOrNull(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return null;
  }
}
