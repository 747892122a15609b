import type { SecretStore } from '../secrets.ts';

/**
 * A webhook's URL (it carries the receiver's token) and its signing secret
 * are kept as the API key is: in the system keychain, each under an account
 * of its own, read when an alert is sent and never kept by the desk.
 */
export interface WebhookSecrets {
  readonly url: string;
  /** The HMAC key of a signed webhook; null for Discord's. */
  readonly secret: string | null;
}

export const webhookAccounts = (profile: string, id: string) => ({
  url: `webhook:${profile}:${id}`,
  secret: `webhook-secret:${profile}:${id}`,
});

export interface WebhookSecretStore {
  /** Null when the keychain holds no URL for it (removed, or the keychain is locked). */
  read(id: string): Promise<WebhookSecrets | null>;
  store(id: string, secrets: WebhookSecrets): Promise<void>;
  remove(id: string): Promise<void>;
}

export function createWebhookSecretStore(keychain: SecretStore, profile: string): WebhookSecretStore {
  return {
    async read(id) {
      const accounts = webhookAccounts(profile, id);
      const url = await keychain.get(accounts.url);
      if (url === null) return null;
      return { url, secret: await keychain.get(accounts.secret) };
    },
    async store(id, secrets) {
      const accounts = webhookAccounts(profile, id);
      await keychain.set(accounts.url, secrets.url);
      if (secrets.secret !== null) await keychain.set(accounts.secret, secrets.secret);
    },
    async remove(id) {
      const accounts = webhookAccounts(profile, id);
      await keychain.delete(accounts.url);
      await keychain.delete(accounts.secret);
    },
  };
}
