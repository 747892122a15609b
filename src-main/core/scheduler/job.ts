import { ENDPOINTS, GLOBAL_LIMIT_PER_MINUTE, type EndpointName, type RequestOf, type ResponseOf } from '../api/endpoints.ts';
import { ApiError, type SerializedApiError } from '../api/errors.ts';
import type { Clock } from '../clock.ts';
import { createEmitter } from '../events.ts';
import { finishOffsetMs } from './estimate.ts';
import { LANE_GLOBAL_HEADROOM, type RateBudget } from './rate-budget.ts';
import type { SendOptions, SendResult } from './send.ts';
import { createJobQueues, type Queued } from './job-queue.ts';
import type { BatchOutcome, BatchTask, BeforeSendAnswer, Job, JobOptions, JobProgress, JobState } from './types.ts';

/**
 * A job: many batches run side by side. Each endpoint gets as many workers as
 * its per-minute limit, so every endpoint of the job fills its own window
 * while the others fill theirs; the budget decides when each may send.
 *
 * Pause and cancel stop the waiting, never a request already sent: its
 * response is awaited and its outcome reported. A 401/403 stops the job; the
 * batches it never sent are reported as `stopped`.
 */

export interface JobContext {
  readonly clock: Clock;
  readonly budget: RateBudget;
  send<K extends EndpointName>(endpoint: K, input: RequestOf<K>, options: SendOptions<K>): Promise<SendResult<ResponseOf<K>>>;
}

type InternalState = JobState | 'stopping';

export function createJob(id: string, ctx: JobContext, initial: readonly BatchTask[], options: JobOptions = {}): Job {
  const lane = options.lane ?? 'bulk';
  const emitter = createEmitter<{ progress: JobProgress }>();
  const queues = createJobQueues();
  const workers = new Map<EndpointName, number>();
  const active = new Set<Queued>();
  const startedAt = ctx.clock.now();
  let state: InternalState = 'running';
  let stopReason: SerializedApiError | undefined;
  let waitControl = new AbortController();
  let itemsTotal = 0;
  let itemsDone = 0;
  let itemsFailed = 0;
  let itemsUnknown = 0;
  let requestsSent = 0;
  let resolveDone: (p: JobProgress) => void = () => undefined;
  const done = new Promise<JobProgress>((resolve) => (resolveDone = resolve));

  const finished = () => state === 'done' || state === 'cancelled' || state === 'stopped';

  const etaMs = (): number | null => {
    if (state === 'paused') return null;
    if (finished()) return 0;
    const counts: Partial<Record<EndpointName, number>> = {};
    const count = (q: Queued) => {
      if (!q.sending) counts[q.task.endpoint] = (counts[q.task.endpoint] ?? 0) + 1;
    };
    queues.forEach(count);
    active.forEach(count);
    const now = ctx.clock.monotonic();
    return finishOffsetMs(counts, (scope) => ctx.budget.busyOffsets(scope, now), GLOBAL_LIMIT_PER_MINUTE - LANE_GLOBAL_HEADROOM[lane]);
  };

  const progress = (): JobProgress => ({
    jobId: id,
    state: state === 'stopping' ? 'cancelling' : state,
    itemsTotal,
    itemsDone,
    itemsFailed,
    itemsUnknown,
    itemsLeft: itemsTotal - itemsDone - itemsFailed - itemsUnknown,
    requestsSent,
    etaMs: etaMs(),
    startedAt,
    ...(stopReason ? { stopReason } : {}),
  });
  const emit = () => emitter.emit('progress', progress());

  const enqueue = (tasks: readonly BatchTask[]) => {
    itemsTotal += queues.add(tasks);
  };

  /** Reports an outcome; follow-up tasks join the job. */
  const settleTask = async (item: Queued, outcome: BatchOutcome) => {
    let followUps: readonly BatchTask[] = [];
    let replaced: boolean | undefined;
    try {
      const answer = await options.onOutcome?.(item.task, outcome);
      if (Array.isArray(answer)) followUps = answer;
      else if (answer) ({ followUps, replaced } = answer as { followUps: readonly BatchTask[]; replaced: boolean });
    } catch (cause) {
      stop(new ApiError('invalid', `recording an outcome failed: ${cause instanceof Error ? cause.message : String(cause)}`));
    }
    replaced ??= outcome.status === 'failed' && followUps.length > 0;
    if (replaced) itemsTotal -= item.task.itemCount;
    else if (outcome.status === 'done') itemsDone += item.task.itemCount;
    else if (outcome.status === 'failed') itemsFailed += item.task.itemCount;
    else if (outcome.status === 'unknown_outcome') itemsUnknown += item.task.itemCount;
    await join(followUps);
    emit();
  };

  /** Follow-up tasks join the job, unless it is ending. */
  const join = async (followUps: readonly BatchTask[]) => {
    if (followUps.length === 0) return;
    enqueue(followUps);
    if (state === 'cancelling') queues.drain();
    if (state === 'stopping') await reportStopped(queues.drain());
    ensureWorkers();
  };

  /** Runs `fn` with `item` counted as active, so the job does not end while its outcome is being recorded. */
  const track = async (item: Queued, fn: () => Promise<void>) => {
    active.add(item);
    try {
      await fn();
    } finally {
      active.delete(item);
    }
  };

  const reportStopped = async (items: Queued[]) => {
    const error = stopReason ?? new ApiError('auth', 'stopped').toJSON();
    for (const item of items) await track(item, () => settleTask(item, { status: 'stopped', error }));
  };

  /** Tasks that go instead of a withdrawn one. */
  const withdrawn = new Map<Queued, readonly BatchTask[]>();
  /** Follows what `beforeSend` said: a revised task replaces the item's (counting only its items), a withdrawn one goes. */
  const revise = (item: Queued, answer: BeforeSendAnswer): { input: RequestOf<EndpointName> } | 'withdrawn' | undefined => {
    if (!answer) return undefined;
    if ('withdrawn' in answer) {
      withdrawn.set(item, answer.withdrawn);
      return 'withdrawn';
    }
    itemsTotal -= item.task.itemCount - answer.itemCount;
    item.task = answer;
    return { input: answer.input };
  };

  const runTask = async (item: Queued, signal: AbortSignal) => {
    const { task } = item;
    let hookFailure: unknown = null;
    const result = await ctx.send(task.endpoint, task.input, {
      lane,
      waitSignal: signal,
      beforeSend: async () => {
        try {
          return revise(item, await options.beforeSend?.(item.task));
        } catch (cause) {
          hookFailure = cause;
          throw cause;
        }
      },
      onSent: () => {
        item.sending = true;
        requestsSent += 1;
      },
      onRetry: (error) => options.onRetry?.(item.task, error.toJSON()),
    });
    item.sending = false;
    if (result.kind === 'ok') return settleTask(item, { status: 'done', response: result.response });
    if (result.kind === 'withdrawn') {
      // Its items were settled without a request (and counted by whoever settled them).
      itemsTotal -= item.task.itemCount;
      const instead = withdrawn.get(item) ?? [];
      withdrawn.delete(item);
      await join(instead);
      emit();
      return;
    }
    if (result.kind === 'aborted') {
      item.lastError = result.lastError ?? item.lastError;
      if (state === 'paused' || state === 'running') return queues.putBack(item);
      if (state === 'stopping') return reportStopped([item]);
      // Cancelled: a batch that failed transiently was not applied; one never sent is just left.
      if (item.lastError) return settleTask(item, { status: 'failed', error: item.lastError.toJSON() });
      return;
    }
    const { error } = result;
    if (hookFailure !== null) {
      // The journal could not record the send: sending more would outrun it.
      const cause = hookFailure;
      stop(new ApiError('invalid', `preparing a batch failed: ${cause instanceof Error ? cause.message : String(cause)}`));
      return settleTask(item, { status: 'stopped', error: error.toJSON() });
    }
    if (error.kind === 'auth' || error.kind === 'forbidden') {
      stop(error);
      return settleTask(item, { status: 'stopped', error: error.toJSON() });
    }
    const status = error.kind === 'unknown_outcome' ? 'unknown_outcome' : 'failed';
    return settleTask(item, { status, error: error.toJSON() });
  };

  const worker = async (endpoint: EndpointName, signal: AbortSignal) => {
    workers.set(endpoint, (workers.get(endpoint) ?? 0) + 1);
    try {
      while (!signal.aborted && state === 'running') {
        const item = queues.take(endpoint);
        if (!item) break;
        await track(item, () => runTask(item, signal));
      }
    } finally {
      workers.set(endpoint, (workers.get(endpoint) ?? 1) - 1);
      await settle();
    }
  };

  const ensureWorkers = () => {
    if (state !== 'running') return;
    for (const [endpoint, waiting] of queues.lengths()) {
      const want = Math.min(ENDPOINTS[endpoint].perMinute - (workers.get(endpoint) ?? 0), waiting);
      for (let i = 0; i < want; i++) void worker(endpoint, waitControl.signal);
    }
  };

  const idle = () => active.size === 0 && [...workers.values()].every((n) => n === 0);
  let held = options.openUntil !== undefined;

  const settle = async () => {
    if (state === 'running') {
      ensureWorkers();
      if (!held && idle() && queues.isEmpty()) finish('done');
      return;
    }
    if (state === 'stopping') await reportStopped(queues.drain());
    if (!idle()) return;
    if (state === 'cancelling') finish('cancelled');
    if (state === 'stopping') finish('stopped');
  };

  const finish = (final: 'done' | 'cancelled' | 'stopped') => {
    if (finished()) return;
    state = final;
    const p = progress();
    emitter.emit('progress', p);
    resolveDone(p);
  };

  function stop(error: ApiError) {
    if (finished() || state === 'stopping') return;
    stopReason = error.toJSON();
    state = 'stopping';
    waitControl.abort();
    emit();
    void settle();
  }

  enqueue(initial);
  queueMicrotask(() => void settle());
  const release = () => {
    held = false;
    void settle();
  };
  options.openUntil?.then(release, release);

  return {
    id,
    progress,
    on: (event, listener) => emitter.on(event, listener),
    done,
    pause() {
      if (state !== 'running') return;
      state = 'paused';
      waitControl.abort();
      emit();
    },
    resume() {
      if (state !== 'paused') return;
      state = 'running';
      waitControl = new AbortController();
      emit();
      void settle();
    },
    cancel() {
      if (finished() || state === 'cancelling' || state === 'stopping') return;
      state = 'cancelling';
      waitControl.abort();
      const failed = queues.drain().filter((item) => item.lastError !== null);
      emit();
      void Promise.all(
        failed.map((item) =>
          track(item, () => settleTask(item, { status: 'failed', error: (item.lastError as ApiError).toJSON() })),
        ),
      ).then(settle);
    },
    add(tasks) {
      if (finished() || state === 'cancelling' || state === 'stopping') throw new Error(`job ${id} has ended`);
      enqueue(tasks);
      emit();
      ensureWorkers();
    },
  };
}
