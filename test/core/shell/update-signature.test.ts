import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkUpdateSignature, fileSha512, generateSigningKey, keyId, publicKeyOf, signUpdate, updateStatement,
} from '../../../src-main/core/shell/update-signature.ts';
import { UPDATE_PUBLIC_KEYS } from '../../../src-main/core/shell/update-trust.ts';

const sha512 = createHash('sha512').update('installer bytes').digest('base64');
const facts = { appId: 'io.marketplacedesk.app', version: '1.2.3', sha512 };
const release = generateSigningKey();
const other = generateSigningKey();

describe('update signatures', () => {
  it('verifies a signature made with a pinned key, and names the key', () => {
    const sig = signUpdate(facts, release.privateKey);
    expect(sig).toMatch(/^[A-Za-z0-9+/]{86}==\n$/);
    expect(checkUpdateSignature(facts, sig, [other.publicKey, release.publicKey])).toEqual({ ok: true, keyId: keyId(release.publicKey) });
  });

  it('refuses another key, another version, another file and another app', () => {
    const sig = signUpdate(facts, release.privateKey);
    expect(checkUpdateSignature(facts, signUpdate(facts, other.privateKey), [release.publicKey])).toEqual({ ok: false, problem: 'mismatch' });
    expect(checkUpdateSignature({ ...facts, version: '1.2.4' }, sig, [release.publicKey])).toEqual({ ok: false, problem: 'mismatch' });
    const otherFile = createHash('sha512').update('other bytes').digest('base64');
    expect(checkUpdateSignature({ ...facts, sha512: otherFile }, sig, [release.publicKey])).toEqual({ ok: false, problem: 'mismatch' });
    expect(checkUpdateSignature({ ...facts, appId: 'io.other.app' }, sig, [release.publicKey])).toEqual({ ok: false, problem: 'mismatch' });
    expect(checkUpdateSignature(facts, sig, [])).toEqual({ ok: false, problem: 'mismatch' });
  });

  it('calls anything but one base64 signature malformed', () => {
    const sig = signUpdate(facts, release.privateKey);
    for (const text of ['', 'hello', sig.trim().slice(0, -4), `${sig}${sig}`, Buffer.alloc(64).toString('hex')]) {
      expect(checkUpdateSignature(facts, text, [release.publicKey])).toEqual({ ok: false, problem: 'malformed' });
    }
  });

  it('signs a statement whose fields cannot carry another line', () => {
    expect(updateStatement(facts).toString()).toBe(`Marketplace Desk update\napp: io.marketplacedesk.app\nversion: 1.2.3\nsha512: ${sha512}\n`);
    expect(() => updateStatement({ ...facts, version: '1.2.3\nversion: 9.9.9' })).toThrow(/not a version/);
    expect(() => updateStatement({ ...facts, sha512: 'abc' })).toThrow(/not a base64 sha512/);
    expect(() => updateStatement({ ...facts, appId: 'a b' })).toThrow(/not an app id/);
  });

  it('signs only with an Ed25519 key', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => signUpdate(facts, rsa)).toThrow(/rsa, not Ed25519/);
  });

  it('gives the public half of a private key as the PEM that is pinned', () => {
    expect(publicKeyOf(release.privateKey)).toBe(release.publicKey);
  });

  it('hashes a file as electron-builder writes it in latest*.yml', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'desk-sha-'));
    try {
      await writeFile(join(dir, 'f'), 'installer bytes');
      expect(await fileSha512(join(dir, 'f'))).toBe(sha512);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('pins Ed25519 public keys only', () => {
    expect(UPDATE_PUBLIC_KEYS.length).toBeGreaterThan(0);
    for (const pem of UPDATE_PUBLIC_KEYS) expect(createPublicKey(pem).asymmetricKeyType).toBe('ed25519');
  });
});
