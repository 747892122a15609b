import { RATE_WINDOW_MS, USER_AGENT_TTL_SECONDS } from '../api/endpoints.ts';
import { ApiError, isApiError, type SerializedApiError } from '../api/errors.ts';
import type { ServiceClock } from '../api/service-clock.ts';
import { wallTimeOf, type Clock } from '../clock.ts';
import { createEmitter, type Unsubscribe } from '../events.ts';
import { INTERACTIVE_DEADLINE_MS, type Scheduler } from '../scheduler/types.ts';

/**
 * The heartbeat keeps the account's listings and buy orders marked as
 * automated: `set_user_agent` (for the main account and every linked account
 * the trader enabled) marks them for 600 s, so it is called again every ~5
 * minutes, always early enough that a failed beat can be retried before the
 * mark expires. Bots that lost their "automated" badge mostly did so because
 * a failed pulse was never retried or its expiry was thrown away; here the
 * expiry is kept, shown, and drives the next beat.
 *
 * The plan is kept in instants of the clock's monotonic time: a wall clock
 * stepped back two hours must not hold the next beat for two hours while the
 * screen says "active". The state shows them as wall-clock times, converted
 * when it is made.
 */

export type HeartbeatStatus = 'active' | 'expiring' | 'lapsed' | 'off';

export interface HeartbeatState {
  /**
   * active: marked, next beat on schedule. expiring: still marked, but the
   * last beat failed or the mark ends within EXPIRY_MARGIN_MS. lapsed: not
   * marked (never beat successfully, or the mark ran out). off: switched off.
   */
  status: HeartbeatStatus;
  /**
   * When the mark runs out (wall-clock ms, for showing): 600 s after the beat
   * was sent, or earlier when the service's `refresh_at`, read on its own
   * clock, says so.
   */
  refreshAt: number | null;
  /** When the last successful beat was sent (wall-clock ms). */
  lastBeatAt: number | null;
  /** When the next beat is planned (wall-clock ms). */
  nextBeatAt: number | null;
  /** Linked accounts named in the last beat. */
  accounts: string[];
  lastError: SerializedApiError | null;
  /**
   * The service's clock minus the desk's (ms), from the `Date` of its answers;
   * null before one was seen. A desk clock minutes off does not upset the
   * heartbeat, but the trader should know (other programs may trust it).
   */
  clockOffsetMs: number | null;
}

export interface HeartbeatOptions {
  scheduler: Pick<Scheduler, 'request'>;
  clock: Clock;
  /** Linked accounts the trader enabled automation for, read at every beat. */
  linkedAccounts: () => readonly string[];
  /** The service's clock as its answers show it; without it `refresh_at` is not trusted at all. */
  serviceClock?: Pick<ServiceClock, 'offsetMs' | 'offsetRange'>;
  /** Between beats; default 5 minutes (the service recommends 5 to 9). */
  intervalMs?: number;
  /** Random extra delay up to this, so many desks do not beat in step; default 30 s. */
  jitterMs?: number;
  random?: () => number;
}

export interface Heartbeat {
  start(): void;
  stop(): void;
  /** Beats at once (after resume from sleep or when back online); resolves when that beat ends. */
  beatNow(): Promise<void>;
  /**
   * The trader changed the interval: the next beat is planned again from the
   * last one (no request of its own; at once only if the new interval makes
   * it due already). A retry after a failure keeps its own plan.
   */
  setIntervalMs(ms: number): void;
  readonly state: HeartbeatState;
  on(event: 'state', listener: (state: HeartbeatState) => void): Unsubscribe;
}

export const DEFAULT_HEARTBEAT_INTERVAL_MS = 5 * 60_000;
/**
 * A beat is planned no later than this before the mark runs out: a failed
 * beat's retry needs the endpoint's one slot per minute, so this leaves room
 * for two or three more tries.
 */
export const EXPIRY_MARGIN_MS = 3 * RATE_WINDOW_MS;
const FIRST_RETRY_MS = 15_000;
const MAX_RETRY_MS = 2 * 60_000;

/**
 * When a mark made by a beat sent at `sentAt` runs out, on the desk's
 * monotonic clock. The service counts 600 s from when it saw the request,
 * which is no earlier than when we sent it, so send time + 600 s is measured
 * on our clock alone. `refresh_at` is the service's absolute time: it is read
 * only through the offset its `Date` shows (service time minus our monotonic
 * time), and only to end the mark sooner (a service that counts less than it
 * documents), by what is certain: the latest end the offset's interval
 * allows. A reading that puts the end before the answer came is a clock
 * estimate gone wrong, not news.
 */
export function markEnds(sentAt: number, receivedAt: number, refreshAtSec: number, offset: { low: number; high: number } | null): number {
  const byDuration = sentAt + USER_AGENT_TTL_SECONDS * 1000;
  if (offset === null) return byDuration;
  const byService = refreshAtSec * 1000 - offset.low;
  return byService > receivedAt ? Math.min(byDuration, byService) : byDuration;
}

export function createHeartbeat(options: HeartbeatOptions): Heartbeat {
  const { scheduler, clock } = options;
  let intervalMs = options.intervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS;
  const jitterMs = options.jitterMs ?? 30_000;
  const random = options.random ?? Math.random;
  const emitter = createEmitter<{ state: HeartbeatState }>();

  let running = false;
  // Instants of clock.monotonic(); the state shows them as wall-clock times.
  let refreshAt: number | null = null;
  let lastBeatAt: number | null = null;
  let nextBeatAt: number | null = null;
  let accounts: string[] = [];
  let lastError: SerializedApiError | null = null;
  let failures = 0;
  let beatTimer: AbortController | null = null;
  let statusTimer: AbortController | null = null;
  let inFlight: Promise<void> | null = null;
  let stopSignal = new AbortController();
  let state = snapshot();

  function statusAt(now: number): HeartbeatStatus {
    if (!running) return 'off';
    if (refreshAt === null || now >= refreshAt) return 'lapsed';
    if (lastError !== null || refreshAt - now <= EXPIRY_MARGIN_MS) return 'expiring';
    return 'active';
  }

  function snapshot(): HeartbeatState {
    const shown = (at: number | null) => (at === null ? null : wallTimeOf(clock, at));
    return {
      status: statusAt(clock.monotonic()),
      refreshAt: shown(refreshAt),
      lastBeatAt: shown(lastBeatAt),
      nextBeatAt: shown(nextBeatAt),
      accounts: [...accounts],
      lastError,
      clockOffsetMs: options.serviceClock?.offsetMs() ?? null,
    };
  }

  const publish = () => {
    state = snapshot();
    emitter.emit('state', state);
    watchStatus();
  };

  /** Status moves on with time alone (active → expiring → lapsed): look again when it would. */
  function watchStatus() {
    statusTimer?.abort();
    statusTimer = null;
    if (!running || refreshAt === null) return;
    const now = clock.monotonic();
    const at = [refreshAt - EXPIRY_MARGIN_MS, refreshAt].find((t) => t > now);
    if (at === undefined) return;
    const timer = new AbortController();
    statusTimer = timer;
    clock.sleep(at - now, timer.signal).then(
      () => {
        if (statusTimer === timer && statusAt(clock.monotonic()) !== state.status) publish();
      },
      () => undefined,
    );
  }

  const planBeat = (at: number) => {
    beatTimer?.abort();
    nextBeatAt = at;
    const timer = new AbortController();
    beatTimer = timer;
    clock.sleep(Math.max(0, at - clock.monotonic()), timer.signal).then(
      () => void beat(),
      () => undefined,
    );
  };

  const nextAfterSuccess = (sentAt: number) => {
    const planned = sentAt + intervalMs + Math.round(random() * jitterMs);
    return refreshAt === null ? planned : Math.min(planned, refreshAt - EXPIRY_MARGIN_MS);
  };

  const nextAfterFailure = () => {
    const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (failures - 1));
    return clock.monotonic() + Math.round(delay * (0.5 + random() * 0.5));
  };

  async function runBeat(): Promise<void> {
    beatTimer?.abort();
    beatTimer = null;
    nextBeatAt = null;
    accounts = [...options.linkedAccounts()];
    const input = accounts.length > 0 ? { multiaccounts: accounts } : {};
    const sentAt = clock.monotonic();
    const signal = stopSignal.signal;
    try {
      // One try with a deadline: a failure shows at once (lastError) and this loop plans the next try,
      // instead of the scheduler retrying a silent server for minutes behind the trader's back. The
      // deadline counts from the send: a beat waiting for the endpoint's one slot a minute has not failed.
      const response = await scheduler.request('set_user_agent', input, { lane: 'heartbeat', signal, answerWithinMs: INTERACTIVE_DEADLINE_MS, retries: 0 });
      refreshAt = markEnds(sentAt, clock.monotonic(), response.refresh_at, options.serviceClock?.offsetRange() ?? null);
      lastBeatAt = sentAt;
      lastError = null;
      failures = 0;
      if (running) planBeat(nextAfterSuccess(sentAt));
    } catch (error) {
      if (signal.aborted) return;
      failures += 1;
      lastError = (isApiError(error) ? error : new ApiError('network', String(error))).toJSON();
      if (running) planBeat(nextAfterFailure());
    }
    if (running) publish();
  }

  function beat(): Promise<void> {
    if (!running) return Promise.resolve();
    if (inFlight) return inFlight;
    const current: Promise<void> = runBeat().finally(() => {
      if (inFlight === current) inFlight = null;
    });
    inFlight = current;
    return current;
  }

  return {
    start() {
      if (running) return;
      running = true;
      stopSignal = new AbortController();
      void beat();
      publish();
    },
    stop() {
      if (!running) return;
      running = false;
      stopSignal.abort(new Error('heartbeat switched off'));
      beatTimer?.abort();
      beatTimer = null;
      nextBeatAt = null;
      inFlight = null;
      publish();
    },
    beatNow: beat,
    setIntervalMs(ms) {
      if (!(Number.isFinite(ms) && ms > 0) || ms === intervalMs) return;
      intervalMs = ms;
      // Only a beat waiting on the interval is moved: one under way, or a retry, keeps its plan.
      if (!running || inFlight || beatTimer === null || failures > 0 || lastBeatAt === null) return;
      planBeat(Math.max(clock.monotonic(), nextAfterSuccess(lastBeatAt)));
      publish();
    },
    get state() {
      return state;
    },
    on: (event, listener) => emitter.on(event, listener),
  };
}
