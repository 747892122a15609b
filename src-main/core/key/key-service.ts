import { z } from 'zod';
import type { keyStatusSchema } from '../../../src-shared/settings.ts';
import type { KeychainState, SecretStore } from '../secrets.ts';
import { createEmitter, type Unsubscribe } from '../events.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

export { keyStatusSchema } from '../../../src-shared/settings.ts';
export type KeyStatus = z.infer<typeof keyStatusSchema>;

/** Keys are printable ASCII without spaces; anything else is a paste gone wrong. */
const apiKeyInput = lazySchema(() => z
  .string()
  .trim()
  .min(8, { error: 'is too short to be an API key' })
  .max(256, { error: 'is too long to be an API key' })
  .regex(/^[\x21-\x7e]+$/, { error: 'must not contain spaces or unusual characters' }));

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
  on<E extends keyof KeyEvents>(event: E, listener: (payload: KeyEvents[E]) => void): Unsubscribe;
}

export type KeyEvents = {
  /** Every change of what the status says. */
  status: KeyStatus;
  /** A different key (or none) took the place of the one before. */
  replaced: undefined;
};

/** Why a keychain that is not `available` cannot take the change, and what the trader can do. */
function keychainProblem(keychain: Exclude<KeychainState, 'available'>, change: 'stored' | 'removed'): string {
  if (keychain === 'missing') {
    return `No system keychain is available (on Linux: no Secret Service such as gnome-keyring is running), so the key was not ${change}.`;
  }
  return (
    `The system keychain is locked, so the key was not ${change}. Unlock it (on Linux: the Login keyring in Passwords and Keys, ` +
    'or log out and in again; on macOS: the login keychain in Keychain Access) and try again.'
  );
}

/**
 * The API key lives in the OS keychain under one account per profile. When no
 * keychain answers, or its collection is locked, setting a key fails plainly
 * (`keychain_unavailable`, saying why and how to unlock): it is never written
 * anywhere weaker.
 */
export function createKeyService(deps: { secrets: SecretStore; profile: string }): KeyService {
  const account = `api-key:${deps.profile}`;
  const events = createEmitter<KeyEvents>();
  let verdict: 'unverified' | 'valid' | 'rejected' = 'unverified';

  async function status(): Promise<KeyStatus> {
    const keychain = await deps.secrets.state();
    const key = keychain === 'available' ? await deps.secrets.get(account) : null;
    return {
      set: key !== null,
      last4: key === null ? null : key.slice(-4),
      state: key === null ? 'none' : verdict,
      keychainAvailable: keychain === 'available',
      ...(keychain === 'available' ? {} : { keychainProblem: keychain }),
    };
  }

  /**
   * Runs a keychain change: refused up front when the keychain cannot take
   * it, and a failure on the way (locked since the check) worded the same.
   */
  async function change<T>(what: 'stored' | 'removed', op: () => Promise<T>): Promise<T> {
    const before = await deps.secrets.state();
    if (before !== 'available') throw new KeyError('keychain_unavailable', keychainProblem(before, what));
    try {
      return await op();
    } catch (error) {
      const now = await deps.secrets.state().catch((): KeychainState => 'missing');
      const why = error instanceof Error ? error.message : String(error);
      throw new KeyError('keychain_unavailable', now === 'available' ? why : `${keychainProblem(now, what)} (${why})`);
    }
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
      const before = await change('stored', async () => {
        const previous = await deps.secrets.get(account);
        await deps.secrets.set(account, parsed.data);
        return previous;
      });
      // The same key saved again is no new key: the service's count and verdict stand.
      if (before === parsed.data) return publish();
      verdict = 'unverified';
      events.emit('replaced', undefined);
      return publish();
    },
    async remove() {
      // Without any keychain there is no key to remove; a locked one keeps it, so say so.
      if ((await deps.secrets.state()) !== 'missing') await change('removed', () => deps.secrets.delete(account));
      verdict = 'unverified';
      events.emit('replaced', undefined);
      return publish();
    },
    async read() {
      if ((await deps.secrets.state()) !== 'available') return null;
      return deps.secrets.get(account);
    },
    noteRejected: () => setVerdict('rejected'),
    noteAccepted: () => setVerdict('valid'),
    on: (event, listener) => events.on(event, listener),
  };
}
