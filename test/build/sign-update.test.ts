import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFeedFile, signReleaseFolder } from '../../build/sign-update.ts';
import { APP_ID } from '../../src-main/core/shell/app-identity.ts';
import { checkUpdateSignature, generateSigningKey, keyId, signUpdate } from '../../src-main/core/shell/update-signature.ts';
import { UPDATE_PUBLIC_KEYS } from '../../src-main/core/shell/update-trust.ts';

/**
 * The release's signing step on a folder shaped like the union of what
 * `npm run dist` leaves in release/ on the three systems: installers, update
 * files, block maps, the feed files electron-builder writes, its debug files.
 */
const SCRIPT = join(import.meta.dirname, '..', '..', 'build', 'sign-update.ts');
const key = generateSigningKey();
const VERSION = '1.4.0';
const sha = (text: string) => createHash('sha512').update(text).digest('base64');
const FILES: Record<string, string> = {
  'Marketplace-Desk-Setup-1.4.0.exe': 'windows installer',
  'Marketplace-Desk-1.4.0-arm64-mac.zip': 'mac update',
  'Marketplace-Desk-1.4.0-arm64.dmg': 'mac installer',
  'Marketplace-Desk-1.4.0-x86_64.AppImage': 'appimage',
  'marketplace-desk_1.4.0_amd64.deb': 'deb',
};
const feed = (version: string, entries: Array<[string, string]>) =>
  `version: ${version}\nfiles:\n${entries.map(([url, s]) => `  - url: ${url}\n    sha512: ${s}\n    size: 10\n`).join('')}path: ${entries[0]?.[0]}\nsha512: ${entries[0]?.[1]}\nreleaseDate: '2026-11-01T00:00:00.000Z'\n`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'desk-release-'));
  for (const [name, body] of Object.entries(FILES)) await writeFile(join(dir, name), body);
  await writeFile(join(dir, 'Marketplace-Desk-Setup-1.4.0.exe.blockmap'), 'blockmap');
  await writeFile(join(dir, 'builder-debug.yml'), 'x: 1\n');
  await writeFile(join(dir, 'latest.yml'), feed(VERSION, [['Marketplace-Desk-Setup-1.4.0.exe', sha('windows installer')]]));
  await writeFile(join(dir, 'latest-mac.yml'), feed(VERSION, [['Marketplace-Desk-1.4.0-arm64-mac.zip', sha('mac update')], ['Marketplace-Desk-1.4.0-arm64.dmg', sha('mac installer')]]));
  await writeFile(join(dir, 'latest-linux.yml'), feed(VERSION, [['Marketplace-Desk-1.4.0-x86_64.AppImage', sha('appimage')]]));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('signing a release', () => {
  it('writes a .sig the app accepts beside every installer and update file, and nothing else', async () => {
    const signed = await signReleaseFolder(dir, { privateKey: key.privateKey, version: VERSION, pinnedKeys: [key.publicKey] });
    expect(signed.sort()).toEqual(Object.keys(FILES).sort());
    const sigs = (await readdir(dir)).filter((n) => n.endsWith('.sig')).sort();
    expect(sigs).toEqual(Object.keys(FILES).map((n) => `${n}.sig`).sort());
    for (const [name, body] of Object.entries(FILES)) {
      const text = await readFile(join(dir, `${name}.sig`), 'utf8');
      expect(checkUpdateSignature({ appId: APP_ID, version: VERSION, sha512: sha(body) }, text, [key.publicKey])).toEqual({ ok: true, keyId: keyId(key.publicKey) });
    }
  });

  it('refuses a key the app does not pin, before writing anything', async () => {
    await expect(signReleaseFolder(dir, { privateKey: key.privateKey, version: VERSION, pinnedKeys: [generateSigningKey().publicKey] }))
      .rejects.toThrow(new RegExp(`signing key \\(id ${keyId(key.publicKey)}\\) is not pinned`));
    expect((await readdir(dir)).filter((n) => n.endsWith('.sig'))).toEqual([]);
  });

  it('refuses a feed file of another version, naming a missing file, or giving another sha512', async () => {
    const opts = { privateKey: key.privateKey, version: VERSION, pinnedKeys: [key.publicKey] };
    await writeFile(join(dir, 'latest.yml'), feed('1.3.9', [['Marketplace-Desk-Setup-1.4.0.exe', sha('windows installer')]]));
    await expect(signReleaseFolder(dir, opts)).rejects.toThrow('latest.yml is for version 1.3.9, not 1.4.0');
    await writeFile(join(dir, 'latest.yml'), feed(VERSION, [['Marketplace-Desk-Setup-1.4.1.exe', sha('windows installer')]]));
    await expect(signReleaseFolder(dir, opts)).rejects.toThrow(/latest\.yml names Marketplace-Desk-Setup-1\.4\.1\.exe, which is not in/);
    await writeFile(join(dir, 'latest.yml'), feed(VERSION, [['Marketplace-Desk-Setup-1.4.0.exe', sha('another installer')]]));
    await expect(signReleaseFolder(dir, opts)).rejects.toThrow(/but the file's is/);
    expect((await readdir(dir)).filter((n) => n.endsWith('.sig'))).toEqual([]);
  });

  it('reads electron-builder\'s feed format, quoted or not', () => {
    expect(readFeedFile(`version: '2.0.0'\nfiles:\n  - url: 'a b.exe'\n    sha512: "abc=="\n    size: 1\n    isAdminRightsRequired: true\npath: a b.exe\n`))
      .toEqual({ version: '2.0.0', files: new Map([['a b.exe', 'abc==']]) });
  });

  it('as a command: refuses the key of a stranger, and says which key the app pins', () => {
    const run = spawnSync(process.execPath, [SCRIPT, dir], { env: { ...process.env, UPDATE_SIGNING_KEY: key.privateKey }, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`not pinned in src-main/core/shell/update-trust.ts (pinned: ${UPDATE_PUBLIC_KEYS.map((p) => keyId(p)).join(', ')})`);
    const missing = spawnSync(process.execPath, [SCRIPT, dir], { env: { ...process.env, UPDATE_SIGNING_KEY: '' }, encoding: 'utf8' });
    expect(missing.stderr).toContain('UPDATE_SIGNING_KEY is not set');
  });

  it('as a command: makes a new key pair whose halves belong together', () => {
    const run = spawnSync(process.execPath, [SCRIPT, '--new-key'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    const [priv, pub] = [/-----BEGIN PRIVATE KEY-----[^-]+-----END PRIVATE KEY-----\n/.exec(run.stdout)?.[0], /-----BEGIN PUBLIC KEY-----[^-]+-----END PUBLIC KEY-----\n/.exec(run.stdout)?.[0]];
    expect(priv && pub).toBeTruthy();
    expect(run.stdout).toContain(`id ${keyId(pub as string)}`);
    const facts = { appId: APP_ID, version: VERSION, sha512: sha('x') };
    expect(checkUpdateSignature(facts, signUpdate(facts, priv as string), [pub as string]).ok).toBe(true);
  });
});
