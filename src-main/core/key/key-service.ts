import { z } from 'zod';
import type { keyStatusSchema } from '../../../src-shared/settings.ts';
import type { SecretStore } from '../secrets.ts';
import { createEmitter, type Unsubscribe } from '../events.ts';

export { keyStatusSchema } from '../../../src-shared/settings.ts';
export type KeyStatus = z.infer<typeof keyStatusSchema>;

/** Keys are printable ASCII without spaces; anything else is a paste gone wrong. */
const apiKeyInput = z
  .string()
  .trim()
  .min(8, { error: 'is too short to be an API key' })
  .max(256, { error: 'is too long to be an API key' })
  .regex(/^[\x21-\x7e]+$/, { error: 'must not contain spaces or unusual characters' });

export class KeyError extends Error {
  override readonly name = 'KeyError';
  readonly kind: 'invalid' | 'keychain_unavailable';
  constructor(kind: 'invalid' | 'keychain_unavailable', message: string) {
    super(message);
    this.kind = kind;
  }
}

export interface KeyService {
  status(): Promise<KeyStatus>;
  set(key: string): Promise<KeyStatus>;
  remove(): Promise<KeyStatus>;
  /** The key for the client, read from the keychain at each call and never kept. */
  read(): Promise<string | null>;
  /** The service answered 401 with this key. */
  noteRejected(): void;
  /** The service answered an authenticated request. */
  noteAccepted(): void;
  on(event: 'status', listener: (status: KeyStatus) => void): Unsubscribe;
}

/**
 * The API key lives in the OS keychain under one account per profile. When no
 * keychain answers, setting a key fails plainly: it is never written anywhere
 * weaker.
 */
export function createKeyService(deps: { secrets: SecretStore; profile: string }): KeyService {
  const account = `api-key:${deps.profile}`;
  const events = createEmitter<{ status: KeyStatus }>();
  let verdict: 'unverified' | 'valid' | 'rejected' = 'unverified';

  async function status(): Promise<KeyStatus> {
    const available = await deps.secrets.available();
    const key = available ? await deps.secrets.get(account) : null;
    return {
      set: key !== null,
      last4: key === null ? null : key.slice(-4),
      state: key === null ? 'none' : verdict,
      keychainAvailable: available,
    };
  }

  async function publish(): Promise<KeyStatus> {
    const current = await status();
    events.emit('status', current);
    return current;
  }

  function setVerdict(next: typeof verdict): void {
    if (verdict === next) return;
    verdict = next;
    void publish().catch(() => undefined);
  }

  return {
    status,
    async set(key) {
      const parsed = apiKeyInput.safeParse(key);
      if (!parsed.success) {
        throw new KeyError('invalid', `The API key ${parsed.error.issues[0]?.message ?? 'is not valid'}.`);
      }
      if (!(await deps.secrets.available())) {
        throw new KeyError(
          'keychain_unavailable',
          'No system keychain is available (on Linux: no Secret Service such as gnome-keyring is running), so the key was not stored.',
        );
      }
      await deps.secrets.set(account, parsed.data);
      verdict = 'unverified';
      return publish();
    },
    async remove() {
      if (await deps.secrets.available()) await deps.secrets.delete(account);
      verdict = 'unverified';
      return publish();
    },
    async read() {
      if (!(await deps.secrets.available())) return null;
      return deps.secrets.get(account);
    },
    noteRejected: () => setVerdict('rejected'),
    noteAccepted: () => setVerdict('valid'),
    on: (event, listener) => events.on(event, listener),
  };
}
