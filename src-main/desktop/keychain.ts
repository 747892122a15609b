import type { SecretStore } from '../core/secrets.ts';

/**
 * The SecretStore backed by the operating system's keychain through keytar:
 * Keychain on macOS, Credential Vault on Windows, the Secret Service
 * (GNOME Keyring, KWallet) on Linux. One keychain entry per profile, under
 * the app's service name.
 *
 * This file does not import electron, so a plain Node test drives it against
 * a real Secret Service. keytar is loaded on first use: a missing native
 * module makes the store unavailable rather than stopping the app.
 */

/** The keychain's "service": what the trader sees the entries listed under. */
export const KEYCHAIN_SERVICE = 'Marketplace Desk';

/** The part of keytar this store uses. */
export interface KeytarApi {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export interface KeychainOptions {
  /** Default KEYCHAIN_SERVICE; tests use a unique one. */
  readonly service?: string;
  /** Default: the keytar module, loaded on first use. */
  readonly keytar?: KeytarApi | (() => Promise<KeytarApi>);
  /** How long `available()` waits for the keychain to answer. Default 5 s. */
  readonly probeTimeoutMs?: number;
}

/** A keychain failure, in words that never carry the secret. */
export class KeychainError extends Error {
  override readonly name = 'KeychainError';
}

/** The account name `available()` reads; never written. */
const PROBE_ACCOUNT = '__availability_probe__';

export function createKeychainSecretStore(options: KeychainOptions = {}): SecretStore {
  const service = options.service ?? KEYCHAIN_SERVICE;
  const probeTimeoutMs = options.probeTimeoutMs ?? 5_000;
  let loaded: Promise<KeytarApi> | undefined;
  const keytar = (): Promise<KeytarApi> => {
    const source = options.keytar ?? loadKeytar;
    loaded ??= typeof source === 'function' ? source() : Promise.resolve(source);
    return loaded;
  };

  const run = async <T>(what: string, account: string, op: (k: KeytarApi) => Promise<T>): Promise<T> => {
    checkAccount(account);
    let api: KeytarApi;
    try {
      api = await keytar();
    } catch (error) {
      throw new KeychainError(`The system keychain cannot be used: ${reason(error)}`);
    }
    try {
      return await op(api);
    } catch (error) {
      // keytar's messages come from the OS keychain and name no secret.
      throw new KeychainError(`The system keychain could not ${what}: ${reason(error)}`);
    }
  };

  return {
    get: (account) => run('read the key', account, (k) => k.getPassword(service, account)),
    set: (account, secret) => {
      if (secret === '') return Promise.reject(new KeychainError('Refusing to store an empty key.'));
      return run('store the key', account, (k) => k.setPassword(service, account, secret));
    },
    delete: (account) => run('remove the key', account, (k) => k.deletePassword(service, account)),
    async available() {
      // A Linux session without a Secret Service fails here ("Cannot autolaunch
      // D-Bus", "The name org.freedesktop.secrets was not provided"); a stuck
      // one is caught by the timeout.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), probeTimeoutMs);
        timer.unref?.();
      });
      const probe = keytar()
        .then((k) => k.getPassword(service, PROBE_ACCOUNT))
        .then(() => true, () => false);
      try {
        return await Promise.race([probe, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

async function loadKeytar(): Promise<KeytarApi> {
  const mod = (await import('keytar')) as KeytarApi & { default?: KeytarApi };
  return mod.default ?? mod;
}

function checkAccount(account: string): void {
  if (account.trim() === '') throw new KeychainError('A keychain entry needs a profile name.');
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
