import type { RateLimitInfo } from '../api/client.ts';
import type { EndpointName } from '../api/endpoints.ts';
import { ApiError } from '../api/errors.ts';
import { wallTimeOf, type Clock } from '../clock.ts';
import { createEmitter } from '../events.ts';
import { createDispatcher } from './dispatcher.ts';
import { createJob, type JobContext } from './job.ts';
import { createRateBudget, limitOf } from './rate-budget.ts';
import { sendThroughBudget, type SendContext } from './send.ts';
import type { Job, RequestSender, Scheduler, SchedulerState } from './types.ts';

export interface SchedulerDeps {
  client: RequestSender;
  clock: Clock;
  /** Jitter source for backoff; Math.random by default. */
  random?: () => number;
  /** Retries after the first attempt for network errors and 5xx; default 5. */
  maxTransientRetries?: number;
  /** Extra time each slot is held beyond response + 60 s; default 100 ms. */
  marginMs?: number;
}

/** A deadline on the scheduler's clock, and the error that says it passed. */
function deadline(clock: Clock, ms: number, armed = true) {
  const fired = new AbortController();
  const timer = new AbortController();
  let started = false;
  const arm = () => {
    if (started) return;
    started = true;
    clock.sleep(ms, timer.signal).then(
      () => fired.abort(new Error('deadline')),
      () => undefined,
    );
  };
  if (armed) arm();
  return {
    signal: fired.signal,
    /** Starts the count now (a deadline made unarmed waits for this). */
    arm,
    cancel: () => timer.abort(),
    error(endpoint: EndpointName, sent: boolean, last: ApiError | null): ApiError {
      const seconds = Math.round(ms / 1000);
      const why = sent
        ? last === null ? 'the service did not answer' : `the last try failed: ${last.message}`
        : 'it was still waiting for a free rate slot';
      return new ApiError('network', `${endpoint}: no answer within ${seconds} s (${why})`, { endpoint, ...(last ? { cause: last } : {}) });
    },
  };
}

/**
 * The one way requests reach the service. Every request takes a slot of its
 * endpoint's window and of the global window (see rate-budget.ts), waits its
 * turn by lane, and is retried or reported as the failure demands (send.ts).
 *
 * Wire the client's `onRateLimit` to `noteRateLimit` so the scheduler learns
 * what the server counts:
 *
 *     let scheduler: Scheduler | undefined;
 *     const client = createMarketplaceClient({ …, onRateLimit: (i) => scheduler?.noteRateLimit(i) });
 *     scheduler = createScheduler({ client, clock });
 */
export function createScheduler(deps: SchedulerDeps): Scheduler {
  const { clock, client } = deps;
  const random = deps.random ?? Math.random;
  const emitter = createEmitter<{ state: SchedulerState }>();
  const budget = createRateBudget(deps.marginMs === undefined ? {} : { marginMs: deps.marginMs });
  const rateNotes = new Map<EndpointName, RateLimitInfo>();
  const jobs = new Set<Job>();
  let jobCount = 0;
  let state: SchedulerState = { blocked: null, blockedError: null, pauses: [] };
  let closed = false;
  let keyEpoch = 0;

  const setState = (next: SchedulerState) => {
    state = next;
    emitter.emit('state', state);
  };
  function unblock(): void {
    if (closed || state.blocked === null) return;
    dispatcher.setGate(null);
    setState({ ...state, blocked: null, blockedError: null });
  }
  const samePauses = (a: SchedulerState['pauses'], b: SchedulerState['pauses']) =>
    a.length === b.length && a.every((p, i) => p.scope === b[i]?.scope && p.until === b[i]?.until);
  /** The pauses as the budget holds them (monotonic); the state shows them as wall-clock times. */
  let pausesHeld: SchedulerState['pauses'] = [];
  const refreshPauses = (now: number) => {
    const pauses = budget.pauses(now);
    if (samePauses(pauses, pausesHeld)) return;
    pausesHeld = pauses;
    setState({ ...state, pauses: pauses.map((p) => ({ scope: p.scope, until: wallTimeOf(clock, p.until) })) });
  };

  const dispatcher = createDispatcher({ clock, budget, afterPump: refreshPauses });

  const sendContext: SendContext = {
    clock,
    budget,
    dispatcher,
    client,
    random,
    maxTransientRetries: deps.maxTransientRetries ?? 5,
    takeRateLimitInfo(endpoint) {
      const note = rateNotes.get(endpoint);
      rateNotes.delete(endpoint);
      return note;
    },
    block(error) {
      if (state.blocked !== null || closed) return;
      dispatcher.setGate(error);
      setState({ ...state, blocked: error.kind === 'forbidden' ? 'forbidden' : 'auth', blockedError: error.toJSON() });
    },
    paused: () => refreshPauses(clock.monotonic()),
    keyEpoch: () => keyEpoch,
  };

  const jobContext: JobContext = {
    clock,
    budget,
    send: (endpoint, input, options) => sendThroughBudget(sendContext, endpoint, input, options),
  };

  return {
    async request(endpoint, input, options) {
      const expiry = options.deadlineMs === undefined ? null : deadline(clock, options.deadlineMs);
      const answer = options.answerWithinMs === undefined ? null : deadline(clock, options.answerWithinMs, false);
      const signals = [options.signal, expiry?.signal, answer?.signal].filter((s): s is AbortSignal => s !== undefined);
      const signal = signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
      let sent = false;
      try {
        const result = await sendThroughBudget(sendContext, endpoint, input, {
          lane: options.lane,
          ...(signal ? { waitSignal: signal, callSignal: signal } : {}),
          ...(options.retries === undefined ? {} : { maxRetries: options.retries }),
          onSent: () => {
            sent = true;
            answer?.arm();
          },
        });
        if (result.kind === 'ok') return result.response;
        if (result.kind === 'aborted') {
          const gaveUp = [expiry, answer].find((d) => d?.signal.aborted);
          if (gaveUp && options.signal?.aborted !== true) throw gaveUp.error(endpoint, sent, result.lastError);
          throw result.reason;
        }
        // A single request has no `beforeSend` that could withdraw it.
        if (result.kind === 'withdrawn') throw new Error(`${endpoint} was withdrawn before it was sent`);
        throw result.error;
      } finally {
        expiry?.cancel();
        answer?.cancel();
      }
    },

    startJob(tasks, options) {
      if (closed) throw new Error('scheduler is closed');
      jobCount += 1;
      const job = createJob(`job-${jobCount}`, jobContext, tasks, options);
      jobs.add(job);
      void job.done.then(() => jobs.delete(job));
      return job;
    },

    noteRateLimit(note) {
      if (note.status === 429) rateNotes.set(note.endpoint, note);
      else budget.note(note, clock.monotonic());
    },

    get state() {
      return state;
    },

    on: (event, listener) => emitter.on(event, listener),

    usage() {
      const limit = limitOf('global');
      return { used: limit - budget.remaining('global', clock.monotonic()), limit };
    },
    nextSlotAt: (endpoint, lane) => budget.openAt(endpoint, lane, clock.monotonic()),
    busyOffsets: (scope) => budget.busyOffsets(scope, clock.monotonic()),
    unblock,
    newKey() {
      if (closed) return;
      keyEpoch += 1;
      budget.forget();
      refreshPauses(clock.monotonic());
      unblock();
      dispatcher.poke();
    },

    close() {
      if (closed) return;
      closed = true;
      // Jobs first, so their waiting batches end as cancelled rather than failed.
      for (const job of jobs) job.cancel();
      dispatcher.setGate(new ApiError('network', 'the scheduler was closed; nothing more is sent'));
    },
  };
}
