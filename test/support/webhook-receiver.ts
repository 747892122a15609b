import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Clock } from '../../src-main/core/clock.ts';
import { startLoopbackServer } from './loopback-server.ts';

/**
 * A receiver of alerts for tests: a real HTTP server on 127.0.0.1 that keeps
 * every request it is sent (with when it arrived on the test's clock) and
 * answers as the test scripts it: a status with a body and headers (a 204,
 * a 429 with Discord's `retry_after`, a 500), or never (`hang`). Not the
 * simulator: it stands for Discord or a trader's own relay.
 */
export interface ReceivedRequest {
  /** When it arrived whole, on the clock's monotonic reading. */
  readonly at: number;
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export type Answer = { readonly status: number; readonly body?: string | object; readonly headers?: Readonly<Record<string, string>> } | 'hang';

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly requests: readonly ReceivedRequest[];
  /** Answers the next requests in order, one each; once they are used, `otherwise` (default a 204). */
  answer(...next: Answer[]): void;
  otherwise(answer: Answer): void;
  /** Requests to `path` (a webhook's), oldest first. */
  to(path: string): ReceivedRequest[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(clock: Pick<Clock, 'monotonic'>): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const scripted: Answer[] = [];
  let fallback: Answer = { status: 204 };
  const server = await startLoopbackServer((req, res, body) => {
    requests.push({ at: clock.monotonic(), method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
    const answer = scripted.shift() ?? fallback;
    // A hanging answer holds the connection until the sender gives up or the receiver closes.
    if (answer === 'hang') return;
    const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    res.writeHead(answer.status, { ...(text ? { 'content-type': 'application/json' } : {}), ...answer.headers });
    res.end(text);
  });
  return {
    origin: server.url,
    requests,
    answer: (...next) => void scripted.push(...next),
    otherwise: (answer) => void (fallback = answer),
    to: (path) => requests.filter((r) => r.path === path),
    close: () => server.close(),
  };
}

/**
 * The receiver's side of a signed alert, as docs/alerts.md tells a trader to
 * write it (and written here from that page, not from the desk's code): the
 * HMAC-SHA256 of `timestamp + "." + body` under the shared secret, compared
 * in constant time with the `sha256=` signature; a timestamp more than
 * `toleranceSec` from the receiver's clock is refused, so a recorded alert
 * cannot be played again later.
 */
export function verifyDeskSignature(input: {
  secret: string;
  headers: IncomingHttpHeaders;
  body: string;
  nowSec: number;
  toleranceSec?: number;
}): 'ok' | 'missing' | 'stale' | 'bad signature' {
  const timestamp = input.headers['x-desk-timestamp'];
  const signature = input.headers['x-desk-signature'];
  if (typeof timestamp !== 'string' || typeof signature !== 'string' || !/^\d+$/.test(timestamp)) return 'missing';
  if (Math.abs(input.nowSec - Number(timestamp)) > (input.toleranceSec ?? 300)) return 'stale';
  const expected = Buffer.from(`sha256=${createHmac('sha256', input.secret).update(`${timestamp}.${input.body}`).digest('hex')}`);
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'ok' : 'bad signature';
}
