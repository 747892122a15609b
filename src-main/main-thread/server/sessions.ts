import { randomBytes } from 'node:crypto';
import type { Clock } from '../../core/clock.ts';

/**
 * Browser sessions, kept in memory only: a restart signs everyone out, so a
 * cookie stolen from a disk or a backup is worth nothing. Each session has
 * its own CSRF token, which every state-changing request and the socket's
 * handshake must carry. A session ends at sign-out, after a day unused or a
 * week in all, and every session ends when the password changes.
 */

export interface Session {
  /** The cookie's value. */
  readonly id: string;
  readonly csrf: string;
  readonly address: string;
  readonly startedAt: number;
  seenAt: number;
}

export interface SessionLimits {
  readonly idleMs: number;
  readonly maxAgeMs: number;
}
export const SESSION_LIMITS: SessionLimits = { idleMs: 24 * 3_600_000, maxAgeMs: 7 * 24 * 3_600_000 };

export interface Sessions {
  /** A new session (a login, or the setup that set the password). */
  start(address: string): Session;
  /** The live session this cookie value names, or null; finding one counts as use. */
  find(id: string | undefined): Session | null;
  end(id: string): void;
  endAll(): void;
  /** Told of each session that ends (its sockets close). */
  onEnd(listener: (id: string) => void): void;
  count(): number;
}

const newToken = () => randomBytes(32).toString('base64url');

export function createSessions(clock: Pick<Clock, 'monotonic'>, limits: SessionLimits = SESSION_LIMITS): Sessions {
  const live = new Map<string, Session>();
  const listeners: Array<(id: string) => void> = [];
  const end = (id: string) => {
    if (!live.delete(id)) return;
    for (const listener of listeners) listener(id);
  };
  return {
    start(address) {
      const now = clock.monotonic();
      const session: Session = { id: newToken(), csrf: newToken(), address, startedAt: now, seenAt: now };
      live.set(session.id, session);
      return session;
    },
    find(id) {
      if (id === undefined) return null;
      const session = live.get(id);
      if (!session) return null;
      const now = clock.monotonic();
      if (now - session.seenAt > limits.idleMs || now - session.startedAt > limits.maxAgeMs) {
        end(id);
        return null;
      }
      session.seenAt = now;
      return session;
    },
    end,
    endAll() {
      for (const id of [...live.keys()]) end(id);
    },
    onEnd(listener) {
      listeners.push(listener);
    },
    count: () => live.size,
  };
}
