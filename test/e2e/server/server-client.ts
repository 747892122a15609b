import WebSocket from 'ws';
import { CHANNEL_NAMES, EVENT_NAMES, type EventName } from '../../../src-shared/channels.ts';
import type { EventPayload, IpcResult } from '../../../src-shared/contract.ts';
import type { BridgeListener, Router } from '../../../src-main/ipc/router.ts';

/**
 * A client of the server from the test process, as a browser or a script
 * reaches it: the sign-in and setup forms over HTTP (their CSRF token and
 * cookie), and the bridge over the WebSocket, with a session (cookie,
 * Origin, the CSRF token as a subprotocol) or a bearer token.
 */

export const TEST_PASSWORD = 'correct horse battery staple';

export type Credentials =
  | { readonly kind: 'session'; readonly cookie: string; readonly csrf: string; readonly origin: string }
  | { readonly kind: 'token'; readonly token: string };

/** The cookie pairs of a response's Set-Cookie headers (name=value), without the cleared ones. */
export function cookiesOf(res: Response): string[] {
  return res.headers.getSetCookie().map((c) => c.split(';')[0] as string).filter((c) => !c.endsWith('='));
}

/** The sign-in page's form: its cookie and the token the page carries. */
export async function signInForm(url: string, path: '/login' | '/setup' = '/login'): Promise<{ cookie: string; token: string; html: string }> {
  const res = await fetch(`${url}${path}`);
  const html = await res.text();
  const token = /name="desk-form" content="([^"]+)"/.exec(html)?.[1];
  const cookie = cookiesOf(res)[0];
  if (!token || !cookie) throw new Error(`${path} gave no form token (status ${res.status})`);
  return { cookie, token, html };
}

/** Posts a sign-in form as its page does (own Origin, the form's token and cookie). */
export async function postForm(url: string, path: '/login' | '/setup', body: object, from?: { localAddress?: string }): Promise<Response> {
  const form = await signInForm(url, path);
  return fetchFrom(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': form.token, cookie: form.cookie, origin: url },
    body: JSON.stringify(body),
  }, from?.localAddress);
}

/**
 * fetch, optionally from another local address (127.0.0.2 …), as a second
 * machine would connect: the server throttles sign-ins per address.
 */
async function fetchFrom(url: string, init: RequestInit, localAddress?: string): Promise<Response> {
  if (localAddress === undefined) return fetch(url, init);
  const undici = await import('undici');
  const res = await undici.fetch(url, { method: init.method ?? 'GET', headers: init.headers as Record<string, string>, body: init.body as string, dispatcher: new undici.Agent({ connect: { localAddress } }) });
  return res as unknown as Response;
}

/** The session a successful sign-in or setup answered, with the CSRF token of the desk's page. */
async function sessionOf(url: string, res: Response): Promise<Credentials> {
  if (!res.ok) throw new Error(`sign-in refused: ${res.status} ${await res.text()}`);
  const cookie = cookiesOf(res).find((c) => c.includes('desk_session_'));
  if (!cookie) throw new Error('no session cookie');
  const page = await fetch(`${url}/`, { headers: { cookie } });
  const csrf = /name="desk-csrf" content="([^"]+)"/.exec(await page.text())?.[1];
  if (!csrf) throw new Error('the desk page carries no CSRF token');
  return { kind: 'session', cookie, csrf, origin: url };
}

export async function setUp(url: string, link: string, password = TEST_PASSWORD): Promise<Credentials> {
  return sessionOf(url, await postForm(url, '/setup', { token: new URL(link).hash.slice(1), password }));
}

export async function signIn(url: string, password = TEST_PASSWORD): Promise<Credentials> {
  return sessionOf(url, await postForm(url, '/login', { password }));
}

export interface SocketRouter extends Router {
  /** Every message the server sent on this socket, as text. */
  readonly received: string[];
  close(): Promise<void>;
}

/** The bridge over the server's socket, as a Router: what the page's window.api reaches. */
export async function connectRouter(url: string, credentials: Credentials): Promise<SocketRouter> {
  const headers = credentials.kind === 'session'
    ? { cookie: credentials.cookie, origin: credentials.origin }
    : { authorization: `Bearer ${credentials.token}` };
  const protocols = credentials.kind === 'session' ? ['marketplace-desk', `csrf.${credentials.csrf}`] : ['marketplace-desk'];
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/bridge`, protocols, { headers });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_req, res) => reject(new Error(`the socket was refused: ${res.statusCode}`)));
    socket.once('error', reject);
  });
  const received: string[] = [];
  const waiting = new Map<number, (result: IpcResult<unknown>) => void>();
  const listeners = new Set<BridgeListener>();
  let next = 1;
  socket.on('message', (data) => {
    const text = String(data);
    received.push(text);
    const message = JSON.parse(text) as { reply?: number; result?: IpcResult<unknown>; event?: EventName; payload?: unknown };
    if (message.reply !== undefined && message.result) {
      waiting.get(message.reply)?.(message.result);
      waiting.delete(message.reply);
    } else if (message.event !== undefined) {
      for (const listener of [...listeners]) listener(message.event, message.payload as EventPayload<typeof message.event>);
    }
  });
  socket.on('close', () => {
    for (const resolve of waiting.values()) resolve({ ok: false, error: { kind: 'internal', message: 'the socket closed' } });
    waiting.clear();
  });
  return {
    channels: CHANNEL_NAMES,
    events: EVENT_NAMES,
    received,
    invoke(channel, input) {
      const id = next++;
      return new Promise((resolve) => {
        if (socket.readyState !== WebSocket.OPEN) return resolve({ ok: false, error: { kind: 'internal', message: 'the socket is closed' } });
        waiting.set(id, resolve);
        socket.send(JSON.stringify({ id, channel, input: input ?? {} }));
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    close: () => new Promise<void>((resolve) => {
      if (socket.readyState === WebSocket.CLOSED) return resolve();
      socket.once('close', () => resolve());
      socket.close();
    }),
  };
}
