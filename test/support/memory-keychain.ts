import type { SecretStore } from '../../src-main/core/secrets.ts';

/**
 * A keychain held in memory, with a switch for "no Secret Service running".
 * The real keychain (keytar over a Secret Service) has its own test; this one
 * serves tests whose subject is what the app does with the key.
 */
export function memoryKeychain(available = true): SecretStore & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    available: async () => available,
    get: async (account) => entries.get(account) ?? null,
    set: async (account, secret) => void entries.set(account, secret),
    delete: async (account) => entries.delete(account),
  };
}
