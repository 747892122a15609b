import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startSandbox, type Sandbox } from '../../../src-main/sandbox/index.ts';
import { logEntries, runServe, startServe, type ServeProcess } from './serve-process.ts';
import { connectRouter, setUp, signIn } from './server-client.ts';

/**
 * Where the real server keeps the key when no keychain answers: a key file
 * of its profile folder, refused when others may read it (as ssh refuses a
 * private key), written 0600 when the key is set from the desk; or systemd's
 * credential, which the desk reads and does not change.
 */
const dirs: string[] = [];
let sandbox: Sandbox;
test.beforeAll(async () => {
  sandbox = await startSandbox({ seed: 5, tradeSchedule: false, inventorySize: 100 });
});
test.afterAll(async () => {
  await sandbox?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const profile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'desk-serve-key-'));
  dirs.push(dir);
  return dir;
};
/** No session bus: keytar finds no Secret Service, as on most servers. */
const NO_KEYCHAIN = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' };
const live = () => ({ initialSettings: { mode: 'live', serviceUrl: sandbox.url }, inventoryUrl: sandbox.url });

test('a key file others can read is refused, with the command that fixes it', async () => {
  const dir = profile();
  const file = join(dir, 'api-key');
  writeFileSync(file, `${sandbox.apiKey}\n`);
  chmodSync(file, 0o644);
  const { code, lines } = await runServe({ profileDir: dir, env: NO_KEYCHAIN, testConfig: live() });
  expect(code).toBe(1);
  const said = logEntries(lines).map((e) => String(e.msg));
  expect(said).toContain(`The key file ${file} has mode 0644: other users can read it, so the desk will not use it. Run: chmod 600 ${file}`);
  expect(lines.join('\n')).not.toContain(sandbox.apiKey);

  // Fixed as it says, the desk starts with that key.
  chmodSync(file, 0o600);
  const server = await startServe({ profileDir: dir, env: NO_KEYCHAIN, testConfig: live() });
  try {
    expect(logEntries(server.lines()).find((e) => e.msg === 'the API key is kept in one place')?.where).toContain(`the key file ${file}`);
    const router = await connectRouter(server.url, await setUp(server.url, server.setupLink() as string));
    expect(await router.invoke('key:status', {})).toMatchObject({ ok: true, value: { set: true, last4: sandbox.apiKey.slice(-4) } });
    await router.close();
  } finally {
    await server.stop();
  }
});

test('without a keychain, a key set from the desk is written to a 0600 key file', async () => {
  const dir = profile();
  let server: ServeProcess | null = await startServe({ profileDir: dir, env: NO_KEYCHAIN, testConfig: live() });
  try {
    const router = await connectRouter(server.url, await setUp(server.url, server.setupLink() as string));
    const status = await router.invoke('key:set', { key: sandbox.apiKey });
    expect(status).toMatchObject({ ok: true, value: { set: true, last4: sandbox.apiKey.slice(-4) } });
    const file = join(dir, 'api-key');
    expect(readFileSync(file, 'utf8')).toBe(`${sandbox.apiKey}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await router.close();
    await server.stop();
    server = null;
    // A restart reads it back.
    server = await startServe({ profileDir: dir, env: NO_KEYCHAIN, testConfig: live() });
    const again = await connectRouter(server.url, await signIn(server.url));
    expect(await again.invoke('key:status', {})).toMatchObject({ ok: true, value: { set: true, last4: sandbox.apiKey.slice(-4) } });
    await again.close();
  } finally {
    await server?.stop();
  }
});

test('systemd\'s credential is read, and the desk says it is changed there', async () => {
  const dir = profile();
  const credentials = join(dir, 'credentials');
  mkdirSync(credentials);
  writeFileSync(join(credentials, 'api-key'), sandbox.apiKey, { mode: 0o400 });
  const server = await startServe({ profileDir: join(dir, 'state'), env: { ...NO_KEYCHAIN, CREDENTIALS_DIRECTORY: credentials }, testConfig: live() });
  try {
    expect(logEntries(server.lines()).find((e) => e.msg === 'the API key is kept in one place')?.where).toContain('systemd\'s credential api-key');
    const router = await connectRouter(server.url, await setUp(server.url, server.setupLink() as string));
    expect(await router.invoke('key:status', {})).toMatchObject({ ok: true, value: { set: true, last4: sandbox.apiKey.slice(-4) } });
    const refused = await router.invoke('key:set', { key: 'another-key-0123456789' });
    expect(refused).toMatchObject({ ok: false, error: { message: expect.stringContaining('LoadCredential=') } });
    await router.close();
  } finally {
    await server.stop();
  }
});
