import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SecretStore } from '../../src-main/core/secrets.ts';
import { checkKeyFile, chooseKeyStore, KeyFileError } from '../../src-main/main-thread/server/key-store.ts';
import { memoryKeychain } from '../support/memory-keychain.ts';

const dirs: string[] = [];
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'desk-key-store-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const KEY = 'k3y-0f-the-trader-0123456789abcdef';
const noKeychain: SecretStore = memoryKeychain(false);

describe('the server\'s key store', () => {
  it('refuses a key file others can read, with a sentence that says how to fix it', async () => {
    const dir = temp();
    const file = join(dir, 'api-key');
    writeFileSync(file, `${KEY}\n`, { mode: 0o644 });
    chmodSync(file, 0o644);
    const choosing = chooseKeyStore({ keyFile: file, keychain: memoryKeychain() });
    await expect(choosing).rejects.toThrow(KeyFileError);
    await expect(choosing).rejects.toThrow(`The key file ${file} has mode 0644: other users can read it, so the desk will not use it. Run: chmod 600 ${file}`);
    chmodSync(file, 0o640);
    await expect(chooseKeyStore({ keyFile: file, keychain: memoryKeychain() })).rejects.toThrow('mode 0640');
  });

  it('refuses a key file another user owns', () => {
    const facts = { stat: () => ({ uid: 4242, mode: 0o100600, isFile: () => true }), uid: () => 1000, user: () => 'trader' };
    expect(() => checkKeyFile('/srv/desk/api-key', facts)).toThrow(
      'The key file /srv/desk/api-key belongs to user ID 4242, not to trader who runs the desk; the desk will not use a key another user controls. Run: chown trader /srv/desk/api-key',
    );
    expect(() => checkKeyFile('/srv/desk/api-key', { ...facts, stat: () => ({ uid: 1000, mode: 0o100600, isFile: () => true }) })).not.toThrow();
  });

  it('reads a 0600 key file, which wins over the keychain, and writes a new key with mode 0600', async () => {
    const dir = temp();
    const file = join(dir, 'api-key');
    writeFileSync(file, `${KEY}\n`, { mode: 0o600 });
    const keychain = memoryKeychain();
    const store = await chooseKeyStore({ keyFile: file, keychain });
    expect(store.source).toBe('key-file');
    expect(await store.secrets.get('api-key:default')).toBe(KEY);
    await store.secrets.set('api-key:default', 'another-key-0123456789');
    expect(readFileSync(file, 'utf8')).toBe('another-key-0123456789\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await keychain.get('api-key:default')).toBeNull();
    // Another profile's key sits beside it.
    await store.secrets.set('api-key:second', KEY);
    expect(statSync(`${file}.second`).mode & 0o777).toBe(0o600);
    expect(await store.secrets.delete('api-key:default')).toBe(true);
    expect(await store.secrets.get('api-key:default')).toBeNull();
  });

  it('uses the keychain where one answers and no key file exists, else a new key file', async () => {
    const dir = temp();
    const keychain = memoryKeychain();
    expect((await chooseKeyStore({ keyFile: join(dir, 'api-key'), keychain })).source).toBe('keychain');
    const fallback = await chooseKeyStore({ keyFile: join(dir, 'api-key'), keychain: noKeychain });
    expect(fallback.source).toBe('key-file');
    expect(fallback.where).toContain('no system keychain answers');
    await fallback.secrets.set('api-key:default', KEY);
    expect(statSync(join(dir, 'api-key')).mode & 0o777).toBe(0o600);
  });

  it('takes systemd\'s credential first, and says the key is changed there, not from the desk', async () => {
    const dir = temp();
    const credentials = join(dir, 'credentials');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(credentials);
    writeFileSync(join(credentials, 'api-key'), KEY, { mode: 0o400 });
    writeFileSync(join(dir, 'api-key'), 'a-key-file-that-loses-0123', { mode: 0o600 });
    const store = await chooseKeyStore({ keyFile: join(dir, 'api-key'), credentialsDir: credentials, keychain: memoryKeychain() });
    expect(store.source).toBe('credentials');
    expect(await store.secrets.get('api-key:default')).toBe(KEY);
    await expect(store.secrets.set('api-key:default', 'x-0123456789')).rejects.toThrow(/LoadCredential= in the service's unit\): change the file it names and restart the service/);
    await expect(store.secrets.delete('api-key:default')).rejects.toThrow(KeyFileError);
  });

  it('asks no keychain at start when the key is systemd\'s credential: only when another secret is first used, and once', async () => {
    const dir = temp();
    const credentials = join(dir, 'credentials');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(credentials);
    writeFileSync(join(credentials, 'api-key'), KEY, { mode: 0o400 });
    const keychain = memoryKeychain();
    let asked = 0;
    const counted: SecretStore = { ...keychain, state: () => ((asked += 1), keychain.state()) };
    const store = await chooseKeyStore({ keyFile: join(dir, 'api-key'), credentialsDir: credentials, keychain: counted });
    expect(await store.secrets.get('api-key:default')).toBe(KEY);
    expect(await store.secrets.state()).toBe('available');
    expect(asked).toBe(0);
    expect(await store.secrets.get('webhook:default:w1')).toBeNull();
    await store.secrets.set('webhook:default:w1', 'https://discord.com/api/webhooks/1/token-0123456789');
    expect(await keychain.get('webhook:default:w1')).toBe('https://discord.com/api/webhooks/1/token-0123456789');
    expect(asked).toBe(1);
  });

  it('keeps the desk\'s other secrets (a webhook\'s URL) beside systemd\'s credential: in the keychain, else a private file', async () => {
    for (const keychain of [memoryKeychain(), noKeychain]) {
      const dir = temp();
      const credentials = join(dir, 'credentials');
      const { mkdirSync } = await import('node:fs');
      mkdirSync(credentials);
      writeFileSync(join(credentials, 'api-key'), KEY, { mode: 0o400 });
      const store = await chooseKeyStore({ keyFile: join(dir, 'api-key'), credentialsDir: credentials, keychain });
      const hook = 'https://discord.com/api/webhooks/1/token-0123456789';
      await store.secrets.set('webhook:default:w1', hook);
      expect(await store.secrets.get('webhook:default:w1')).toBe(hook);
      expect(await store.secrets.get('api-key:default')).toBe(KEY);
      if (keychain === noKeychain) expect(statSync(join(dir, 'api-key.webhook_default_w1')).mode & 0o777).toBe(0o600);
      expect(await store.secrets.delete('webhook:default:w1')).toBe(true);
      expect(await store.secrets.get('webhook:default:w1')).toBeNull();
    }
  });
});
