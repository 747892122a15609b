import type { KeychainState, SecretStore } from '../core/secrets.ts';

/**
 * The SecretStore backed by the operating system's keychain through keytar:
 * Keychain on macOS, Credential Vault on Windows, the Secret Service
 * (GNOME Keyring, KWallet) on Linux. One keychain entry per profile, under
 * the app's service name.
 *
 * Both shells use it (the server where a Secret Service answers), so it
 * imports no Electron, and a plain Node test drives it against a real
 * Secret Service. keytar is loaded on first use: a missing native
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
  /** How long any keychain call waits for an answer. Default 5 s. */
  readonly probeTimeoutMs?: number;
}

/** A keychain failure, in words that never carry the secret. */
export class KeychainError extends Error {
  override readonly name = 'KeychainError';
}

/**
 * The entry `state()` reads, and writes once when it is absent: a locked
 * collection reads every entry as absent, so only a write tells "locked"
 * from "nothing stored yet". It holds no secret.
 */
const PROBE_ACCOUNT = '__availability_probe__';
const PROBE_VALUE = 'Marketplace Desk checks here that the keychain is unlocked; this is not a secret.';

const TIMED_OUT = Symbol('timed out');

export function createKeychainSecretStore(options: KeychainOptions = {}): SecretStore {
  const service = options.service ?? KEYCHAIN_SERVICE;
  const probeTimeoutMs = options.probeTimeoutMs ?? 5_000;
  let loaded: Promise<KeytarApi> | undefined;
  const keytar = (): Promise<KeytarApi> => {
    const source = options.keytar ?? loadKeytar;
    loaded ??= typeof source === 'function' ? source() : Promise.resolve(source);
    return loaded;
  };

  /** `op`'s answer, or TIMED_OUT when the keychain does not answer in time (a stuck service, an unlock prompt left open). */
  const answer = async <T>(op: (k: KeytarApi) => Promise<T>): Promise<T | typeof TIMED_OUT> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), probeTimeoutMs);
      timer.unref?.();
    });
    try {
      return await Promise.race([keytar().then(op), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };

  const run = async <T>(what: string, account: string, op: (k: KeytarApi) => Promise<T>): Promise<T> => {
    checkAccount(account);
    try {
      await keytar();
    } catch (error) {
      throw new KeychainError(`The system keychain cannot be used: ${reason(error)}`);
    }
    let result: T | typeof TIMED_OUT;
    try {
      result = await answer(op);
    } catch (error) {
      // keytar's messages come from the OS keychain and name no secret.
      throw new KeychainError(`The system keychain could not ${what}: ${reason(error)}`);
    }
    if (result === TIMED_OUT) throw new KeychainError(`The system keychain could not ${what}: it did not answer within ${probeTimeoutMs / 1000} s`);
    return result;
  };

  return {
    get: (account) => run('read the key', account, (k) => k.getPassword(service, account)),
    set: (account, secret) => {
      if (secret === '') return Promise.reject(new KeychainError('Refusing to store an empty key.'));
      return run('store the key', account, (k) => k.setPassword(service, account, secret));
    },
    delete: (account) => run('remove the key', account, (k) => k.deletePassword(service, account)),
    async state(): Promise<KeychainState> {
      // A Linux session without a Secret Service fails here ("Cannot autolaunch
      // D-Bus", "The name org.freedesktop.secrets was not provided"); a stuck
      // one is caught by the timeout.
      const read = await answer((k) => k.getPassword(service, PROBE_ACCOUNT)).catch(() => TIMED_OUT);
      if (read === TIMED_OUT) return 'missing';
      if (read !== null) return 'available';
      // Absent: never written, or hidden by a locked collection. A locked one
      // refuses the write ("Cannot create an item in a locked collection") or
      // holds it behind an unlock prompt until the timeout.
      const wrote = await answer((k) => k.setPassword(service, PROBE_ACCOUNT, PROBE_VALUE)).then((r) => r !== TIMED_OUT, () => false);
      return wrote ? 'available' : 'locked';
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
