import type { KeychainState, SecretStore } from '../../src-main/core/secrets.ts';

/**
 * A keychain held in memory, with a switch for "no Secret Service running"
 * (`false`) or another state (`'locked'`).
 * The real keychain (keytar over a Secret Service) has its own test; this one
 * serves tests whose subject is what the app does with the key.
 */
export function memoryKeychain(available: boolean | KeychainState = true): SecretStore & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  const state: KeychainState = available === true ? 'available' : available === false ? 'missing' : available;
  return {
    entries,
    state: async () => state,
    get: async (account) => entries.get(account) ?? null,
    set: async (account, secret) => void entries.set(account, secret),
    delete: async (account) => entries.delete(account),
  };
}
