import { createHash, timingSafeEqual, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { z } from 'zod';
import { PASSWORD_MAX_CHARS } from '../../../src-shared/sign-in.ts';
import type { ServerTransport } from '../../../src-shared/access.ts';
import type { Clock } from '../../core/clock.ts';
import type { AppLog } from '../../core/shell/app-log.ts';
import { diagnosticsFileName } from '../../core/shell/diagnostics.ts';
import type { Router } from '../../ipc/router.ts';
import type { Access } from './access.ts';
import { readCookie, setCookie } from './cookies.ts';
import { answerTo, BodyError, readJson, wantsPage, type Answer, type AnswerTap } from './http-answers.ts';
import type { RendererFiles } from './renderer-files.ts';
import type { RequestGuard } from './request-guard.ts';
import { BRIDGE_PROTOCOL, type Caller, type SocketBridge } from './socket-bridge.ts';

/**
 * The server's routes. Without a session only these answer: the sign-in and
 * setup pages and their own files, and /healthz (alive, and /healthz/ready:
 * whether the desk is open), which say nothing of the desk. Every other
 * page redirects to sign in, every other request is 401. A request that
 * changes anything carries the desk's own Origin and the CSRF token (the
 * session's, or the sign-in form's); a script sends its bearer token instead.
 */

export type Readiness = 'ready' | 'starting' | 'restarting' | 'failed' | 'recovering' | 'stopping';

export interface HttpDeskOptions {
  readonly access: Access;
  readonly guard: RequestGuard;
  readonly files: RendererFiles;
  readonly bridge: SocketBridge;
  readonly router: Router;
  readonly port: number;
  readonly transport: ServerTransport;
  readonly clock: Pick<Clock, 'now'>;
  readonly log: Pick<AppLog, 'debug' | 'info' | 'warn'>;
  readiness(): Readiness;
  /** The diagnostics bundle as JSON text (scrubbed of the key). */
  diagnostics(): Promise<string>;
  /** Every answer's body, as sent (the tests scan them for secrets). */
  readonly tap?: AnswerTap;
}

export interface HttpDesk {
  request(req: IncomingMessage, res: ServerResponse): void;
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

const SIGN_IN_BYTES = 16 * 1024;
const CALL_BYTES = 8 * 1024 * 1024;
const signInBody = z.strictObject({ password: z.string().max(PASSWORD_MAX_CHARS) });
const setupBody = z.strictObject({ token: z.string().max(200), password: z.string().max(PASSWORD_MAX_CHARS) });

const digest = (text: string) => createHash('sha256').update(text).digest();
const sameToken = (given: string | undefined, expected: string | undefined) =>
  given !== undefined && expected !== undefined && expected !== '' && timingSafeEqual(digest(given), digest(expected));

export function createHttpDesk(o: HttpDeskOptions): HttpDesk {
  const { access, guard, files, port } = o;

  /** Who the request comes from: a bearer token's script, a session's page, or no one. */
  function callerOf(req: IncomingMessage): { caller: Caller; csrf: string | null } | null {
    const auth = req.headers.authorization;
    if (auth !== undefined) {
      const token = /^Bearer\s+(\S+)$/i.exec(auth)?.[1];
      const entry = token === undefined ? null : access.tokens.verify(token, o.clock.now());
      return entry ? { caller: { kind: 'token', id: entry.id }, csrf: null } : null;
    }
    const session = access.sessions.find(readCookie(req, 'session', port));
    return session ? { caller: { kind: 'session', id: session.id }, csrf: session.csrf } : null;
  }

  /** A state-changing request of a page: its own Origin and its session's CSRF token (a script's token needs neither). */
  const mayChange = (req: IncomingMessage, who: { csrf: string | null }) =>
    who.csrf === null || (guard.originAllowed(req, true) && sameToken(header(req, 'x-csrf-token'), who.csrf));

  function accessPage(req: IncomingMessage, answer: Answer, secure: boolean): void {
    const formToken = randomBytes(24).toString('base64url');
    answer.html(200, files.accessPage({ formToken, transport: o.transport, passwordSet: !access.needsSetup() }), { 'set-cookie': setCookie('form', port, secure, formToken) });
  }

  async function signIn(req: IncomingMessage, answer: Answer, secure: boolean, path: '/login' | '/setup'): Promise<void> {
    if (!guard.originAllowed(req, true) || !sameToken(header(req, 'x-csrf-token'), readCookie(req, 'form', port))) {
      answer.json(403, { error: 'This form is out of date or from another site: reload the page.' });
      return;
    }
    const address = guard.clientAddress(req);
    const raw = await readJson(req, SIGN_IN_BYTES);
    const done = path === '/login' ? await login(raw, address, answer) : await setUp(raw, address, answer);
    if (!done) return;
    // A new session at every sign-in: a cookie planted before it is worth nothing after.
    answer.json(200, { ok: true }, { 'set-cookie': [setCookie('session', port, secure, done), setCookie('form', port, secure, null)] });
  }

  async function login(raw: unknown, address: string, answer: Answer): Promise<string | null> {
    const body = signInBody.safeParse(raw);
    if (!body.success) {
      answer.json(400, { error: 'Send the password.' });
      return null;
    }
    const result = await access.signIn(body.data.password, address);
    if (result.ok) return result.session.id;
    if (result.why === 'banned') {
      const seconds = Math.ceil((result.retryAfterMs ?? 0) / 1000);
      answer.json(429, { error: 'banned', retryAfterSeconds: seconds }, { 'retry-after': String(seconds) });
    } else if (result.why === 'not_set') {
      answer.json(409, { error: 'No password is set yet: open the setup link the desk printed in its log.' });
    } else {
      answer.json(401, { error: 'That password is not right.' });
    }
    return null;
  }

  async function setUp(raw: unknown, address: string, answer: Answer): Promise<string | null> {
    const body = setupBody.safeParse(raw);
    if (!body.success) {
      answer.json(400, { error: 'Send the setup link\'s token and the new password.' });
      return null;
    }
    const result = await access.setUp(body.data.token, body.data.password, address);
    if (result.ok) return result.session.id;
    answer.json(result.why === 'weak' ? 400 : 403, { error: result.message });
    return null;
  }

  async function call(req: IncomingMessage, answer: Answer, channel: string): Promise<void> {
    const who = callerOf(req);
    if (!who) return answer.json(401, { error: 'Sign in, or send a bearer token.' });
    if (!mayChange(req, who)) return answer.json(403, { error: 'A call from a page needs the desk\'s own origin and its CSRF token.' });
    if (who.caller.kind === 'session' && channel === 'access:signOut') {
      access.sessions.end(who.caller.id);
      return answer.json(200, { ok: true, value: { ok: true } }, { 'set-cookie': setCookie('session', port, guard.secure(req), null) });
    }
    if (channel.startsWith('access:') && channel !== 'access:state' && who.caller.kind === 'token') {
      return answer.json(403, { ok: false, error: { kind: 'forbidden', message: 'A bearer token cannot manage access: sign in with the password.' } });
    }
    answer.json(200, await o.router.invoke(channel, await readJson(req, CALL_BYTES)));
  }

  async function route(req: IncomingMessage, answer: Answer, secure: boolean): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://desk');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    if (path === '/healthz') return answer.json(200, { status: 'alive' });
    if (path === '/healthz/ready') {
      const state = o.readiness();
      return answer.json(state === 'ready' ? 200 : 503, { status: state });
    }
    if (!guard.hostAllowed(req)) {
      o.log.warn('refused a request for another host', { host: req.headers.host ?? null });
      return answer.text(403, `This desk does not answer to that name. It answers to ${guard.names.join(', ')}; start it with --allowed-host <name> to add one.`);
    }
    if (method === 'POST' && (path === '/login' || path === '/setup')) return signIn(req, answer, secure, path);
    if (method === 'POST' && path.startsWith('/api/')) return call(req, answer, decodeURIComponent(path.slice(5)));
    if (method === 'POST' && path === '/logout') return call(req, answer, 'access:signOut');
    if (method !== 'GET' && method !== 'HEAD') return answer.text(405, 'Method not allowed.', { allow: 'GET, HEAD, POST' });
    if (path === '/login' || path === '/setup') return accessPage(req, answer, secure);
    if (files.isPublic(path)) return serveFile(answer, path);
    const who = callerOf(req);
    if (!who) return wantsPage(req) ? answer.redirect('/login') : answer.json(401, { error: 'Sign in first.' });
    if (path === '/session') return answer.json(200, { signedIn: true });
    if (path === '/' || path === '/index.html') return answer.html(200, files.deskPage(who.csrf ?? ''));
    if (path === '/diagnostics') {
      return answer.download(await o.diagnostics(), diagnosticsFileName(new Date(o.clock.now())));
    }
    return serveFile(answer, path);
  }

  function serveFile(answer: Answer, path: string): void {
    const asset = /\.[a-z0-9]+$/i.test(path) && !path.endsWith('.html') ? files.file(path) : null;
    if (asset) answer.file(asset);
    else answer.text(404, 'Not found.');
  }

  return {
    request(req, res) {
      const secure = guard.secure(req);
      const answer = answerTo(res, secure, o.tap);
      route(req, answer, secure).catch((error: unknown) => {
        if (res.headersSent) return void res.destroy();
        if (error instanceof BodyError) return answer.json(error.status, { error: error.message });
        o.log.warn('a request failed', { path: req.url ?? null, error });
        answer.json(500, { error: 'The desk could not answer this request; its log says why.' });
      });
    },
    upgrade(req, socket, head) {
      const refuse = (status: number, why: string) => {
        o.log.warn('refused a socket', { why, origin: req.headers.origin ?? null, address: guard.clientAddress(req) });
        socket.end(`HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Forbidden'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      };
      if (new URL(req.url ?? '/', 'http://desk').pathname !== '/bridge') return refuse(403, 'not the bridge');
      if (!guard.hostAllowed(req)) return refuse(403, 'another host');
      // A browser always sends Origin on a WebSocket; a page of another site must not ride the cookie (cross-site hijacking).
      const who = callerOf(req);
      if (!guard.originAllowed(req, who?.caller.kind !== 'token')) return refuse(403, 'another origin');
      if (!who) return refuse(401, 'no session or token');
      const offered = (header(req, 'sec-websocket-protocol') ?? '').split(',').map((p) => p.trim());
      const csrf = offered.find((p) => p.startsWith('csrf.'))?.slice(5);
      if (who.csrf !== null && !sameToken(csrf, who.csrf)) return refuse(403, 'no CSRF token');
      if (!offered.includes(BRIDGE_PROTOCOL)) return refuse(403, 'not the bridge\'s protocol');
      o.bridge.accept(req, socket, head, who.caller);
    },
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
