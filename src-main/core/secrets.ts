/**
 * Where the API key lives: the operating system's keychain, never a file the
 * app writes. Core code asks this port for a secret by account (one per
 * profile) and does not know which keychain answers; the desktop layer
 * supplies the keytar-backed implementation, tests a real Secret Service.
 */
export interface SecretStore {
  /** The stored secret, or null when none is stored for this account (or the keychain hides it while locked). */
  get(account: string): Promise<string | null>;
  /** Stores or replaces the secret for this account. */
  set(account: string, secret: string): Promise<void>;
  /** Removes the secret; true when one was there. */
  delete(account: string): Promise<boolean>;
  /**
   * What the keychain can do now. When it is not `available` the app says
   * why and stores the key nowhere else.
   */
  state(): Promise<KeychainState>;
}

/**
 * - `available`: it answers and stores.
 * - `missing`: no keychain answers (on Linux: no Secret Service on the
 *   session bus, or one that does not answer).
 * - `locked`: it answers but will not store: its collection is locked (a
 *   locked collection also reads every entry as absent).
 */
export type KeychainState = 'available' | 'missing' | 'locked';
