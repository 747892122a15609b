import type { RateLimitInfo } from '../api/client.ts';
import { ENDPOINTS, GLOBAL_LIMIT_PER_MINUTE, RATE_WINDOW_MS, type EndpointName } from '../api/endpoints.ts';
import type { Lane, RateScope } from './types.ts';

/**
 * The rate budget as the app sees it: which slots of each endpoint's window
 * and of the global window are taken, and until when.
 *
 * Accounting rule: a request holds a slot of its endpoint and of the global
 * window from the moment it is sent until its response arrived + 60 s. The
 * server stamped it somewhere in between, so however long the round trip, no
 * 60-s span on the server's side ever holds more requests than the limit,
 * whether the server counts in a sliding or a fixed window.
 *
 * Every time here (`now`, `at`, `until`) is an instant of the clock's
 * monotonic time: a slot is held for a duration, and a wall clock stepped
 * back must not hold it for hours, nor one stepped forward free it early.
 */

/**
 * Global slots each lane leaves free for the lanes above it: bulk work never
 * takes the last few, so the heartbeat (1/min) and the trade and balance polls
 * (≤ 3/min) always find room, and a click finds room beside a bulk job.
 */
export const LANE_GLOBAL_HEADROOM: Readonly<Record<Lane, number>> = {
  heartbeat: 0,
  poll: 1,
  interactive: 4,
  bulk: 8,
  background: 12,
};

/**
 * Slots of an endpoint's window a lane may fill. The background lane sends
 * on an endpoint only while no other request holds one of its slots: a
 * trader's apply that starts meanwhile finds one slot taken at most.
 */
const laneEndpointLimit = (lane: Lane, endpoint: EndpointName): number => (lane === 'background' ? 1 : limitOf(endpoint));

/** A taken slot. */
export interface Slot {
  /** The attempt ended at `at` (response or failure): the slot stays held until at + 60 s. */
  release(at: number): void;
  /** Nothing was sent: the slot is free again at once. */
  cancel(): void;
}

export interface RateBudget {
  /**
   * Earliest time (ms) a request on `endpoint` in `lane` may be sent, assuming
   * nothing else happens: ≤ now means now; Infinity means only a response of
   * a request in flight can free a slot.
   */
  openAt(endpoint: EndpointName, lane: Lane, now: number): number;
  /** Takes a slot of `endpoint` and of the global window. */
  acquire(endpoint: EndpointName, now: number): Slot;
  /** Tightens the view when the server counts more than we sent (another program on the key). */
  note(note: RateLimitInfo, now: number): void;
  /**
   * Nothing is sent in `scope` until `until` (a 429 met by `cause`). The
   * heartbeat lane heeds only the global pauses its own endpoint met: another
   * endpoint's 429 must never let the account's automated mark lapse, and a
   * beat that meets a real global limit pauses itself.
   */
  pause(scope: RateScope, until: number, cause: EndpointName): void;
  /** Takes `count` more slots of `scope` for one window without a request (a 429 we cannot place). */
  reserve(scope: RateScope, count: number, now: number): void;
  /** Slots left now in `scope` at its full limit (the lane headroom is not subtracted). */
  remaining(scope: RateScope, now: number): number;
  pauses(now: number): { scope: RateScope; until: number }[];
  /** For each slot in use, how long from now until it is free (in flight: one window). */
  busyOffsets(scope: RateScope, now: number): number[];
  /** Forgets every window and pause: the service counts per key, and the key changed. */
  forget(): void;
}

interface Hold {
  end: number;
}

export interface RateBudgetOptions {
  /** Added to every hold: absorbs rounding of timestamps between us and the server. */
  marginMs?: number;
}

export function limitOf(scope: RateScope): number {
  return scope === 'global' ? GLOBAL_LIMIT_PER_MINUTE : ENDPOINTS[scope].perMinute;
}

export function createRateBudget(options: RateBudgetOptions = {}): RateBudget {
  const marginMs = options.marginMs ?? 100;
  const holds = new Map<RateScope, Hold[]>();
  /** Slots the server says are taken by someone else, all free by `until`. */
  const external = new Map<RateScope, { count: number; until: number }>();
  const paused = new Map<EndpointName, number>();
  /** Global pauses by the endpoint whose 429 set them. */
  const globalPauses = new Map<EndpointName, number>();

  const holdsOf = (scope: RateScope, now: number): Hold[] => {
    const live = (holds.get(scope) ?? []).filter((h) => h.end > now);
    holds.set(scope, live);
    return live;
  };
  const externalOf = (scope: RateScope, now: number) => {
    const e = external.get(scope);
    return e && e.until > now ? e : { count: 0, until: now };
  };

  /** Earliest time the scope has a free slot under `limit`. */
  const scopeOpenAt = (scope: RateScope, limit: number, now: number): number => {
    const own = holdsOf(scope, now);
    const ext = externalOf(scope, now);
    const need = own.length + ext.count - limit + 1;
    if (need <= 0) return now;
    const frees = own.map((h) => h.end);
    for (let i = 0; i < ext.count; i++) frees.push(ext.until);
    frees.sort((a, b) => a - b);
    return frees[need - 1] ?? Infinity;
  };

  const liveUntil = <K>(map: Map<K, number>, key: K, now: number): number => {
    const until = map.get(key);
    if (until === undefined) return now;
    if (until <= now) {
      map.delete(key);
      return now;
    }
    return until;
  };
  const globalPausedUntil = (now: number, lane: Lane | null, endpoint: EndpointName | null): number => {
    if (lane === 'heartbeat' && endpoint !== null) return liveUntil(globalPauses, endpoint, now);
    let until = now;
    for (const cause of [...globalPauses.keys()]) until = Math.max(until, liveUntil(globalPauses, cause, now));
    return until;
  };

  return {
    openAt(endpoint, lane, now) {
      return Math.max(
        liveUntil(paused, endpoint, now),
        globalPausedUntil(now, lane, endpoint),
        scopeOpenAt(endpoint, laneEndpointLimit(lane, endpoint), now),
        scopeOpenAt('global', GLOBAL_LIMIT_PER_MINUTE - LANE_GLOBAL_HEADROOM[lane], now),
      );
    },

    acquire(endpoint, now) {
      const mine: Hold = { end: Infinity };
      const shared: Hold = { end: Infinity };
      holdsOf(endpoint, now).push(mine);
      holdsOf('global', now).push(shared);
      let settled = false;
      return {
        release(at) {
          if (settled) return;
          settled = true;
          mine.end = shared.end = at + RATE_WINDOW_MS + marginMs;
        },
        cancel() {
          if (settled) return;
          settled = true;
          mine.end = shared.end = -Infinity;
        },
      };
    },

    note(n, now) {
      if (n.status === 429 || n.remaining === undefined || n.limit === undefined) return;
      const scope: RateScope | null =
        n.limit === GLOBAL_LIMIT_PER_MINUTE ? 'global' : n.limit === ENDPOINTS[n.endpoint].perMinute ? n.endpoint : null;
      if (scope === null) return;
      // Our own requests the server has not counted yet (in flight) or no longer
      // counts (their hold outlives the server's window) only make our view the
      // stricter one; what is left over is someone else's.
      const ownRemaining = limitOf(scope) - holdsOf(scope, now).length;
      const others = Math.max(0, ownRemaining - n.remaining);
      // Any request the server counted now has left its window 60 s from now,
      // whatever the window style; X-RateLimit-Reset may name an earlier time
      // that frees only part of them, so it is not trusted to free them all.
      external.set(scope, { count: others, until: now + RATE_WINDOW_MS + marginMs });
    },

    pause(scope, until, cause) {
      const map = scope === 'global' ? globalPauses : paused;
      const key = scope === 'global' ? cause : scope;
      map.set(key, Math.max(map.get(key) ?? 0, until));
    },

    reserve(scope, count, now) {
      const current = externalOf(scope, now);
      external.set(scope, { count: current.count + count, until: now + RATE_WINDOW_MS + marginMs });
    },

    remaining(scope, now) {
      return Math.max(0, limitOf(scope) - holdsOf(scope, now).length - externalOf(scope, now).count);
    },

    pauses(now) {
      const out: { scope: RateScope; until: number }[] = [];
      const global = globalPausedUntil(now, null, null);
      if (global > now) out.push({ scope: 'global', until: global });
      for (const scope of [...paused.keys()]) {
        const until = liveUntil(paused, scope, now);
        if (until > now) out.push({ scope, until });
      }
      return out;
    },

    forget() {
      // Slots in flight keep their own holds; released, they count nowhere.
      holds.clear();
      external.clear();
      paused.clear();
      globalPauses.clear();
    },

    busyOffsets(scope, now) {
      const offsets = holdsOf(scope, now).map((h) =>
        h.end === Infinity ? RATE_WINDOW_MS : Math.max(0, h.end - now),
      );
      const ext = externalOf(scope, now);
      for (let i = 0; i < ext.count; i++) offsets.push(ext.until - now);
      return offsets;
    },
  };
}
