import { createEmitter, type Unsubscribe } from '../events.ts';
import { conflict, notFound, quoted } from '../errors.ts';
import type { GuardConfirmation } from '../../../src-shared/draft-views.ts';
import type { DraftService } from '../drafts/draft-service.ts';
import type { Change } from '../drafts/change.ts';
import type { BatchTask, Job, JobProgress, Scheduler } from '../scheduler/index.ts';
import type { Store } from '../store/db.ts';
import type { Repos } from '../store/index.ts';
import type { RunRow } from '../store/journal-repo.ts';
import { ApplyRefused, refuseUnconfirmedPrices, refuseWhileNotAutomated, type AutomationRule } from './apply-checks.ts';
import { createQuantityCheck, type BalanceReads } from './buy-order-quantities.ts';
import { createJournal, type Journal } from './journal.ts';
import { createListingSends, type TradeReads } from './listing-sends.ts';
import { advance, AHEAD, AHEAD_AT_START, resumeTasks, type PhaseDeps } from './phases.ts';
import { createStorePause, type StoreProblem } from './store-pause.ts';
import { listUnknownOutcomes, recoverJournal, resolveUnknown, type ResolutionChoice, type UnknownOutcome } from './recovery.ts';
import { undoApply, type UndoResult } from './undo-apply.ts';

/**
 * Apply, exactly once: a draft becomes a scheduler job whose every batch is
 * journaled before it is sent and after its outcome. On start, `recover()`
 * turns batches sent without an outcome into unknown outcomes for the trader
 * and resumes unfinished runs (batches never sent are sent).
 */
export interface ApplyProgress extends JobProgress {
  readonly draftId: string;
  readonly runId: number;
  /** The disk is full (or failing): the apply is paused until the journal can be written again. */
  readonly storeProblem?: StoreProblem;
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

export interface RecoveryResult {
  readonly resumed: readonly ApplyHandle[];
  readonly unknown: readonly UnknownOutcome[];
}

export interface ApplyServiceDeps {
  store: Store;
  repos: Repos;
  drafts: DraftService;
  scheduler: Pick<Scheduler, 'startJob'>;
  /**
   * The trader's option "never put up a listing that would not show as
   * automated" and the heartbeat's status, read at each apply. Without it
   * nothing is refused (tests of the apply alone).
   */
  automation?: AutomationRule;
  /**
   * Balance reads (the trade watcher's), taken around a phase's buy order
   * creates to learn the quantities the service stored. Without them a
   * created order stays "may be cut".
   */
  balance?: BalanceReads;
  /**
   * The trade watcher's reads: a refusal saying a listing is gone makes the
   * run read the trades before its next listing batch, so every sale they
   * show leaves the batches at once. Without it, only the refused listing does.
   */
  trades?: TradeReads;
}

export interface ApplyService {
  /** Call once at start, before any apply. */
  recover(): RecoveryResult;
  /** Starts applying a draft's pending and failed changes (or returns the apply already running). */
  /**
   * `confirmGuard`: the counts of marked price changes the trader confirmed
   * (see src-shared/price-guard.ts); a draft holding such changes is refused
   * unless they are exactly what it holds now.
   */
  apply(draftId: string, options?: { confirmGuard?: GuardConfirmation | undefined }): ApplyHandle;
  handles(): ApplyHandle[];
  /**
   * For quitting: sends nothing more, waits until every batch already sent
   * has its outcome in the journal, and leaves each run open there, so the
   * next start resumes it (`recover`) instead of finding it cancelled or a
   * batch with an unknown outcome. Nothing can be applied afterwards.
   */
  suspend(): Promise<void>;
  byJob(jobId: string): ApplyHandle | undefined;
  unknownOutcomes(): UnknownOutcome[];
  /** Applies the trader's choice to an unknown outcome; returns what is left to resolve. */
  resolve(batchId: string, choice: ResolutionChoice): UnknownOutcome[];
  /** A new draft, made current, that takes back what an ended apply did (see undo-apply.ts). */
  undo(runId: number): Promise<UndoResult>;
  on(event: 'progress', listener: (p: ApplyProgress) => void): Unsubscribe;
  on(event: 'unknownOutcomes', listener: (u: UnknownOutcome[]) => void): Unsubscribe;
}

/** How long the rest of a new run's first window waits for its first requests to leave. */
const FIRST_REQUESTS_MS = 25;

export function createApplyService(deps: ApplyServiceDeps): ApplyService {
  const { store, repos, drafts, scheduler } = deps;
  const phaseDeps: PhaseDeps = { repos, db: store.db, touched: (draftId, targets) => drafts.refresh(draftId, targets), waiting: new Map() };
  const journal: Journal = createJournal(store, phaseDeps);
  const quantities = deps.balance ? createQuantityCheck({ store, repos, reads: deps.balance, touched: phaseDeps.touched }) : null;
  const createBatch = (task: BatchTask) => (quantities && task.endpoint === 'create_buy_order' ? repos.journal.batch(task.id) : null);
  const sends = createListingSends({ clock: store.clock, ...(deps.trades ? { trades: deps.trades } : {}) });
  const active = new Map<number, ApplyHandle>();
  const emitter = createEmitter<{ progress: ApplyProgress; unknownOutcomes: UnknownOutcome[] }>();
  let suspended = false;

  const finished = (p: JobProgress) => p.state === 'done' || p.state === 'cancelled' || p.state === 'stopped';
  /** Whether a run may still be queued into and planned: not ended, not stopping, not suspended for a quit. */
  const goesOn = (handle: ApplyHandle) => !suspended && active.has(handle.runId) && !finished(handle.job.progress());
  /**
   * Changes not yet planned into a batch; none known while the store cannot be read (it is closing). Counted once
   * for each version of the draft (every journal step moves it), not for every progress the job reports: the count
   * reads every change of the draft (4 ms at 47,000).
   */
  const waitingCounts = new Map<number, { version: number; n: number }>();
  const waitingCount = (run: RunRow): number => {
    const version = drafts.version(run.draft_id);
    const known = waitingCounts.get(run.run_id);
    if (known?.version === version) return known.n;
    try {
      // While the run's changes are being queued, those still pending count too: the total is the run's from the start.
      const n = repos.drafts.queuedWithoutBatch(run.draft_id, repos.journal.run(run.run_id)?.queue_below ?? null);
      waitingCounts.set(run.run_id, { version, n });
      return n;
    } catch {
      return 0;
    }
  };

  function run(runRow: RunRow, tasks: readonly BatchTask[], openUntil?: Promise<void>): ApplyHandle {
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
    const job = scheduler.startJob(tasks, {
      lane: 'bulk',
      ...(openUntil ? { openUntil } : {}),
      beforeSend: async (task) => {
        const batch = createBatch(task);
        if (batch) await quantities?.beforeSend(batch);
        await sends.turn(runRow.run_id, task);
        try {
          // Suspended meanwhile (the balance read, a full disk): it waits in the journal for the next start.
          const quitting = () => suspended;
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
          if (readTrades) sends.readTrades();
          if (outcome.status === 'unknown_outcome' || outcome.status === 'failed') emitter.emit('unknownOutcomes', listUnknownOutcomes(repos));
          const batch = createBatch(task);
          if (batch) quantities?.afterOutcome(batch);
          return { followUps, replaced };
        } finally {
          sends.done(task.id);
        }
      },
    });
    started = job;
    // The changes still waiting for a batch count as work left (they are planned a few batches ahead, see phases.ts).
    const withRun = (p: JobProgress): ApplyProgress => {
      const problem = guard.problem();
      const itemsDone = p.itemsDone + extra.done;
      const itemsFailed = p.itemsFailed + extra.failed;
      const itemsUnknown = p.itemsUnknown + extra.unknown;
      const waiting = finished(p) ? 0 : waitingCount(runRow);
      const itemsTotal = p.itemsTotal + extra.done + extra.failed + extra.unknown + waiting;
      return {
        ...p, itemsTotal, itemsDone, itemsFailed, itemsUnknown, itemsLeft: itemsTotal - itemsDone - itemsFailed - itemsUnknown,
        draftId: runRow.draft_id, runId: runRow.run_id,
        ...(problem ? { storeProblem: problem } : {}),
      };
    };
    job.on('progress', (p) => emitter.emit('progress', withRun(p)));
    const done = job.done.then(async (final) => {
      active.delete(runRow.run_id);
      phaseDeps.waiting?.delete(runRow.run_id);
      waitingCounts.delete(runRow.run_id);
      // Suspended for a quit: the job ends as the scheduler closes, but the run stays open for the next start.
      if (suspended) return withRun(final);
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
    const handle: ApplyHandle = { runId: runRow.run_id, draftId: runRow.draft_id, job, progress: () => withRun(job.progress()), done };
    active.set(runRow.run_id, handle);
    return handle;
  }

  /**
   * A new run's first batches (one per endpoint) are planned on the step after
   * Apply answers, while its changes not queued yet are queued a part a step,
   * each after the timers and whatever else waits (a page, a beat). Planning
   * need not wait for the queue: the run's delete-alls are queued as it starts,
   * and creates that wait for their own delete are held until every change is
   * queued (see phases.ts). The rest of the window follows a batch a step, once
   * the first requests had time to leave (each waits for its key from the main
   * thread, which answers between steps); the job no longer waits once the
   * queue is whole and what it held back is planned.
   */
  function planThenQueue(runRow: RunRow, handle: ApplyHandle, planned: () => void): void {
    try {
      const tasks = goesOn(handle) ? store.transaction(() => resumeTasks(runRow, phaseDeps, AHEAD_AT_START)) : [];
      if (tasks.length > 0) handle.job.add(tasks);
    } catch {
      // As in topUp: the store could not plan, or the job is ending; outcomes and the next start plan instead.
    }
    setTimeout(() => topUp(runRow, handle, AHEAD_AT_START + 1), FIRST_REQUESTS_MS);
    setTimeout(() => queueRest(runRow, handle, planned), 0);
  }

  function queueRest(runRow: RunRow, handle: ApplyHandle, planned: () => void): void {
    try {
      if (goesOn(handle) && !journal.queueMore(runRow.run_id)) {
        setTimeout(() => queueRest(runRow, handle, planned), 0);
        return;
      }
      // Every change is queued: what was held back (or found nothing queued to plan) is planned now.
      const tasks = goesOn(handle) ? store.transaction(() => advance(runRow, phaseDeps, AHEAD_AT_START)) : [];
      if (tasks.length > 0) handle.job.add(tasks);
    } catch {
      // As in topUp: the store could not queue or plan, or the job is ending; the next start finds what was journaled.
    }
    planned();
  }

  /**
   * Plans the run's window up to `ahead` batches per endpoint, then goes on in
   * the next step: small steps, so the first requests (and whatever else the
   * thread answers) pass between them. A run that ended or is stopping needs none.
   */
  function topUp(runRow: RunRow, handle: ApplyHandle, ahead: number): void {
    if (ahead > AHEAD || !goesOn(handle)) return;
    try {
      const tasks = store.transaction(() => advance(runRow, phaseDeps, ahead));
      if (tasks.length > 0) handle.job.add(tasks);
    } catch {
      // The store could not plan (closing, a full disk) or the job is ending: its outcomes plan instead,
      // and what was journaled is found by the next start.
      return;
    }
    setImmediate(() => topUp(runRow, handle, ahead + 1));
  }

  function on(event: 'progress', listener: (p: ApplyProgress) => void): Unsubscribe;
  function on(event: 'unknownOutcomes', listener: (u: UnknownOutcome[]) => void): Unsubscribe;
  function on(event: 'progress' | 'unknownOutcomes', listener: (payload: never) => void): Unsubscribe {
    return event === 'progress'
      ? emitter.on('progress', listener as (p: ApplyProgress) => void)
      : emitter.on('unknownOutcomes', listener as (u: UnknownOutcome[]) => void);
  }

  const service: ApplyService = {
    recover() {
      const runs = recoverJournal(store, repos, phaseDeps.touched);
      // A run cut short while its changes were being queued has the rest queued before more of it is planned.
      for (const r of runs) {
        let queued = false;
        while (!queued) queued = journal.queueMore(r.run_id);
      }
      const resumed = runs.filter((r) => !active.has(r.run_id)).map((r) => run(r, resumeTasks(r, phaseDeps)));
      return { resumed, unknown: listUnknownOutcomes(repos) };
    },
    apply(draftId, options = {}) {
      if (suspended) throw new Error('the app is quitting: nothing more is applied');
      if (!repos.drafts.get(draftId)) throw notFound(`There is no draft ${quoted(draftId)}; it may have been discarded`);
      const running = [...active.values()].find((h) => h.draftId === draftId);
      if (running) return running;
      refuseWhileNotAutomated(deps.automation);
      if (drafts.busy(draftId)) throw new ApplyRefused('A bulk edit is being written into this draft; apply it once it is written (a moment).');
      refuseUnconfirmedPrices(drafts.guard(draftId), options.confirmGuard);
      const unfinished = repos.journal.runs({ state: 'running', draftId })[0];
      if (unfinished) {
        // Left by a crash and not yet recovered: recover first, so nothing sent is sent again.
        service.recover();
        const resumed = [...active.values()].find((h) => h.draftId === draftId);
        if (resumed) return resumed;
      }
      // Apply answers once the run is journaled with the first part of its changes queued; the rest follows in steps.
      const runRow = journal.startRun(draftId);
      let planned: () => void = () => undefined;
      const handle = run(runRow, [], new Promise<void>((resolve) => (planned = resolve)));
      setTimeout(() => planThenQueue(runRow, handle, planned), 0);
      return handle;
    },
    handles: () => [...active.values()],
    async suspend() {
      suspended = true;
      const handles = [...active.values()];
      for (const h of handles) h.job.pause();
      // A paused job sends nothing more; a batch journaled as sent is on its way and gets its outcome.
      const inFlight = () => handles.some((h) => repos.journal.batches({ runId: h.runId, states: ['sent'] }).length > 0);
      if (!inFlight()) return;
      await new Promise<void>((resolve) => {
        // Each outcome is journaled before the job reports progress.
        const offs = handles.map((h) => h.job.on('progress', () => {
          if (inFlight()) return;
          for (const off of offs) off();
          resolve();
        }));
      });
    },
    byJob: (jobId) => [...active.values()].find((h) => h.job.id === jobId),
    unknownOutcomes: () => listUnknownOutcomes(repos),
    resolve(batchId, choice) {
      resolveUnknown(batchId, choice, {
        store,
        repos,
        touched: phaseDeps.touched,
        addEntry: (draftId: string, target: string, change: Change) => drafts.putEntry(draftId, target, change),
      });
      const left = listUnknownOutcomes(repos);
      emitter.emit('unknownOutcomes', left);
      return left;
    },
    async undo(runId) {
      if (active.has(runId)) throw conflict('This apply is still running: undo it once it has ended');
      return undoApply({ repos, drafts }, runId);
    },
    on,
  };
  return service;
}
