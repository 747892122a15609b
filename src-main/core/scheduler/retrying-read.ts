import { ApiError, isApiError, type SerializedApiError } from '../api/errors.ts';
import type { Clock } from '../clock.ts';
import { createEmitter, type Unsubscribe } from '../events.ts';

/**
 * A read the desk cannot do without (the accounts, the balance): one in
 * flight at a time, however many ask (ten key saves are one read), and, once
 * started, tried again with backoff after every failure until one succeeds,
 * with its state ("retrying in 40 s", and why) for the screen. A read tried
 * once at start and given up on left the desk without a main account for good.
 */

export type ReadPhase = 'idle' | 'reading' | 'retrying' | 'done' | 'failed';

export interface ReadState {
  /**
   * idle: never read. reading: a read is on its way. retrying: the last one
   * failed, the next is planned. done: the last one succeeded. failed: the
   * last one failed and none is planned (not started, or stopped).
   */
  phase: ReadPhase;
  /** When the next try goes (ms), while retrying. */
  nextAttemptAt: number | null;
  /** Why the last read failed; null once one succeeded. */
  lastError: SerializedApiError | null;
  /** Failed tries since the last success. */
  failures: number;
  /** When a read last succeeded (ms). */
  readAt: number | null;
}

export interface RetryingRead<T> {
  /**
   * Reads now, or joins the read already on its way. Rejects with ApiError;
   * with `deadlineMs`, with ApiError 'network' once that long has passed (the
   * read itself goes on, and its result still counts).
   */
  read(deadlineMs?: number): Promise<T>;
  /** Reads now and keeps trying after failures until stopped. */
  start(): void;
  stop(): void;
  state(): ReadState;
  on(event: 'state', listener: (state: ReadState) => void): Unsubscribe;
}

export interface RetryingReadOptions<T> {
  clock: Clock;
  /** What is read, for messages: e.g. `get_balance`. */
  what: string;
  /** One try; `signal` aborts when the read is stopped. */
  read: (signal: AbortSignal) => Promise<T>;
  /** Default 5 s, doubling to at most `maxRetryMs` (default 2 min), with jitter in the upper half. */
  firstRetryMs?: number;
  maxRetryMs?: number;
  random?: () => number;
}

export function createRetryingRead<T>(options: RetryingReadOptions<T>): RetryingRead<T> {
  const { clock } = options;
  const firstRetryMs = options.firstRetryMs ?? 5_000;
  const maxRetryMs = options.maxRetryMs ?? 120_000;
  const random = options.random ?? Math.random;
  const emitter = createEmitter<{ state: ReadState }>();
  let state: ReadState = { phase: 'idle', nextAttemptAt: null, lastError: null, failures: 0, readAt: null };
  let inFlight: Promise<T> | null = null;
  let running: AbortController | null = null;
  let retryTimer: AbortController | null = null;

  const set = (patch: Partial<ReadState>) => {
    state = { ...state, ...patch };
    emitter.emit('state', state);
  };

  const planRetry = () => {
    retryTimer?.abort();
    retryTimer = null;
    if (!running) {
      set({ phase: 'failed', nextAttemptAt: null });
      return;
    }
    const base = Math.min(maxRetryMs, firstRetryMs * 2 ** Math.max(0, state.failures - 1));
    const delay = Math.round(base * (0.5 + random() * 0.5));
    const timer = new AbortController();
    retryTimer = timer;
    set({ phase: 'retrying', nextAttemptAt: clock.now() + delay });
    clock.sleep(delay, timer.signal).then(
      () => void readOnce().catch(() => undefined),
      () => undefined,
    );
  };

  function read(deadlineMs?: number): Promise<T> {
    const pending = readOnce();
    return deadlineMs === undefined ? pending : withDeadline(pending, deadlineMs);
  }

  /**
   * The read, or an ApiError 'network' after `ms` of the clock: a trader who
   * asked gets an answer, and the screen shows it as the last error.
   */
  function withDeadline(pending: Promise<T>, ms: number): Promise<T> {
    const timer = new AbortController();
    const expired = clock.sleep(ms, timer.signal).then(() => {
      const error = new ApiError('network', `${options.what}: no answer within ${Math.round(ms / 1000)} s; still trying`);
      if (inFlight === pending) set({ lastError: error.toJSON() });
      throw error;
    });
    return Promise.race([pending, expired]).finally(() => timer.abort());
  }

  function readOnce(): Promise<T> {
    if (inFlight) return inFlight;
    retryTimer?.abort();
    retryTimer = null;
    set({ phase: 'reading', nextAttemptAt: null });
    const signal = running?.signal ?? new AbortController().signal;
    const current = options.read(signal).then(
      (value) => {
        set({ phase: 'done', lastError: null, failures: 0, readAt: clock.now() });
        return value;
      },
      (error: unknown) => {
        if (signal.aborted) throw error;
        const apiError = isApiError(error) ? error : new ApiError('network', error instanceof Error ? error.message : String(error));
        state = { ...state, lastError: apiError.toJSON(), failures: state.failures + 1 };
        planRetry();
        throw apiError;
      },
    );
    const settled = current.finally(() => {
      if (inFlight === settled) inFlight = null;
    });
    inFlight = settled;
    return settled;
  }

  return {
    read,
    start() {
      if (running) return;
      running = new AbortController();
      void readOnce().catch(() => undefined);
    },
    stop() {
      running?.abort(new Error('stopped'));
      running = null;
      retryTimer?.abort();
      retryTimer = null;
      inFlight = null;
      if (state.phase === 'retrying' || state.phase === 'reading') set({ phase: state.lastError === null ? 'idle' : 'failed', nextAttemptAt: null });
    },
    state: () => state,
    on: (event, listener) => emitter.on(event, listener),
  };
}
