/**
 * Where the API key lives: the operating system's keychain, never a file the
 * app writes. Core code asks this port for a secret by account (one per
 * profile) and does not know which keychain answers; the desktop layer
 * supplies the keytar-backed implementation, tests a real Secret Service.
 */
export interface SecretStore {
  /** The stored secret, or null when none is stored for this account. */
  get(account: string): Promise<string | null>;
  /** Stores or replaces the secret for this account. */
  set(account: string, secret: string): Promise<void>;
  /** Removes the secret; true when one was there. */
  delete(account: string): Promise<boolean>;
  /**
   * Whether a keychain answers at all (on Linux, a Secret Service on the
   * session bus). When false the app says so and stores the key nowhere else.
   */
  available(): Promise<boolean>;
}
