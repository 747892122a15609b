import type { Store } from '../store/db.ts';
import type { RunRow } from '../store/journal-repo.ts';
import type { ApplyHandle } from './apply-run.ts';
import type { Journal } from './journal.ts';
import { advance, AHEAD, AHEAD_AT_START, resumeTasks, type PhaseDeps } from './phases.ts';

/**
 * A new run's first batches (one per endpoint) are planned on the step after
 * Apply answers. Once they had time to leave (each is checked in a turn of its
 * own, and waits for its key from the main thread, which answers between
 * steps), its changes not queued yet are queued a part a step, each after the
 * timers and whatever else waits (a page, a beat). Planning need not wait for
 * the queue: the run's delete-alls are queued as it starts, and creates that
 * wait for their own delete are held until every change is queued (see
 * phases.ts). The rest of the window follows a batch a step once the queue is
 * whole, so a step of each never falls in the same turn of the event loop; the
 * job no longer waits once the queue is whole and what it held back is planned.
 */
export interface RunPlanningDeps {
  readonly store: Pick<Store, 'transaction'>;
  readonly journal: Pick<Journal, 'queueMore'>;
  readonly phaseDeps: PhaseDeps;
  /** Whether a run may still be queued into and planned: not ended, not stopping, not suspended for a quit. */
  goesOn(handle: ApplyHandle): boolean;
}

/** How long the rest of a new run's changes and window wait for its first requests to leave. */
const FIRST_REQUESTS_MS = 25;

/** Plans a new run's first batches, then queues the rest of its changes and tops up its window, a step at a time. */
export function planThenQueue(deps: RunPlanningDeps, runRow: RunRow, handle: ApplyHandle, planned: () => void): void {
  const { store, phaseDeps, goesOn } = deps;
  try {
    const tasks = goesOn(handle) ? store.transaction(() => resumeTasks(runRow, phaseDeps, AHEAD_AT_START)) : [];
    if (tasks.length > 0) handle.job.add(tasks);
  } catch {
    // As in topUp: the store could not plan, or the job is ending; outcomes and the next start plan instead.
  }
  // The rest is queued once the first requests had their time (each checked and journaled in a turn after this
  // one: queued meanwhile, a part shared that turn), then the window is topped up.
  setTimeout(() => queueRest(deps, runRow, handle, () => {
    planned();
    setImmediate(() => topUp(deps, runRow, handle, AHEAD_AT_START + 1));
  }), FIRST_REQUESTS_MS);
}

function queueRest(deps: RunPlanningDeps, runRow: RunRow, handle: ApplyHandle, planned: () => void): void {
  const { store, phaseDeps, goesOn } = deps;
  try {
    if (goesOn(handle) && !deps.journal.queueMore(runRow.run_id)) {
      setTimeout(() => queueRest(deps, runRow, handle, planned), 0);
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
function topUp(deps: RunPlanningDeps, runRow: RunRow, handle: ApplyHandle, ahead: number): void {
  if (ahead > AHEAD || !deps.goesOn(handle)) return;
  try {
    const tasks = deps.store.transaction(() => advance(runRow, deps.phaseDeps, ahead));
    if (tasks.length > 0) handle.job.add(tasks);
  } catch {
    // The store could not plan (closing, a full disk) or the job is ending: its outcomes plan instead,
    // and what was journaled is found by the next start.
    return;
  }
  setImmediate(() => topUp(deps, runRow, handle, ahead + 1));
}
