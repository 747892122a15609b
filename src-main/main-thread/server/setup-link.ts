import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../core/clock.ts';

/**
 * The one-time setup link a first start prints to the log: whoever can read
 * the server's log may set the password, once, within fifteen minutes (on
 * the monotonic clock). The token travels in the link's fragment, so it
 * reaches no proxy's or server's access log; the setup page posts it.
 */

export const SETUP_LINK_TTL_MS = 15 * 60_000;

export interface SetupLink {
  /** The token to print (a new one each start). */
  readonly token: string;
  /** Whether `token` is this link's, unused and not expired. */
  accepts(token: string): 'ok' | 'expired' | 'used' | 'wrong';
  /** Spends the link: it never works again. */
  use(): void;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

export function issueSetupLink(clock: Pick<Clock, 'monotonic'>, ttlMs = SETUP_LINK_TTL_MS): SetupLink {
  const token = randomBytes(24).toString('base64url');
  const expected = digest(token);
  const issuedAt = clock.monotonic();
  let used = false;
  return {
    token,
    accepts(candidate) {
      if (!timingSafeEqual(digest(candidate), expected)) return 'wrong';
      if (used) return 'used';
      return clock.monotonic() - issuedAt > ttlMs ? 'expired' : 'ok';
    },
    use() {
      used = true;
    },
  };
}
