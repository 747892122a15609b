import { createEmitter, type Unsubscribe } from '../events.ts';
import { conflict, notFound, quoted } from '../errors.ts';
import type { GuardConfirmation } from '../../../src-shared/draft-views.ts';
import type { DraftService } from '../drafts/draft-service.ts';
import type { Change } from '../drafts/change.ts';
import type { BatchTask, Scheduler } from '../scheduler/index.ts';
import type { ActivityQuery, ActivityRow } from '../store/activity-repo.ts';
import type { Store } from '../store/db.ts';
import type { Repos } from '../store/index.ts';
import type { RunRow } from '../store/journal-repo.ts';
import { ApplyRefused, refuseUnconfirmedPrices, refuseWhileNotAutomated, type AutomationRule } from './apply-checks.ts';
import { isFinished, startRun, type ApplyEvents, type ApplyHandle, type ApplyProgress, type RunDeps } from './apply-run.ts';
import { createQuantityCheck, type BalanceReads } from './buy-order-quantities.ts';
import { createJournal, type Journal } from './journal.ts';
import { createListingSends, type TradeReads } from './listing-sends.ts';
import { resumeTasks, type PhaseDeps } from './phases.ts';
import { listUnknownOutcomes, recoverJournal, resolveUnknown, type ResolutionChoice, type UnknownOutcome } from './recovery.ts';
import { planThenQueue } from './run-planning.ts';
import { undoApply, type UndoResult } from './undo-apply.ts';
import { relistDeleted, type RelistResult } from './undo-relist.ts';

/**
 * Apply, exactly once: a draft becomes a scheduler job whose every batch is
 * journaled before it is sent and after its outcome. On start, `recover()`
 * turns batches sent without an outcome into unknown outcomes for the trader
 * and resumes unfinished runs (batches never sent are sent).
 */
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
  apply(draftId: string, options?: {
    confirmGuard?: GuardConfirmation | undefined;
    /** `background`: the desk's own apply (a scheduled reprice), which any other request goes before (see scheduler/types.ts). */
    lane?: 'bulk' | 'background';
  }): ApplyHandle;
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
  /** A new draft, made current, that lists again the assets of the listings an ended apply deleted, at their last prices (undo-relist.ts). */
  relistDeleted(runId: number): Promise<RelistResult>;
  /** The activity log: every batch sent and its outcome, and what the desk learnt without a request (sales). */
  activity(query?: ActivityQuery): ActivityRow[];
  /** Entries of the activity log by id (those that exist), oldest first; none once the store has closed. */
  activityEntries(ids: readonly number[]): ActivityRow[];
  on(event: 'progress', listener: (p: ApplyProgress) => void): Unsubscribe;
  on(event: 'unknownOutcomes', listener: (u: UnknownOutcome[]) => void): Unsubscribe;
  /** Entries added to the activity log, or given their outcome, by id: told inside the transaction that wrote them, so read after it. */
  on(event: 'activity', listener: (ids: readonly number[]) => void): Unsubscribe;
}

export function createApplyService(deps: ApplyServiceDeps): ApplyService {
  const { store, repos, drafts, scheduler } = deps;
  const phaseDeps: PhaseDeps = { repos, db: store.db, touched: (draftId, targets) => drafts.refresh(draftId, targets), waiting: new Map() };
  const journal: Journal = createJournal(store, phaseDeps);
  const quantities = deps.balance ? createQuantityCheck({ store, repos, reads: deps.balance, touched: phaseDeps.touched }) : null;
  const sends = createListingSends({ clock: store.clock, ...(deps.trades ? { trades: deps.trades } : {}) });
  const active = new Map<number, ApplyHandle>();
  const emitter = createEmitter<ApplyEvents>();
  let suspended = false;

  /** Whether a run may still be queued into and planned: not ended, not stopping, not suspended for a quit. */
  const goesOn = (handle: ApplyHandle) => !suspended && active.has(handle.runId) && !isFinished(handle.job.progress());
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

  const runDeps: RunDeps = {
    store, repos, scheduler, journal, quantities, sends, emitter,
    suspended: () => suspended,
    waiting: waitingCount,
    ended(runId: number) {
      active.delete(runId);
      phaseDeps.waiting?.delete(runId);
      waitingCounts.delete(runId);
    },
  };
  function run(runRow: RunRow, tasks: readonly BatchTask[], openUntil?: Promise<void>, lane: 'bulk' | 'background' = 'bulk'): ApplyHandle {
    const handle = startRun(runDeps, runRow, tasks, openUntil, lane);
    active.set(runRow.run_id, handle);
    return handle;
  }

  function on(event: 'progress', listener: (p: ApplyProgress) => void): Unsubscribe;
  function on(event: 'unknownOutcomes', listener: (u: UnknownOutcome[]) => void): Unsubscribe;
  function on(event: 'activity', listener: (ids: readonly number[]) => void): Unsubscribe;
  function on(event: 'progress' | 'unknownOutcomes' | 'activity', listener: (payload: never) => void): Unsubscribe {
    if (event === 'activity') return repos.activity.onChanged(listener as (ids: readonly number[]) => void);
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
      const handle = run(runRow, [], new Promise<void>((resolve) => (planned = resolve)), options.lane);
      setTimeout(() => planThenQueue({ store, journal, phaseDeps, goesOn }, runRow, handle, planned), 0);
      return handle;
    },
    handles: () => [...active.values()],
    async suspend() {
      suspended = true;
      const handles = [...active.values()];
      for (const h of handles) h.job.pause();
      // A paused job sends nothing more; a batch journaled as sent is on its way and gets its outcome. Once the store
      // is closed (the desk closed without waiting), nothing more can be journaled, and nothing is waited for.
      const inFlight = () => store.db.isOpen && handles.some((h) => repos.journal.batches({ runId: h.runId, states: ['sent'] }).length > 0);
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
    relistDeleted: (runId) => relistDeleted({ repos, drafts }, runId),
    activity: (query) => repos.activity.list(query),
    activityEntries: (ids) => (store.db.isOpen ? repos.activity.byIds(ids) : []),
    on,
  };
  return service;
}
