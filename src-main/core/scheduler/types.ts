import type { MarketplaceClient, RateLimitInfo } from '../api/client.ts';
import type { EndpointName, RequestOf, ResponseOf } from '../api/endpoints.ts';
import type { SerializedApiError } from '../api/errors.ts';
import type { Unsubscribe } from '../events.ts';

/**
 * The scheduler's public vocabulary. Every request the app makes goes through
 * one scheduler, which is the only place that knows the rate budget.
 */

/**
 * Who is asking, most urgent first. A higher lane is served first when several
 * wait for the same endpoint, and lower lanes leave some of the global budget
 * free so the heartbeat and the trade polls never queue behind a bulk job.
 * `background` is the desk's own work nobody waits for (a scheduled reprice):
 * it takes an endpoint's slot only when no other request holds one, so a
 * trader's apply finds at most one of its slots taken.
 */
export type Lane = 'heartbeat' | 'poll' | 'interactive' | 'bulk' | 'background';

/** Lanes in priority order. */
export const LANES: readonly Lane[] = ['heartbeat', 'poll', 'interactive', 'bulk', 'background'];

/** Where a rate limit applies: one endpoint, or every endpoint of the key. */
export type RateScope = EndpointName | 'global';

/** The part of the client the scheduler uses: one HTTP request. */
export type RequestSender = Pick<MarketplaceClient, 'call'>;

export interface SchedulerState {
  /**
   * Set when the service refused the key (401) or the account (403): nothing is
   * sent until `unblock()`, so a revoked key does not burn through the queue.
   */
  blocked: null | 'auth' | 'forbidden';
  blockedError: SerializedApiError | null;
  /** 429 pauses in force: nothing is sent in that scope until `until` (wall-clock ms, for showing; at most MAX_RETRY_AFTER_MS away). */
  pauses: readonly { scope: RateScope; until: number }[];
}

/**
 * The longest a trader who asked (beat now, refresh the balance) waits for an
 * answer: the client's own total timeout, so a silent server is reported
 * rather than retried for minutes while a rate slot is held each time.
 */
export const INTERACTIVE_DEADLINE_MS = 30_000;

export interface RequestOptions {
  lane: Lane;
  signal?: AbortSignal;
  /**
   * Gives up after this long (scheduler clock) from the call, waiting and
   * retries included, with an ApiError 'network' that says whether the
   * request had gone out: the trader asked and is waiting for an answer.
   */
  deadlineMs?: number;
  /**
   * Gives up when the service has not answered this long after the request
   * was sent (scheduler clock), with the same error: the wait for a rate
   * slot does not count, so a request that must wait its endpoint's turn
   * (the heartbeat's one a minute) is not given up before it was sent.
   */
  answerWithinMs?: number;
  /** Attempts after the first for transient failures; the scheduler's default when absent. */
  retries?: number;
}

/** One request of a job: already packed (≤ 100 items), ready to send. */
export interface BatchTask {
  id: string;
  endpoint: EndpointName;
  input: RequestOf<EndpointName>;
  itemCount: number;
}

/**
 * What `beforeSend` may say of the batch about to go: nothing (send it as it
 * is), the batch revised (some of its items were settled meanwhile without a
 * request: the rest goes, and the job counts only the rest), or withdrawn
 * (nothing of it is left to send; these tasks, if any, join the job instead).
 */
export type BeforeSendAnswer = void | BatchTask | { readonly withdrawn: readonly BatchTask[] };

export interface JobOptions {
  lane?: 'bulk' | 'interactive' | 'background';
  /**
   * The job is not done, even with nothing queued, before this settles: its
   * first tasks are still being planned (added with `add`) on a later turn.
   */
  openUntil?: Promise<unknown>;
  /** Awaited just before the batch is sent (journal "sent" here), before every attempt; may revise or withdraw it. */
  beforeSend?: (task: BatchTask) => Promise<BeforeSendAnswer> | BeforeSendAnswer;
  /**
   * Awaited when an attempt ended without changing anything on the service (a
   * 429, a network error before the request left, a 5xx) and the batch will be
   * sent again: a journal marks it unsent meanwhile, so a crash while waiting
   * is not mistaken for an unknown outcome.
   */
  onRetry?: (task: BatchTask, error: SerializedApiError) => Promise<void> | void;
  /**
   * Awaited with each batch's final outcome (journal it here). May return
   * follow-up tasks to enqueue in the same job. Follow-ups of a `failed` batch
   * replace it in the item counts (e.g. the halves of a refused batch); other
   * follow-ups are added to them. Returning `{ followUps, replaced }` says
   * outright whether the batch's items are counted elsewhere (settled one by
   * one by the caller, or re-batched), whatever the follow-ups.
   */
  onOutcome?: (
    task: BatchTask,
    outcome: BatchOutcome,
  ) => Promise<OutcomeFollowUp> | OutcomeFollowUp;
}

/** What `onOutcome` may return. */
export type OutcomeFollowUp = readonly BatchTask[] | { readonly followUps: readonly BatchTask[]; readonly replaced: boolean } | void;

export type BatchOutcome =
  | { status: 'done'; response: unknown }
  | { status: 'failed'; error: SerializedApiError }
  | { status: 'unknown_outcome'; error: SerializedApiError }
  | { status: 'stopped'; error: SerializedApiError };

export type JobState = 'running' | 'paused' | 'cancelling' | 'done' | 'cancelled' | 'stopped';

export interface JobProgress {
  jobId: string;
  state: JobState;
  itemsTotal: number;
  itemsDone: number;
  itemsFailed: number;
  itemsUnknown: number;
  /** Items not (yet) settled: queued, in flight, or never sent because the job ended early. */
  itemsLeft: number;
  requestsSent: number;
  /** Earliest finish the limits allow from now, given what is already in the window; null while paused. */
  etaMs: number | null;
  startedAt: number;
  stopReason?: SerializedApiError;
}

export interface Job {
  readonly id: string;
  progress(): JobProgress;
  on(event: 'progress', listener: (progress: JobProgress) => void): Unsubscribe;
  pause(): void;
  resume(): void;
  /** Requests already sent are awaited; nothing new is sent. */
  cancel(): void;
  add(tasks: readonly BatchTask[]): void;
  /** Settles (never rejects) once the job is done, cancelled or stopped. */
  readonly done: Promise<JobProgress>;
}

export interface Scheduler {
  /**
   * One request through the budget: waits its turn, retries transient failures
   * (never a write with an unknown outcome), waits out 429s. Rejects with ApiError.
   */
  request<K extends EndpointName>(endpoint: K, input: RequestOf<K>, options: RequestOptions): Promise<ResponseOf<K>>;
  /** Runs many batches side by side, each endpoint at its own limit. */
  startJob(tasks: readonly BatchTask[], options?: JobOptions): Job;
  /** Learns from the server's rate-limit headers (wire the client's `onRateLimit` here). */
  noteRateLimit(info: RateLimitInfo): void;
  readonly state: SchedulerState;
  on(event: 'state', listener: (state: SchedulerState) => void): Unsubscribe;
  /** Clears a blocked state (after the key is replaced). */
  unblock(): void;
  /**
   * The trader set another key. The service counts requests per key, so the
   * windows and pauses of the previous one are forgotten; work blocked by it
   * goes; a 401 still coming back for it is not held against the new one.
   */
  newKey(): void;
  /** Requests counted against the global limit right now (sent, in flight, or known from the server). */
  usage(): { used: number; limit: number };
  /**
   * When (monotonic ms) a request to `endpoint` in `lane` could go at the
   * earliest, if nothing else were sent: now or earlier when a slot is free,
   * Infinity while only an answer still on its way can free one.
   */
  nextSlotAt(endpoint: EndpointName, lane: Lane): number;
  /** For each slot of `scope` in use, how long from now until it is free (in flight: a window): what a job's ETA counts from. */
  busyOffsets(scope: RateScope): readonly number[];
  /** Stops everything: waiting requests reject, jobs are cancelled. */
  close(): void;
}
