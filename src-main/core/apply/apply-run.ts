import { wallTimeOf } from '../clock.ts';
import type { Emitter } from '../events.ts';
import type { BatchTask, Job, JobProgress, Scheduler } from '../scheduler/index.ts';
import type { Store } from '../store/db.ts';
import type { Repos } from '../store/index.ts';
import type { RunRow } from '../store/journal-repo.ts';
import type { QuantityCheck } from './buy-order-quantities.ts';
import type { Journal } from './journal.ts';
import type { ListingSends } from './listing-sends.ts';
import { listUnknownOutcomes, type UnknownOutcome } from './recovery.ts';
import { createStorePause, type StoreProblem } from './store-pause.ts';
import { afterTimers } from '../turn.ts';

/**
 * One run of an apply as a scheduler job: every batch journaled before it is
 * sent and its outcome after, a full disk pausing the run until the journal
 * can be written again, and the run closed in the journal when the job ends
 * (left open when the app quits, for the next start to resume).
 */
export interface ApplyProgress extends JobProgress {
  readonly draftId: string;
  readonly runId: number;
  /** The disk is full (or failing): the apply is paused until the journal can be written again. */
  readonly storeProblem?: StoreProblem;
  /** Why listing batches wait, while they do: the trade lists are to tell whether listings the service said are gone were sold. */
  readonly waiting?: ApplyWait;
}

/** A wait an apply tells the trader of, in wall-clock times for the screen (listing-sends.ts). */
export interface ApplyWait {
  readonly reason: 'trade_read';
  /** Listings the service said are gone. */
  readonly listings: number;
  readonly since: number;
  /** When the read of the trade lists can go; null while the read on its way answers first. */
  readonly readAt: number | null;
}

export interface ApplyHandle {
  readonly runId: number;
  readonly draftId: string;
  readonly job: Job;
  progress(): ApplyProgress;
  /**
   * Settles when the job ends, the run is closed in the journal and the buy
   * orders it created say what the service stored (see buy-order-quantities.ts).
   */
  readonly done: Promise<ApplyProgress>;
}

export type ApplyEvents = { progress: ApplyProgress; unknownOutcomes: UnknownOutcome[] };

export interface RunDeps {
  readonly store: Pick<Store, 'clock' | 'db'>;
  readonly repos: Repos;
  readonly scheduler: Pick<Scheduler, 'startJob'>;
  readonly journal: Journal;
  /** Learns the quantities buy order creates stored, from balance reads around them; null without balance reads. */
  readonly quantities: QuantityCheck | null;
  readonly sends: ListingSends;
  readonly emitter: Pick<Emitter<ApplyEvents>, 'emit'>;
  /** Suspended for a quit: nothing more is sent, and a run that ends stays open in the journal. */
  suspended(): boolean;
  /** The run's changes not yet planned into a batch. */
  waiting(run: RunRow): number;
  /** The run's job ended: it is no longer one of the running. */
  ended(runId: number): void;
}

export const isFinished = (p: JobProgress): boolean => p.state === 'done' || p.state === 'cancelled' || p.state === 'stopped';

/** Starts the job of a run with `tasks` (more are added as they are planned); `openUntil` holds it open while its changes are queued. */
export function startRun(deps: RunDeps, runRow: RunRow, tasks: readonly BatchTask[], openUntil?: Promise<void>, lane: 'bulk' | 'background' = 'bulk'): ApplyHandle {
  const { store, repos, journal, quantities, sends, emitter } = deps;
  const createBatch = (task: BatchTask) => (quantities && task.endpoint === 'create_buy_order' ? repos.journal.batch(task.id) : null);
  // Items settled without a request of their own, which the job cannot count.
  const extra = { done: 0, failed: 0, unknown: 0 };
  const count = (settled: { done: number; failed: number; unknown: number }) => {
    extra.done += settled.done;
    extra.failed += settled.failed;
    extra.unknown += settled.unknown;
  };
  let started: Job | null = null;
  // A full disk pauses the run: each journal step waits for room, then the job goes on.
  const guard = createStorePause({
    clock: store.clock,
    job: () => started,
    closed: () => !store.db.isOpen,
    changed: () => {
      if (started) emitter.emit('progress', withRun(started.progress()));
    },
  });
  /** The run's next batches, planned once the timers ran. */
  const planLater = async () => {
    await afterTimers();
    return guard.persist(() => journal.planNext(runRow.run_id));
  };
  const job = deps.scheduler.startJob(tasks, {
    lane,
    ...(openUntil ? { openUntil } : {}),
    beforeSend: async (task) => {
      const batch = createBatch(task);
      if (batch) await quantities?.beforeSend(batch);
      await sends.turn(runRow.run_id, task);
      try {
        // A batch is checked and journaled in a turn of the loop after the one that planned it or let it go (an
        // outcome's): the same turn would hold the thread for both. The run's first too: its planning runs the apply's
        // code and statements cold (~20 ms at a session's first apply), and its check took ~8 ms more in that turn.
        await afterTimers();
        // Suspended meanwhile (the balance read, a full disk): it waits in the journal for the next start.
        const quitting = () => deps.suspended();
        await guard.clear(quitting);
        if (quitting()) throw new Error('the app is quitting: it is sent at the next start');
        // Listings sold or gone since the batch was planned are settled now and leave it.
        const prepared = await guard.persist(() => journal.prepareSend(task.id), quitting);
        count(prepared.settled);
        if (prepared.task !== null) return prepared.task;
        sends.done(task.id);
        return { withdrawn: prepared.followUps };
      } catch (error) {
        sends.done(task.id);
        throw error;
      }
    },
    onRetry: async (task, error) => {
      try {
        await guard.persist(() => journal.markRetry(task.id, error));
      } finally {
        sends.done(task.id);
      }
    },
    onOutcome: async (task, outcome) => {
      try {
        const { followUps, settled, replaced, readTrades } = await guard.persist(() => journal.recordOutcome(task.id, outcome));
        count(settled);
        if (readTrades > 0) sends.readTrades(readTrades);
        if (outcome.status === 'unknown_outcome' || outcome.status === 'failed') emitter.emit('unknownOutcomes', listUnknownOutcomes(repos));
        const batch = createBatch(task);
        if (batch) quantities?.afterOutcome(batch);
        // The next batches are planned in the loop's next turn: settling a batch and planning the next ones in the turn
        // its answer came in held the thread for both, with whatever else that turn ran (a page, a part being queued).
        // A stopped batch stays planned for the next start, and nothing more is planned after it.
        const next = outcome.status === 'stopped' ? [] : await planLater();
        return { followUps: [...followUps, ...next], replaced };
      } finally {
        sends.done(task.id);
      }
    },
  });
  started = job;
  // The changes still waiting for a batch count as work left (they are planned a few batches ahead, see phases.ts);
  // a wait for the trade lists counts in the time left, and is said.
  const withRun = (p: JobProgress): ApplyProgress => {
    const problem = guard.problem();
    const wait = isFinished(p) ? null : sends.waiting();
    const itemsDone = p.itemsDone + extra.done;
    const itemsFailed = p.itemsFailed + extra.failed;
    const itemsUnknown = p.itemsUnknown + extra.unknown;
    const waiting = isFinished(p) ? 0 : deps.waiting(runRow);
    const itemsTotal = p.itemsTotal + extra.done + extra.failed + extra.unknown + waiting;
    return {
      ...p, itemsTotal, itemsDone, itemsFailed, itemsUnknown, itemsLeft: itemsTotal - itemsDone - itemsFailed - itemsUnknown,
      draftId: runRow.draft_id, runId: runRow.run_id,
      ...(problem ? { storeProblem: problem } : {}),
      ...(wait === null ? {} : {
        etaMs: p.etaMs === null ? null : p.etaMs + wait.leftMs,
        waiting: {
          reason: 'trade_read', listings: wait.listings, since: wallTimeOf(store.clock, wait.since),
          readAt: wait.readAt === null ? null : wallTimeOf(store.clock, wait.readAt),
        },
      }),
    };
  };
  job.on('progress', (p) => emitter.emit('progress', withRun(p)));
  // Told as the wait begins, not at the next batch's answer.
  const offWait = sends.on('wait', () => emitter.emit('progress', withRun(job.progress())));
  const done = job.done.then(async (final) => {
    offWait();
    deps.ended(runRow.run_id);
    // Suspended for a quit: the job ends as the scheduler closes, but the run stays open for the next start.
    if (deps.suspended()) return withRun(final);
    try {
      await guard.persist(() => journal.finishRun(runRow.run_id, final.state));
    } catch {
      // The end could not be written (the store closed while the disk was full): the run stays open in the
      // journal, and the next start's recovery finishes it. Never a rejection nobody handles.
      return withRun(final);
    }
    emitter.emit('unknownOutcomes', listUnknownOutcomes(repos));
    // Done means the buy orders it created say what the service stored.
    const notCreated = (await quantities?.settle(runRow.run_id)) ?? 0;
    if (notCreated > 0) {
      // Counted done when the service answered; the balance showed nothing was stored.
      extra.done -= notCreated;
      extra.failed += notCreated;
      emitter.emit('progress', withRun(final));
    }
    return withRun(final);
  });
  return { runId: runRow.run_id, draftId: runRow.draft_id, job, progress: () => withRun(job.progress()), done };
}
