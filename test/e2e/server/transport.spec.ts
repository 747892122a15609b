import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { INSECURE_REMOTE_WARNING } from '../../../src-shared/sign-in.ts';
import { postJson, probe } from './http-probe.ts';
import { runServe, startServe, type ServeProcess } from './serve-process.ts';
import { TEST_PASSWORD } from './server-client.ts';

/**
 * How the server may be reached: beyond this machine only over TLS, behind
 * a reverse proxy the trader names, or with --insecure-remote, which every
 * screen then shows in red. Cookies are Secure (with the __Host- prefix)
 * whenever the browser came over HTTPS. Pictures of the warning at 1024×700
 * and 1920×1080 go to test-results/server-transport.
 */
const DIR = join('test-results', 'server-transport');
const dirs: string[] = [];
const servers: ServeProcess[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'desk-serve-transport-'));
  dirs.push(dir);
  return dir;
};
const serve = async (args: string[], profileDir = tempDir()) => {
  const server = await startServe({ profileDir, args, testConfig: { sandbox: { seed: 3, inventorySize: 200 } } });
  servers.push(server);
  return server;
};
test.afterAll(async () => {
  for (const s of servers) await s.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Sets the password through the setup link in a page, and leaves it on the desk. */
async function setUpInPage(page: Page, server: ServeProcess): Promise<void> {
  await page.goto(server.setupLink() as string);
  await page.getByLabel('New password').fill(TEST_PASSWORD);
  await page.getByLabel('The same password again').fill(TEST_PASSWORD);
  await page.keyboard.press('Enter');
  await page.locator('nav[aria-label=Screens]').waitFor();
}

test('listening beyond this machine in the clear is refused with a sentence that says what to do', async () => {
  const { code, lines } = await runServe({ profileDir: tempDir(), args: ['--host', '0.0.0.0'] });
  expect(code).toBe(2);
  const said = lines.join('\n');
  expect(said).toContain('Refusing to listen on 0.0.0.0 without encryption');
  expect(said).toContain('--tls-cert and --tls-key');
  expect(said).toContain('--trusted-proxy');
  expect(said).toContain('--insecure-remote');
});

test('over TLS the session cookie is Secure with the __Host- prefix, and HSTS is sent', async ({ browser }) => {
  const dir = tempDir();
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
  const server = await serve(['--tls-cert', cert, '--tls-key', key], join(dir, 'profile'));
  expect(server.url).toMatch(/^https:\/\//);
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  await setUpInPage(page, server);
  const cookie = (await context.cookies(server.url)).find((c) => c.name.includes('desk_session_'));
  expect(cookie).toMatchObject({ name: expect.stringMatching(/^__Host-desk_session_/), httpOnly: true, sameSite: 'Strict', path: '/', secure: true });
  expect((await probe(server.url, { path: '/login' })).headers['strict-transport-security']).toBe('max-age=31536000');
  await context.close();
});

test('--insecure-remote listens beyond this machine, and every screen says it in red', async ({ browser }) => {
  const server = await serve(['--host', '0.0.0.0', '--insecure-remote']);
  expect(server.lines().join('\n')).toContain('without encryption (--insecure-remote)');
  mkdirSync(DIR, { recursive: true });
  for (const viewport of [{ width: 1024, height: 700 }, { width: 1920, height: 1080 }]) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const size = `${viewport.width}`;
    if (viewport.width === 1024) {
      // The setup page, then the desk: the same warning on both.
      await page.goto(server.setupLink() as string);
      await expect(page.getByRole('alert')).toHaveText(INSECURE_REMOTE_WARNING);
      await page.screenshot({ path: join(DIR, `1-setup-insecure-${size}.png`) });
      await page.getByLabel('New password').fill(TEST_PASSWORD);
      await page.getByLabel('The same password again').fill(TEST_PASSWORD);
      await page.keyboard.press('Enter');
    } else {
      // Sign in from the keyboard alone: the field has the focus, Enter sends it.
      await page.goto(`${server.url}/login`);
      await expect(page.getByRole('alert')).toHaveText(INSECURE_REMOTE_WARNING);
      await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
      await page.screenshot({ path: join(DIR, `1-login-insecure-${size}.png`) });
      await page.keyboard.type(TEST_PASSWORD);
      await page.keyboard.press('Enter');
    }
    await page.locator('nav[aria-label=Screens]').waitFor();
    const banner = page.getByTestId('insecure-remote-banner');
    await expect(banner).toContainText('Not encrypted');
    await expect(banner).toContainText(INSECURE_REMOTE_WARNING);
    const color = await banner.evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(el).color);
    expect(color, 'the warning is red').toMatch(/^rgb\((1[5-9]\d|2\d\d), \d{1,2}, \d{1,2}\)$/);
    await page.screenshot({ path: join(DIR, `2-desk-insecure-${size}.png`) });
    await page.keyboard.press('Alt+9');
    await expect(page.getByTestId('access-transport')).toHaveText('Reached from other machines without encryption.');
    await page.screenshot({ path: join(DIR, `3-settings-insecure-${size}.png`) });
    await context.close();
  }
});

test('behind a trusted proxy, the client is the address it forwards, and HTTPS at the proxy makes cookies Secure', async () => {
  const server = await serve(['--trusted-proxy', '127.0.0.1', '--allowed-host', 'desk.example.lan']);
  const url = server.url;
  const link = server.setupLink() as string;
  const proxied = (client: string) => ({ 'x-forwarded-for': `198.51.100.1, ${client}`, 'x-forwarded-proto': 'https', host: 'desk.example.lan', origin: 'https://desk.example.lan' });
  async function form(path: '/login' | '/setup', headers: Record<string, string>, from?: string) {
    const page = await probe(url, { path, headers, ...(from ? { localAddress: from } : {}) });
    const token = /name="desk-form" content="([^"]+)"/.exec(page.body)?.[1] as string;
    const cookie = String(page.headers['set-cookie']?.[0]).split(';')[0] as string;
    return { token, cookie, setCookie: String(page.headers['set-cookie']?.[0]) };
  }
  async function post(path: '/login' | '/setup', body: object, headers: Record<string, string>, from?: string) {
    const f = await form(path, headers, from);
    return postJson(url, path, body, { ...headers, cookie: f.cookie, 'x-csrf-token': f.token }, from);
  }
  // The setup, as the proxy forwards it: the cookie is Secure, as the browser reached the proxy over HTTPS.
  const setup = await post('/setup', { token: new URL(link).hash.slice(1), password: TEST_PASSWORD }, proxied('203.0.113.9'));
  expect(setup.status).toBe(200);
  expect(String(setup.headers['set-cookie'])).toMatch(/^__Host-desk_session_\d+=[^;]+; HttpOnly; SameSite=Strict; Path=\/; Secure/);
  // Ten wrong passwords from one forwarded client ban it, not the proxy's other clients.
  for (let i = 0; i < 10; i++) await post('/login', { password: `wrong ${i}` }, proxied('203.0.113.7'));
  expect((await post('/login', { password: TEST_PASSWORD }, proxied('203.0.113.7'))).status).toBe(429);
  expect((await post('/login', { password: TEST_PASSWORD }, proxied('203.0.113.8'))).status).toBe(200);
  // From an address that is not the proxy, X-Forwarded-For is the client's own words: not believed.
  const direct = { 'x-forwarded-for': '203.0.113.8', origin: url };
  for (let i = 0; i < 10; i++) await post('/login', { password: `wrong ${i}` }, direct, '127.0.0.5');
  expect((await post('/login', { password: TEST_PASSWORD }, direct, '127.0.0.5')).status).toBe(429);
  expect((await post('/login', { password: TEST_PASSWORD }, proxied('203.0.113.8'))).status).toBe(200);
  expect(server.lines().join('\n')).toContain('"address":"203.0.113.7","banned":true');
});
