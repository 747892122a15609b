import type { ServerResponse } from 'node:http';
import type { RefusalStyle } from './fault-config.ts';
import type { RateStatus } from './rate-limiter.ts';
import type { Refusal } from './state/refusal.ts';

/**
 * The sandbox's answers as the service words them (a refusal, a 429, a body
 * broken on purpose) and how they go out: the headers the service sends,
 * its clock in `Date`, and an answer cut off halfway.
 */

export interface Reply {
  status: number;
  /** JSON value, or raw text for a malformed body. */
  body: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

export function refusal(status: number, field: string, reason: string): Reply {
  return { status, body: { success: false, error: `${field}: ${reason}` } };
}

/** A Refusal in the wording the `refusalStyle` knob asks for (only a refusal of an item changes). */
export function refusalReply(error: Refusal, style: RefusalStyle): Reply {
  const item = /^items\.(\d+)(\..*)?$/.exec(error.field);
  if (item === null || style === 'path') return refusal(error.status, error.field, error.reason);
  if (style === 'bracket') return refusal(error.status, `items[${item[1]}]${item[2] ?? ''}`, error.reason);
  return { status: error.status, body: { success: false, error: error.reason } };
}

export function tooMany(retryAfterSec: number, error: string): Reply {
  return { status: 429, body: { error, retry_after: retryAfterSec }, headers: { 'Retry-After': String(retryAfterSec) } };
}

/** A 200 whose body a careful client must reject: cut-off JSON, or JSON missing a required field. */
export function malform(reply: Reply, kind: 'invalid_json' | 'missing_field'): Reply {
  const text = JSON.stringify(reply.body);
  if (kind === 'invalid_json') return { ...reply, raw: text.slice(0, Math.max(1, Math.floor(text.length / 2))) };
  return { ...reply, body: withoutAField(reply.body) };
}

function withoutAField(body: unknown): unknown {
  if (Array.isArray(body)) {
    if (body.length === 0) return {};
    const [first, ...rest] = body as Array<Record<string, unknown>>;
    const { trade_id: _dropped, ...kept } = first ?? {};
    return [kept, ...rest];
  }
  if (typeof body === 'object' && body !== null) {
    const entries = Object.entries(body);
    return Object.fromEntries(entries.slice(1));
  }
  return {};
}

export interface SendOptions {
  /** Now on the service's clock (the sandbox's plus the offset knob), for `Date`. */
  readonly serviceNow: number;
  /** The offset knob, for `X-RateLimit-Reset` (computed on the sandbox clock). */
  readonly offsetMs: number;
  /** Whether to say which limit the numbers describe (`X-RateLimit-Scope`, a sandbox extra). */
  readonly withScope: boolean;
}

export function send(res: ServerResponse, reply: Reply, rate: RateStatus | null, options: SendOptions): void {
  const text = reply.raw ?? JSON.stringify(reply.body);
  res.writeHead(reply.status, replyHeaders(reply, text, rate, options));
  res.end(text);
}

/** The answer's status, headers and first half, then (after `wait`) a reset: the body never completes. */
export async function sendHalfThenReset(res: ServerResponse, reply: Reply, rate: RateStatus | null, options: SendOptions, wait: () => Promise<void>): Promise<void> {
  const text = reply.raw ?? JSON.stringify(reply.body);
  res.writeHead(reply.status, replyHeaders(reply, text, rate, options));
  res.write(text.slice(0, Math.floor(text.length / 2)));
  await wait().catch(() => undefined);
  res.socket?.resetAndDestroy();
}

function replyHeaders(reply: Reply, text: string, rate: RateStatus | null, options: SendOptions): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    // Node would stamp the wall clock; the service's clock is the sandbox's (scaled, maybe offset).
    Date: new Date(options.serviceNow).toUTCString(),
    ...reply.headers,
  };
  if (rate) {
    headers['X-RateLimit-Limit'] = String(rate.limit);
    headers['X-RateLimit-Remaining'] = String(rate.remaining);
    headers['X-RateLimit-Reset'] = String(rate.resetSec + Math.round(options.offsetMs / 1000));
    if (options.withScope) headers['X-RateLimit-Scope'] = rate.scope;
  }
  return headers;
}
