import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { expect, test } from '@playwright/test';
import { contentSecurityPolicy } from '../../../src-main/core/shell/csp.ts';
import { postJson, probe, tryUpgrade, type Probe } from './http-probe.ts';
import { setUp, signIn, TEST_PASSWORD, type Credentials } from './server-client.ts';
import { startServe, type ServeProcess } from './serve-process.ts';

/**
 * The server's defences, each by a request that a build without it would
 * answer: nothing but the sign-in pages, their files and /healthz without a
 * session; no change without the desk's own Origin and the CSRF token; no
 * socket for another site's page; no answer to a name the desk was not
 * given; ten wrong passwords ban the address (and only it) for a while that
 * grows and wears off, on the server's own clock (run 60 times faster).
 */

const SCALE = 60;
const dir = mkdtempSync(join(tmpdir(), 'desk-serve-security-'));
let server: ServeProcess;
let url: string;
let session: Extract<Credentials, { kind: 'session' }>;

test.beforeAll(async () => {
  server = await startServe({ profileDir: dir, testConfig: { clock: { scale: SCALE, origin: Date.now() }, sandbox: { seed: 3, inventorySize: 200 } } });
  url = server.url;
  session = await setUp(url, server.setupLink() as string) as typeof session;
});
test.afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const withSession = (extra: Record<string, string> = {}) => ({ cookie: session.cookie, origin: url, 'x-csrf-token': session.csrf, ...extra });

test('without a session only the sign-in pages, their own files and /healthz answer; a page is sent to sign in', async () => {
  const renderer = join(import.meta.dirname, '..', '..', '..', 'out', 'renderer');
  const files = readdirSync(renderer, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => `/${relative(renderer, join(e.parentPath, e.name))}`);
  const login = await probe(url, { path: '/login' });
  const publicFiles = [...login.body.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((m) => `/${m[1]}`);
  expect(publicFiles.length).toBeGreaterThanOrEqual(2);
  for (const path of ['/login', '/setup', '/healthz', '/healthz/ready', ...publicFiles]) {
    expect((await probe(url, { path })).status, path).toBe(200);
  }
  const closed = [...files.filter((f) => !publicFiles.includes(f)), '/', '/session', '/diagnostics', '/nothing-here', '/assets/nothing.js'];
  expect(closed).toEqual(expect.arrayContaining(['/index.html', '/socket.js', '/access.html']));
  for (const path of closed) {
    expect((await probe(url, { path })).status, path).toBe(401);
    // A browser's navigation is sent to sign in instead.
    const page = await probe(url, { path, headers: { accept: 'text/html', 'sec-fetch-mode': 'navigate' } });
    expect([page.status, page.headers.location], path).toEqual([303, '/login']);
  }
  for (const path of ['/api/app:status', '/api/key:status', '/logout']) {
    expect((await postJson(url, path, {}, { origin: url })).status, path).toBe(401);
  }
  expect(await tryUpgrade(url, { origin: url })).toBe(401);
  // A made-up session or token is no session.
  expect((await probe(url, { path: '/', headers: { cookie: `desk_session_0=${'A'.repeat(43)}` } })).status).toBe(401);
  expect((await postJson(url, '/api/app:status', {}, { authorization: `Bearer mdt_${'A'.repeat(43)}` })).status).toBe(401);
  // With the session, the same requests are answered.
  expect((await probe(url, { path: '/', headers: { cookie: session.cookie } })).status).toBe(200);
  expect((await postJson(url, '/api/app:status', {}, withSession())).status).toBe(200);
});

test('a POST without the desk\'s own Origin or without the CSRF token is refused', async () => {
  // The desk's calls.
  const call = (headers: Record<string, string>) => postJson(url, '/api/settings:update', { theme: 'dark' }, headers);
  expect((await call(withSession({ origin: 'http://evil.example' }))).status).toBe(403);
  expect((await call(withSession({ origin: url.replace('127.0.0.1', 'localhost') }))).status).toBe(403);
  const noOrigin = withSession();
  delete (noOrigin as Record<string, string>).origin;
  expect((await call(noOrigin)).status).toBe(403);
  const noToken = withSession();
  delete (noToken as Record<string, string>)['x-csrf-token'];
  expect((await call(noToken)).status).toBe(403);
  expect((await call(withSession({ 'x-csrf-token': 'A'.repeat(43) }))).status).toBe(403);
  // A form post another site could send (no JSON type) is not read at all.
  expect((await probe(url, { method: 'POST', path: '/api/settings:update', headers: { ...withSession(), 'content-type': 'text/plain' }, body: '{"theme":"dark"}' })).status).toBe(415);
  expect((await call(withSession())).status).toBe(200);

  // The sign-in form: its page's token and cookie, from its own origin.
  const form = await probe(url, { path: '/login' });
  const token = /name="desk-form" content="([^"]+)"/.exec(form.body)?.[1] as string;
  const cookie = String(form.headers['set-cookie']?.[0]).split(';')[0] as string;
  const signInWith = (headers: Record<string, string>) => postJson(url, '/login', { password: TEST_PASSWORD }, headers);
  expect((await signInWith({ cookie, 'x-csrf-token': token, origin: 'http://evil.example' })).status).toBe(403);
  expect((await signInWith({ cookie, 'x-csrf-token': token })).status).toBe(403);
  expect((await signInWith({ cookie, origin: url })).status).toBe(403);
  expect((await signInWith({ 'x-csrf-token': token, origin: url })).status).toBe(403);
  expect((await signInWith({ cookie, 'x-csrf-token': token, origin: url })).status).toBe(200);
});

test('a WebSocket upgrade from another site\'s page, or without the CSRF token, is refused', async () => {
  const protocols = ['marketplace-desk', `csrf.${session.csrf}`];
  expect(await tryUpgrade(url, { cookie: session.cookie, origin: 'http://evil.example' }, protocols)).toBe(403);
  expect(await tryUpgrade(url, { cookie: session.cookie, origin: `${url}.evil.example` }, protocols)).toBe(403);
  expect(await tryUpgrade(url, { cookie: session.cookie }, protocols)).toBe(403);
  expect(await tryUpgrade(url, { cookie: session.cookie, origin: url }, ['marketplace-desk'])).toBe(403);
  expect(await tryUpgrade(url, { cookie: session.cookie, origin: url }, ['marketplace-desk', 'csrf.AAAA'])).toBe(403);
  expect(await tryUpgrade(url, { cookie: session.cookie, origin: url }, protocols)).toBe('open');
});

test('a Host the desk was not given is refused, on pages, calls and the socket', async () => {
  const port = new URL(url).port;
  for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1.evil.example:${port}`, `localhost.evil.example:${port}`, `[::2]:${port}`]) {
    expect((await probe(url, { path: '/login', headers: { host } })).status, host).toBe(403);
    expect((await postJson(url, '/api/app:status', {}, withSession({ host }))).status, host).toBe(403);
  }
  expect(await tryUpgrade(url, { host: `evil.example:${port}`, cookie: session.cookie, origin: `http://evil.example:${port}` }, ['marketplace-desk', `csrf.${session.csrf}`])).toBe(403);
  for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`]) {
    expect((await probe(url, { path: '/login', headers: { host } })).status, host).toBe(200);
  }
});

test('every answer carries the desktop window\'s CSP, no referrer, no framing', async () => {
  const probes: Probe[] = [{ path: '/login' }, { path: '/', headers: { cookie: session.cookie } }, { path: '/healthz' }, { path: '/nothing' }, { path: '/login', headers: { host: 'evil.example' } }];
  for (const p of probes) {
    const reply = await probe(url, p);
    expect(reply.headers['content-security-policy'], p.path).toBe(contentSecurityPolicy());
    expect(reply.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(reply.headers['content-security-policy']).toContain("script-src 'self'");
    expect(reply.headers['referrer-policy']).toBe('no-referrer');
    expect(reply.headers['x-frame-options']).toBe('DENY');
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
  }
  // The sign-in page holds no inline script (the CSP would refuse it).
  expect((await probe(url, { path: '/login' })).body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
});

test('ten wrong passwords ban the address, not another; the ban grows, and wears off', async () => {
  const attempt = (password: string, from: string) => postForm(password, from);
  async function postForm(password: string, from: string) {
    const form = await probe(url, { path: '/login', localAddress: from });
    const token = /name="desk-form" content="([^"]+)"/.exec(form.body)?.[1] as string;
    const cookie = String(form.headers['set-cookie']?.[0]).split(';')[0] as string;
    return postJson(url, '/login', { password }, { cookie, 'x-csrf-token': token, origin: url }, from);
  }
  const guesser = '127.0.0.3';
  for (let i = 1; i <= 9; i++) expect((await attempt(`wrong ${i}`, guesser)).status, `guess ${i}`).toBe(401);
  const tenth = await attempt('wrong 10', guesser);
  expect(tenth.status).toBe(429);
  expect(Number(tenth.headers['retry-after'])).toBeGreaterThan(50);
  expect(Number(tenth.headers['retry-after'])).toBeLessThanOrEqual(60);
  // Banned: even the right password from that address waits.
  expect((await attempt(TEST_PASSWORD, guesser)).status).toBe(429);
  // Another address signs in.
  expect((await attempt(TEST_PASSWORD, '127.0.0.4')).status).toBe(200);
  // The ban wears off (a minute of the server's time: a second here), and the right password works again.
  await expect.poll(async () => (await attempt(TEST_PASSWORD, guesser)).status, { timeout: 10_000, intervals: [250] }).toBe(200);
  // Ten more: the second ban is twice the first.
  for (let i = 1; i <= 9; i++) await attempt(`again ${i}`, guesser);
  const second = await attempt('again 10', guesser);
  expect(second.status).toBe(429);
  expect(Number(second.headers['retry-after'])).toBeGreaterThan(110);
  const log = server.lines().join('\n');
  expect(log).toContain('"address":"127.0.0.3","banned":true');
});

test('the session cookie is HttpOnly, SameSite=Strict, Path=/, new at every sign-in, and over after sign-out', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${url}/login`);
  await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
  await page.keyboard.press('Enter');
  await page.waitForURL(`${url}/`);
  const cookies = await context.cookies(url);
  const sessionCookie = cookies.find((c) => c.name.startsWith('desk_session_'));
  expect(sessionCookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/', secure: false, expires: -1 });
  // The page's script cannot read it.
  expect(await page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie)).not.toContain('desk_session_');
  await context.close();

  type Session = Extract<Credentials, { kind: 'session' }>;
  const first = (await signIn(url)) as Session;
  const second = (await signIn(url)) as Session;
  expect(first.cookie).not.toBe(second.cookie);
  expect(first.csrf).not.toBe(second.csrf);
  const out = await postJson(url, '/logout', {}, { cookie: first.cookie, origin: url, 'x-csrf-token': first.csrf });
  expect(out.status).toBe(200);
  expect(String(out.headers['set-cookie'])).toMatch(/Max-Age=0/);
  expect((await probe(url, { path: '/session', headers: { cookie: first.cookie } })).status).toBe(401);
  expect(await tryUpgrade(url, { cookie: first.cookie, origin: url }, ['marketplace-desk', `csrf.${first.csrf}`])).toBe(401);
  // The other session is untouched.
  expect((await probe(url, { path: '/session', headers: { cookie: second.cookie } })).status).toBe(200);
});

test('a password change ends every session; the new password signs in, the old one does not', async () => {
  type Session = Extract<Credentials, { kind: 'session' }>;
  const other = (await signIn(url)) as Session;
  const next = 'another long passphrase';
  const change = (current: string, to: string, by: Session) =>
    postJson(url, '/api/access:changePassword', { current, next: to }, { cookie: by.cookie, origin: url, 'x-csrf-token': by.csrf });
  const wrong = await change('not it at all', next, session);
  expect(JSON.parse(wrong.body)).toMatchObject({ ok: false, error: { kind: 'auth' } });
  expect((await change(TEST_PASSWORD, next, session)).status).toBe(200);
  for (const s of [session, other]) expect((await probe(url, { path: '/session', headers: { cookie: s.cookie } })).status).toBe(401);
  await expect(signIn(url)).rejects.toThrow(/401/);
  const back = (await signIn(url, next)) as Session;
  expect((await change(next, TEST_PASSWORD, back)).status).toBe(200);
  session = (await signIn(url)) as Session;
});
