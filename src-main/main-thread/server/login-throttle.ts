import type { Clock } from '../../core/clock.ts';

/**
 * Failed sign-ins, counted per client address (qBittorrent's WebUI bans an
 * address after a number of failures; Transmission locks out after a hundred
 * in all, which locks the owner out too: so here one address's guesses never
 * stop another's correct password). Ten failures within fifteen minutes ban
 * the address for a minute; each ban after that is twice the last, up to a
 * day, and the count wears off after a day without a failure. Durations are
 * on the monotonic clock.
 */

export interface ThrottleRules {
  readonly maxFailures: number;
  readonly windowMs: number;
  readonly firstBanMs: number;
  readonly maxBanMs: number;
  /** Quiet time after which an address's record is forgotten (its bans no longer grow). */
  readonly forgetAfterMs: number;
  /** Addresses tracked at most (the oldest forgotten first), so a flood of addresses cannot fill memory. */
  readonly maxAddresses: number;
}

export const THROTTLE_RULES: ThrottleRules = {
  maxFailures: 10,
  windowMs: 15 * 60_000,
  firstBanMs: 60_000,
  maxBanMs: 24 * 3_600_000,
  forgetAfterMs: 24 * 3_600_000,
  maxAddresses: 10_000,
};

export type ThrottleState = { readonly banned: false } | { readonly banned: true; readonly retryAfterMs: number };

interface Record {
  failures: number[];
  bans: number;
  bannedUntil: number;
  lastFailure: number;
}

export interface LoginThrottle {
  check(address: string): ThrottleState;
  /** Counts a failure; the state after it (banned when this one reached the limit). */
  failed(address: string): ThrottleState;
  succeeded(address: string): void;
}

export function createLoginThrottle(clock: Pick<Clock, 'monotonic'>, rules: ThrottleRules = THROTTLE_RULES): LoginThrottle {
  const records = new Map<string, Record>();

  function current(address: string): Record | null {
    const record = records.get(address);
    if (!record) return null;
    if (clock.monotonic() - record.lastFailure > rules.forgetAfterMs && record.bannedUntil <= clock.monotonic()) {
      records.delete(address);
      return null;
    }
    return record;
  }

  function check(address: string): ThrottleState {
    const record = current(address);
    const left = record ? record.bannedUntil - clock.monotonic() : 0;
    return left > 0 ? { banned: true, retryAfterMs: left } : { banned: false };
  }

  return {
    check,
    failed(address) {
      const now = clock.monotonic();
      let record = current(address);
      if (!record) {
        if (records.size >= rules.maxAddresses) records.delete(records.keys().next().value as string);
        record = { failures: [], bans: 0, bannedUntil: 0, lastFailure: now };
      }
      // Re-inserted, so the map's order is the order of last failure.
      records.delete(address);
      records.set(address, record);
      record.lastFailure = now;
      record.failures = [...record.failures.filter((t) => now - t <= rules.windowMs), now];
      if (record.failures.length >= rules.maxFailures) {
        record.bannedUntil = now + Math.min(rules.firstBanMs * 2 ** record.bans, rules.maxBanMs);
        record.bans += 1;
        record.failures = [];
      }
      return check(address);
    },
    succeeded(address) {
      const record = records.get(address);
      if (record) record.failures = [];
    },
  };
}
