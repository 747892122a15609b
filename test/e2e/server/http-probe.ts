import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import WebSocket from 'ws';

/**
 * Requests as an attacker or a script sends them, with any Host, Origin or
 * source address (fetch will not set Host or pick the address it connects
 * from): a reply's status, headers and body, or an upgrade's outcome.
 */
export interface Probe {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Connect from this local address (127.0.0.2 …): another machine, as the server sees it. */
  readonly localAddress?: string;
}

export interface ProbeReply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export function probe(base: string, p: Probe): Promise<ProbeReply> {
  const url = new URL(p.path, base);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: p.method ?? 'GET',
      headers: p.headers ?? {},
      ...(p.localAddress ? { localAddress: p.localAddress } : {}),
      rejectUnauthorized: false,
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(p.body);
  });
}

/** A JSON POST, with whatever Origin, cookie and CSRF token the probe chooses. */
export const postJson = (base: string, path: string, body: object, headers: Record<string, string> = {}, localAddress?: string) =>
  probe(base, { method: 'POST', path, body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers }, ...(localAddress ? { localAddress } : {}) });

/** Tries the bridge's upgrade: 'open', or the status the server refused it with. */
export function tryUpgrade(base: string, headers: Record<string, string>, protocols: string[] = ['marketplace-desk']): Promise<'open' | number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/bridge`, protocols, { headers, rejectUnauthorized: false });
    socket.once('open', () => {
      socket.close();
      resolve('open');
    });
    socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.once('error', () => resolve(0));
  });
}
