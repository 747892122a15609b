/**
 * Signs a release's files for the app's update check:
 *
 *   npm run sign:update -- <folder>   writes <file>.sig beside every installer and
 *                                     update file in <folder>, with the Ed25519
 *                                     private key (PEM) in UPDATE_SIGNING_KEY
 *   npm run sign:update -- --new-key  prints a new key pair: the private key for
 *                                     the UPDATE_SIGNING_KEY secret, the public key
 *                                     for src-main/core/shell/update-trust.ts
 *
 * The folder holds what `npm run dist` made on each system (release/): the
 * installers and the latest*.yml feed files naming the update files with
 * their sha512. Every signature is over the app id, the release's version
 * and the file's sha512 (src-main/core/shell/update-signature.ts, the same
 * code the app verifies with). It refuses, before writing anything, a key
 * whose public half the app does not pin (the app would refuse every file),
 * a feed file of another version, and one that names a file that is missing
 * or whose sha512 differs.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_ID } from '../src-main/core/shell/app-identity.ts';
import { checkUpdateSignature, fileSha512, generateSigningKey, keyId, publicKeyOf, SIGNATURE_SUFFIX, signUpdate } from '../src-main/core/shell/update-signature.ts';
import { UPDATE_PUBLIC_KEYS } from '../src-main/core/shell/update-trust.ts';

/** What an installer or an update file is called (not the feed files, block maps or signatures). */
const SIGNED = /\.(exe|dmg|zip|AppImage|deb|rpm|pkg|snap)$/;

export interface SignOptions {
  readonly privateKey: string;
  readonly version: string;
  readonly pinnedKeys?: readonly string[];
  readonly appId?: string;
}

/** The files named in a latest*.yml and their sha512, and its version (the feed format is electron-builder's, a few flat keys). */
export function readFeedFile(text: string): { version: string | null; files: Map<string, string> } {
  const version = /^version: *['"]?([^'"\s]+)['"]? *$/m.exec(text)?.[1] ?? null;
  const files = new Map<string, string>();
  for (const m of text.matchAll(/^ *- url: *['"]?([^'"\n]+?)['"]? *\n *sha512: *['"]?([A-Za-z0-9+/=]+)['"]? *$/gm)) files.set(m[1] as string, m[2] as string);
  return { version, files };
}

/** Signs every installer and update file in `dir`; returns the signed file names. */
export async function signReleaseFolder(dir: string, options: SignOptions): Promise<string[]> {
  const pinned = options.pinnedKeys ?? UPDATE_PUBLIC_KEYS;
  const appId = options.appId ?? APP_ID;
  const id = keyId(publicKeyOf(options.privateKey));
  if (!pinned.some((pem) => keyId(pem) === id)) {
    throw new Error(`the signing key (id ${id}) is not pinned in src-main/core/shell/update-trust.ts (pinned: ${pinned.map((p) => keyId(p)).join(', ') || 'none'}): the app would refuse every file`);
  }
  const names = readdirSync(dir).filter((n) => statSync(join(dir, n)).isFile()).sort();
  const sha512 = new Map<string, string>();
  for (const name of names.filter((n) => SIGNED.test(n))) sha512.set(name, await fileSha512(join(dir, name)));
  if (sha512.size === 0) throw new Error(`no installer or update file in ${dir}`);

  for (const feedFile of names.filter((n) => /^latest.*\.ya?ml$/.test(n))) {
    const feed = readFeedFile(readFileSync(join(dir, feedFile), 'utf8'));
    if (feed.version !== options.version) throw new Error(`${feedFile} is for version ${feed.version}, not ${options.version}`);
    if (feed.files.size === 0) throw new Error(`${feedFile} names no file`);
    for (const [url, expected] of feed.files) {
      const actual = sha512.get(url);
      if (actual === undefined) throw new Error(`${feedFile} names ${url}, which is not in ${dir} (or is not an installer)`);
      if (actual !== expected) throw new Error(`${feedFile} gives ${url} the sha512 ${expected}, but the file's is ${actual}`);
    }
  }

  for (const [name, hash] of sha512) {
    const facts = { appId, version: options.version, sha512: hash };
    const signature = signUpdate(facts, options.privateKey);
    // What the app will do with it.
    if (!checkUpdateSignature(facts, signature, pinned).ok) throw new Error(`the signature of ${name} does not verify`);
    writeFileSync(join(dir, `${name}${SIGNATURE_SUFFIX}`), signature);
  }
  return [...sha512.keys()];
}

async function main(args: string[]): Promise<void> {
  if (args[0] === '--new-key') {
    const pair = generateSigningKey();
    process.stdout.write(`# Private key: the UPDATE_SIGNING_KEY secret (and an offline backup). Never commit it.\n${pair.privateKey}\n`);
    process.stdout.write(`# Public key (id ${keyId(pair.publicKey)}): add to UPDATE_PUBLIC_KEYS in src-main/core/shell/update-trust.ts.\n${pair.publicKey}`);
    return;
  }
  const dir = args[0];
  if (!dir || args.length !== 1) throw new Error('usage: sign-update.ts <release folder> | --new-key');
  const privateKey = process.env.UPDATE_SIGNING_KEY;
  if (!privateKey?.trim()) throw new Error('UPDATE_SIGNING_KEY is not set: the Ed25519 private key (PEM) that signs updates');
  const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version: string };
  const signed = await signReleaseFolder(dir, { privateKey, version });
  for (const name of signed) console.log(`signed ${name}${SIGNATURE_SUFFIX}`);
  console.log(`${signed.length} file(s) of version ${version} signed with key ${keyId(publicKeyOf(privateKey))}`);
}

if (import.meta.main) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(`sign-update: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
