import type { DatabaseSync } from 'node:sqlite';
import { ENDPOINTS, type EndpointName, type RequestOf } from '../api/endpoints.ts';
import { isApiError, type SerializedApiError } from '../api/errors.ts';
import { splitIntoRequests } from '../api/split-requests.ts';
import { buyOrderDeleteKey, listingDeleteKey, type Change, type ChangeKind, type DraftEntry } from '../drafts/change.ts';
import type { BatchTask } from '../scheduler/index.ts';
import type { Repos } from '../store/index.ts';
import { waitingCreatePhases, waitingKinds, waitingPlaces, type WaitingPlace } from '../store/apply-reads.ts';
import type { BatchRow, RunRow } from '../store/journal-repo.ts';
import { endedListingVerdict } from './ended-listings.ts';
import { recordAppliedMany } from './applied-rows.ts';
import { recordInLedger } from './ledger-effects.ts';
import { endpointOf, isNoOpEdit, itemOf, planBatches, readAhead, type Phase, type PlanEntry } from './plan-batches.ts';
import { byCodeUnit } from '../../../src-shared/text-order.ts';

/**
 * Which batches a run sends next. A phase is planned (journaled as `planned`
 * batches) only when the phase before it has no batch left open, so deletes
 * are done before the creates that need them; a create whose delete did not
 * succeed is not sent and says why.
 */
export interface PhaseDeps {
  readonly repos: Repos;
  /** The profile's database: the changes waiting for a batch are found with SQL (store/apply-reads.ts). */
  readonly db: Pick<DatabaseSync, 'prepare'>;
  /** Told which draft rows changed, to refresh in-memory views. */
  readonly touched: (draftId: string, targets: readonly string[]) => void;
  /** Each run's groups of waiting changes, kept between plannings (see `advance`); read afresh every time without it. */
  readonly waiting?: WaitingMemo;
}

/**
 * A run's groups of waiting changes in its current phase, each with the place
 * of the last change planned from it, so the next batch of a group starts
 * after that place instead of counting and walking the draft from its start
 * for every batch: at 47,000 changes that was about 23 ms of each outcome's
 * step. Changes leave the waiting set as they are planned or settled; while a
 * run is still being queued they also join it, in no order, and those behind
 * a group's place are found when the groups run dry and are read again.
 */
export type WaitingMemo = Map<number, WaitingGroup[]>;

interface WaitingGroup {
  readonly phase: Phase;
  readonly kind: ChangeKind;
  readonly proxy: string;
  after: WaitingPlace | null;
}

export const taskOf = (b: BatchRow): BatchTask => ({
  id: b.batch_id,
  endpoint: b.endpoint,
  input: b.input as RequestOf<EndpointName>,
  itemCount: b.item_count,
});

/**
 * Tasks to start (or restart) a run with: the open batches of its current
 * phase, and more planned if that phase has room (`ahead` batches for each
 * endpoint and proxy at most).
 */
export function resumeTasks(run: RunRow, deps: PhaseDeps, ahead = AHEAD): BatchTask[] {
  const open = deps.repos.journal.batches({ runId: run.run_id, states: ['planned'] });
  return [...open.filter((b) => b.phase === Math.min(...open.map((o) => o.phase))).map(taskOf), ...advance(run, deps, ahead, ahead)];
}

/**
 * Batches planned ahead for each endpoint and proxy of a phase: as many as
 * the endpoint may send in a window, plus one, so a freed slot always finds
 * a batch ready. The rest of the draft waits as `queued` without a batch and
 * is planned as outcomes come in: starting an apply of 47,000 changes plans
 * a few hundred of them, and the first request leaves at once.
 */
export const AHEAD = 6;

/**
 * What a new run plans before its first request: one batch for each endpoint
 * and proxy, so Apply answers and the first request leaves at once; the rest
 * of the window is planned a batch a step after it (see run-planning.ts).
 */
export const AHEAD_AT_START = 1;

/**
 * What one step plans at most for each endpoint and proxy. An outcome frees
 * one batch's place, so two a step keep the window full and fill it again
 * after a few outcomes when several batches left at once (as when a run
 * starts): planning the whole window in the step of one outcome held the
 * thread about 30 ms.
 */
export const PER_STEP = 2;

/**
 * After an outcome, or to start: tops up the batches of the run's current
 * phase (the lowest with a batch open or a change waiting), so that deletes
 * are done before the creates that need them, `perStep` batches at most for
 * each endpoint and proxy. A later phase is planned only once the one before
 * has nothing open and nothing waiting.
 */
export function advance(run: RunRow, deps: PhaseDeps, ahead = AHEAD, perStep = PER_STEP): BatchTask[] {
  try {
    return planAhead(run, deps, ahead, perStep);
  } catch (error) {
    // What was planned may be rolled back with the transaction: the places kept could be past changes still waiting.
    deps.waiting?.delete(run.run_id);
    throw error;
  }
}

function planAhead(run: RunRow, deps: PhaseDeps, ahead: number, perStep: number): BatchTask[] {
  const { repos } = deps;
  const main = repos.accounts.main()?.account_id;
  if (!main) throw new Error('no main account is known; connect the key before applying');
  const { db } = deps;
  for (;;) {
    const open = repos.journal.batches({ runId: run.run_id, states: ['planned', 'sent'] });
    const openPhase = open.length === 0 ? null : Math.min(...open.map((b) => b.phase));
    let groups = deps.waiting?.get(run.run_id);
    if (!groups || groups.length === 0) {
      // Read afresh whenever the kept phase has nothing left, so a later phase is only ever planned from the store.
      groups = lowestPhaseGroups(db, run, main);
      deps.waiting?.set(run.run_id, groups);
    }
    const lowest = groups[0]?.phase;
    if (lowest === undefined || (openPhase !== null && openPhase < lowest)) return [];
    if (lowest === 2 && repos.journal.run(run.run_id)?.queue_below != null) {
      // The run's changes are still being queued (run-planning.ts): a delete not queued yet may be one of these
      // creates' own, so they wait, and are read afresh once every change is queued.
      deps.waiting?.delete(run.run_id);
      return [];
    }
    const tasks: BatchTask[] = [];
    let again = false;
    for (const g of [...groups]) {
      const endpoint = endpointOf({ kind: g.kind } as Change);
      const proxy = g.proxy === '' ? null : g.proxy;
      const planned = open.filter((b) => b.endpoint === endpoint && b.proxy === proxy && b.state === 'planned').length;
      const room = Math.min(ahead - planned, perStep) * (g.kind.endsWith('deleteAll') ? 1 : 100);
      if (room <= 0) continue;
      const keys = waitingPlaces(db, { draftId: run.draft_id, main }, g, g.after, room);
      const last = keys.at(-1);
      if (last === undefined) {
        // The group has nothing left: dropped, and the phase looked at again.
        groups.splice(groups.indexOf(g), 1);
        again = true;
        continue;
      }
      g.after = last;
      const entries = repos.drafts.entriesFor(run.draft_id, keys.map((k) => (k.key === '' ? k.slot : `${k.slot}:${k.key}`)));
      const made = planPhase(run, g.phase, entries, main, deps);
      tasks.push(...made);
      // Changes settled without a request (no-ops, refused items) may have emptied the phase: look again.
      if (made.length < entries.length) again = true;
    }
    if (tasks.length > 0 || !again) return tasks;
  }
}

/** The groups of waiting changes in the lowest phase that has any, read from the store. */
function lowestPhaseGroups(db: PhaseDeps['db'], run: RunRow, main: string): WaitingGroup[] {
  // The kinds and accounts waiting first (one walk of the draft, no sort of every row: a fifth of grouping them by
  // phase); only creates need their rows looked at for a phase.
  const pairs = waitingKinds(db, run.draft_id);
  const groups = new Map<string, Omit<WaitingGroup, 'after'>>();
  const add = (phase: Phase, kind: ChangeKind, proxy: string) => groups.set(`${phase}|${kind}|${proxy}`, { phase, kind, proxy });
  for (const { kind, account } of pairs) {
    if (kind === 'listing.deleteAll' || kind === 'buyOrder.deleteAll') add(0, kind, '');
    else if (kind !== 'listing.create' && kind !== 'buyOrder.create') add(1, kind, '');
    else if (account !== null) {
      // A create names its account, always.
      for (const phase of waitingCreatePhases(db, run.draft_id, kind, account)) add(phase, kind, account === main ? '' : account);
    }
  }
  const lowest = Math.min(...[...groups.values()].map((g) => g.phase));
  // In the order grouping in SQL gave them: by kind, then proxy.
  return [...groups.values()].filter((g) => g.phase === lowest).sort((a, b) => byCodeUnit(a.kind, b.kind) || byCodeUnit(a.proxy, b.proxy))
    .map((g) => ({ ...g, after: null }));
}

/** Journals one group's batches; settles at once what needs no request (no-ops) or cannot be sent. */
function planPhase(run: RunRow, phase: Phase, entries: readonly DraftEntry[], main: string, deps: PhaseDeps): BatchTask[] {
  const { repos } = deps;
  const lookup = readAhead(repos, entries.map((e) => e.change));
  const sendable: PlanEntry[] = [];
  const done: DraftEntry[] = [];
  const endedDeletes: DraftEntry[] = [];
  const failed: { entry: DraftEntry; error: SerializedApiError }[] = [];
  for (const e of entries) {
    const blocker = phase === 2 ? unfinishedDelete(run.draft_id, e.change, repos) : null;
    const ended = endedListingVerdict(e.change, lookup);
    if (blocker) failed.push({ entry: e, error: { kind: 'invalid', message: `not sent: ${blocker}` } });
    else if (ended?.status === 'failed') failed.push({ entry: e, error: ended.error });
    else if (ended?.status === 'done') endedDeletes.push(e);
    else if (isNoOpEdit(e.change, lookup)) done.push(e);
    else {
      const problem = itemProblem(e.change);
      if (problem) failed.push({ entry: e, error: problem });
      else sendable.push(e);
    }
  }
  const batches = planBatches(sendable, phase, main);
  const rows = batches.map((b) => {
    const row = repos.journal.insertBatch({ runId: run.run_id, parentId: null, endpoint: b.endpoint, proxy: b.proxy, phase, input: b.input, targets: b.targets });
    repos.drafts.setStatus(run.draft_id, b.targets, 'queued', null, row.batch_id);
    return row;
  });
  repos.drafts.setStatus(run.draft_id, done.map((e) => e.target), 'done', null, null);
  // A delete of a listing the service no longer holds needs no request; its row leaves the ledger.
  settleAsDone(run.draft_id, endedDeletes, repos, null);
  for (const f of failed) repos.drafts.setStatus(run.draft_id, [f.entry.target], 'failed', f.error, null);
  deps.touched(run.draft_id, entries.map((e) => e.target));
  return rows.map(taskOf);
}

/** Why a create cannot go yet: the delete of the same asset or SKU did not succeed. */
function unfinishedDelete(draftId: string, change: Change, repos: Repos): string | null {
  const key = change.kind === 'listing.create' ? listingDeleteKey(change.asset_id) : change.kind === 'buyOrder.create' ? buyOrderDeleteKey(change.sku) : null;
  if (!key) return null;
  const del = repos.drafts.entriesFor(draftId, [key])[0];
  if (!del || del.status === 'done' || del.status === 'dropped') return null;
  const what = change.kind === 'listing.create' ? `asset ${change.asset_id}` : `SKU ${key.slice(3)}`;
  return del.status === 'unknown'
    ? `deleting ${what} first has an unknown outcome; resolve it, then apply again`
    : `deleting ${what} first did not succeed (${del.error?.message ?? del.status})`;
}

/** The request schemas' verdict on one item, so a bad one fails alone instead of stopping its batch. */
function itemProblem(change: Change): SerializedApiError | null {
  const endpoint = endpointOf(change);
  const item = itemOf(change);
  try {
    if (item === null) ENDPOINTS[endpoint].request.parse(change.kind === 'listing.deleteAll' ? { active_only: change.active_only } : {});
    else splitIntoRequests(endpoint as 'create_listing', [item as never]);
    return null;
  } catch (error) {
    if (isApiError(error)) return error.toJSON();
    return { kind: 'invalid', message: error instanceof Error ? error.message : String(error), endpoint };
  }
}

/**
 * Marks these entries done in the ledger and the draft: no request was
 * needed, or run `runId`'s request did it (a refusal showed it, or the
 * trader said so), which an undo of that run takes back.
 */
export function settleAsDone(draftId: string, entries: readonly DraftEntry[], repos: Repos, runId: number | null): void {
  if (runId === null) for (const e of entries) recordInLedger(repos, e.change);
  else recordAppliedMany(repos, runId, entries);
  repos.drafts.setStatus(draftId, entries.map((e) => e.target), 'done', null);
}
