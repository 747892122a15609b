import { existsSync, readFileSync, rmSync, statSync, type Stats } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import type { KeychainState, SecretStore } from '../../core/secrets.ts';
import { writePrivateFile } from './private-file.ts';

/**
 * Where the server keeps the API key, chosen once at start, in this order:
 *
 * 1. systemd's credentials (`LoadCredential=api-key:…` in the unit: the file
 *    appears in `$CREDENTIALS_DIRECTORY`, readable by the service alone).
 *    The key is the administrator's to change there; Settings cannot.
 * 2. A key file in the profile folder, when there is one.
 * 3. The OS keychain, where a Secret Service answers (as the desktop app).
 * 4. A new key file in the profile folder, written with mode 0600.
 *
 * A key file must belong to the user running the desk and be readable by
 * that user alone; otherwise it is refused, as ssh refuses a private key,
 * with a sentence that says how to fix it.
 */

export type KeySource = 'credentials' | 'key-file' | 'keychain';

/** The systemd credential's name, as `LoadCredential=` gives it. */
export const KEY_CREDENTIAL = 'api-key';

export interface ServerKeyStore {
  readonly source: KeySource;
  /** Where the key is, in words for the log and Settings (never the key). */
  readonly where: string;
  readonly secrets: SecretStore;
}

export interface ServerKeyStoreOptions {
  /** The key file of the default profile (others get `.<profile>` after it). */
  readonly keyFile: string;
  /** `$CREDENTIALS_DIRECTORY`, when systemd set it. */
  readonly credentialsDir?: string | undefined;
  readonly keychain: SecretStore;
}

/** A key file the desk will not use, and why, in words that say how to fix it. */
export class KeyFileError extends Error {
  override readonly name = 'KeyFileError';
}

export async function chooseKeyStore(options: ServerKeyStoreOptions): Promise<ServerKeyStore> {
  const credential = options.credentialsDir ? join(options.credentialsDir, KEY_CREDENTIAL) : null;
  if (credential && existsSync(credential)) {
    checkKeyFile(credential);
    // The desk's other secrets (a webhook's URL and signing key) are the trader's to set from the desk: the keychain, else private files.
    const others = keychainElseFiles(options.keychain, options.keyFile);
    return { source: 'credentials', where: `systemd's credential ${KEY_CREDENTIAL} (${credential})`, secrets: credentialStore(credential, others) };
  }
  if (existsSync(options.keyFile)) {
    checkKeyFile(options.keyFile);
    return { source: 'key-file', where: `the key file ${options.keyFile}, readable by the desk's user alone`, secrets: keyFileStore(options.keyFile) };
  }
  if ((await options.keychain.state()) === 'available') return { source: 'keychain', where: 'the system keychain', secrets: options.keychain };
  return { source: 'key-file', where: `the key file ${options.keyFile}, readable by the desk's user alone (no system keychain answers)`, secrets: keyFileStore(options.keyFile) };
}

/** What the check reads of the file and of the process (tests pass their own). */
export interface KeyFileFacts {
  stat(path: string): Pick<Stats, 'uid' | 'mode' | 'isFile'>;
  uid(): number | undefined;
  user(): string;
}
const SYSTEM: KeyFileFacts = { stat: statSync, uid: () => process.getuid?.(), user: () => userInfo().username };

/**
 * Refuses a key file another user could read or replace: it must be the
 * running user's own, with no permission for group or others.
 */
export function checkKeyFile(path: string, facts: KeyFileFacts = SYSTEM): void {
  if (process.platform === 'win32') return;
  const info = facts.stat(path);
  if (!info.isFile()) throw new KeyFileError(`The key file ${path} is not a file; the desk will not use it. Put the API key alone in a file there.`);
  const uid = facts.uid();
  if (uid !== undefined && info.uid !== uid) {
    const user = facts.user();
    throw new KeyFileError(
      `The key file ${path} belongs to user ID ${info.uid}, not to ${user} who runs the desk; the desk will not use a key another user controls. `
      + `Run: chown ${user} ${path}`,
    );
  }
  const mode = info.mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new KeyFileError(
      `The key file ${path} has mode ${mode.toString(8).padStart(4, '0')}: other users can read it, so the desk will not use it. Run: chmod 600 ${path}`,
    );
  }
}

function readKey(path: string): string | null {
  checkKeyFile(path);
  const key = readFileSync(path, 'utf8').split(/\r?\n/)[0]?.trim() ?? '';
  return key === '' ? null : key;
}

/** The file of `account` (the key service's `api-key:<profile>`): the default profile's is `keyFile` itself. */
function fileOf(keyFile: string, account: string): string {
  const profile = account.replace(/^api-key:/, '');
  return profile === 'default' ? keyFile : `${keyFile}.${profile.replace(/[^\w.-]/g, '_')}`;
}

function keyFileStore(keyFile: string): SecretStore {
  return {
    state: async (): Promise<KeychainState> => 'available',
    async get(account) {
      const path = fileOf(keyFile, account);
      return existsSync(path) ? readKey(path) : null;
    },
    async set(account, secret) {
      if (secret === '') throw new KeyFileError('Refusing to store an empty key.');
      writePrivateFile(fileOf(keyFile, account), `${secret}\n`);
    },
    async delete(account) {
      const path = fileOf(keyFile, account);
      if (!existsSync(path)) return false;
      rmSync(path);
      return true;
    },
  };
}

/**
 * The keychain where one answers, else private files, asked when the first
 * such secret is used rather than at start: asking loads the keychain's
 * native library and its threads (a few megabytes, and milliseconds of the
 * start), which a server whose key is a credential most often never needs.
 */
function keychainElseFiles(keychain: SecretStore, keyFile: string): SecretStore {
  let chosen: Promise<SecretStore> | undefined;
  const store = () => (chosen ??= keychain.state().then((state) => (state === 'available' ? keychain : keyFileStore(keyFile))));
  return {
    state: async () => (await store()).state(),
    get: async (account) => (await store()).get(account),
    set: async (account, secret) => (await store()).set(account, secret),
    delete: async (account) => (await store()).delete(account),
  };
}

/** The API key from systemd's credential, read-only; every other secret kept by `others`. */
function credentialStore(path: string, others: SecretStore): SecretStore {
  const readOnly = () => new KeyFileError(
    `The API key comes from systemd's credential ${KEY_CREDENTIAL} (LoadCredential= in the service's unit): `
    + 'change the file it names and restart the service; the desk cannot change it from here.',
  );
  const isKey = (account: string) => account.startsWith('api-key:');
  return {
    state: async (): Promise<KeychainState> => 'available',
    get: async (account) => (!isKey(account) ? others.get(account) : fileOf('credential', account) === 'credential' ? readKey(path) : null),
    set: async (account, secret) => {
      if (!isKey(account)) return others.set(account, secret);
      throw readOnly();
    },
    delete: async (account) => {
      if (!isKey(account)) return others.delete(account);
      throw readOnly();
    },
  };
}
