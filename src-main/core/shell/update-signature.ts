import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { createReadStream } from 'node:fs';

/**
 * Detached Ed25519 signatures of update files, made by the release
 * (build/sign-update.ts) with its private key and checked by the app against
 * the public keys it was built with (update-trust.ts).
 *
 * What is signed is a short statement naming the app, the version and the
 * file's sha512, not the file itself: Ed25519 signs a whole message held in
 * memory, and with the version inside, an older release's genuine file
 * cannot be offered as a newer one.
 *
 * The signature of `<file>` is the file `<file>.sig` beside it on the feed:
 * one line, the 64-byte signature in base64.
 */
export const SIGNATURE_SUFFIX = '.sig';

/** What a signature vouches for. */
export interface SignedFacts {
  readonly appId: string;
  readonly version: string;
  /** The file's sha512, base64 (as electron-builder writes it in latest*.yml). */
  readonly sha512: string;
}

const APP_ID = /^[A-Za-z0-9.-]{1,200}$/;
const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const SHA512 = /^[A-Za-z0-9+/]{86}==$/;
const SIGNATURE = /^[A-Za-z0-9+/]{86}==$/;

/** The exact bytes signed. Each field is checked, so no value can carry a line of another. */
export function updateStatement(facts: SignedFacts): Buffer {
  if (!APP_ID.test(facts.appId)) throw new Error(`not an app id: ${JSON.stringify(facts.appId)}`);
  if (!VERSION.test(facts.version)) throw new Error(`not a version: ${JSON.stringify(facts.version)}`);
  if (!SHA512.test(facts.sha512)) throw new Error(`not a base64 sha512: ${JSON.stringify(facts.sha512)}`);
  return Buffer.from(`Marketplace Desk update\napp: ${facts.appId}\nversion: ${facts.version}\nsha512: ${facts.sha512}\n`, 'utf8');
}

/** The `.sig` file's text for these facts. */
export function signUpdate(facts: SignedFacts, privateKeyPem: string): string {
  const key = createPrivateKey(privateKeyPem);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`the signing key is ${key.asymmetricKeyType ?? 'not an asymmetric key'}, not Ed25519`);
  return `${sign(null, updateStatement(facts), key).toString('base64')}\n`;
}

export type SignatureCheck =
  | { readonly ok: true; readonly keyId: string }
  | { readonly ok: false; readonly problem: 'malformed' | 'mismatch' };

/** Whether `signatureText` (a `.sig` file) signs these facts with one of the pinned keys. */
export function checkUpdateSignature(facts: SignedFacts, signatureText: string, publicKeys: readonly string[]): SignatureCheck {
  const text = signatureText.trim();
  if (!SIGNATURE.test(text)) return { ok: false, problem: 'malformed' };
  const statement = updateStatement(facts);
  const signature = Buffer.from(text, 'base64');
  for (const pem of publicKeys) {
    const key = createPublicKey(pem);
    if (key.asymmetricKeyType === 'ed25519' && verify(null, statement, key, signature)) return { ok: true, keyId: keyId(key) };
  }
  return { ok: false, problem: 'mismatch' };
}

/** A short name for a public key (its SPKI's sha256, 16 hex digits): said in logs and docs/releasing.md, never secret. */
export function keyId(key: KeyObject | string): string {
  const object = typeof key === 'string' ? createPublicKey(key) : key;
  return createHash('sha256').update(object.export({ type: 'spki', format: 'der' })).digest('hex').slice(0, 16);
}

/** The public half of a private key, as PEM (what update-trust.ts pins). */
export function publicKeyOf(privateKeyPem: string): string {
  return createPublicKey(createPrivateKey(privateKeyPem)).export({ type: 'spki', format: 'pem' }).toString();
}

/** A new key pair, both halves as PEM. */
export function generateSigningKey(): { privateKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** A file's sha512 in base64, read as a stream (installers are large). */
export async function fileSha512(path: string): Promise<string> {
  const hash = createHash('sha512');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('base64');
}
