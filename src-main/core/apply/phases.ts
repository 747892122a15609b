import { ENDPOINTS, type EndpointName, type RequestOf } from '../api/endpoints.ts';
import { isApiError, type SerializedApiError } from '../api/errors.ts';
import { splitIntoRequests } from '../api/split-requests.ts';
import { buyOrderDeleteKey, listingDeleteKey, type Change, type DraftEntry } from '../drafts/change.ts';
import type { BatchTask } from '../scheduler/index.ts';
import type { Repos } from '../store/index.ts';
import type { BatchRow, RunRow } from '../store/journal-repo.ts';
import { endedListingVerdict } from './ended-listings.ts';
import { recordInLedger } from './ledger-effects.ts';
import { endpointOf, isNoOpEdit, itemOf, phaseOf, planBatches, type LedgerLookup, type Phase, type PlanEntry } from './plan-batches.ts';

/**
 * Which batches a run sends next. A phase is planned (journaled as `planned`
 * batches) only when the phase before it has no batch left open, so deletes
 * are done before the creates that need them; a create whose delete did not
 * succeed is not sent and says why.
 */
export interface PhaseDeps {
  readonly repos: Repos;
  /** Told which draft rows changed, to refresh in-memory views. */
  readonly touched: (draftId: string, targets: readonly string[]) => void;
}

export const taskOf = (b: BatchRow): BatchTask => ({
  id: b.batch_id,
  endpoint: b.endpoint,
  input: b.input as RequestOf<EndpointName>,
  itemCount: b.item_count,
});

/** The ledger read row by row (planning touches only the run's targets). */
export function repoLookup(repos: Pick<Repos, 'listings' | 'buyOrders'>): LedgerLookup {
  return {
    listings: { get: (id) => repos.listings.get(id) ?? undefined },
    buyOrders: { get: (sku) => repos.buyOrders.get(sku) ?? undefined },
  };
}

/** Tasks to start (or restart) a run with: the open batches of its current phase, or the next phase planned. */
export function resumeTasks(run: RunRow, deps: PhaseDeps): BatchTask[] {
  const open = deps.repos.journal.batches({ runId: run.run_id, states: ['planned'] });
  if (open.length === 0) return advance(run, deps);
  const current = Math.min(...open.map((b) => b.phase));
  return open.filter((b) => b.phase === current).map(taskOf);
}

/** After an outcome: when nothing of the run is open any more, plans the next phase that has changes. */
export function advance(run: RunRow, deps: PhaseDeps): BatchTask[] {
  const { repos } = deps;
  if (repos.journal.batches({ runId: run.run_id, states: ['planned', 'sent'] }).length > 0) return [];
  for (;;) {
    const waiting = repos.drafts.entriesByStatus(run.draft_id, ['queued']).filter((e) => e.batchId === null);
    if (waiting.length === 0) return [];
    const deletes = deleteTargets(run.draft_id, repos);
    const phaseOfEntry = (e: DraftEntry) => phaseOf(e.change, deletes);
    const phase = Math.min(...waiting.map(phaseOfEntry)) as Phase;
    const tasks = planPhase(run, phase, waiting.filter((e) => phaseOfEntry(e) === phase), deps);
    if (tasks.length > 0) return tasks;
  }
}

function deleteTargets(draftId: string, repos: Repos): Set<string> {
  const all = repos.drafts.entriesByStatus(draftId, ['pending', 'queued', 'sent', 'done', 'failed', 'unknown']);
  return new Set(all.filter((e) => e.change.kind === 'listing.delete' || e.change.kind === 'buyOrder.delete').map((e) => e.target));
}

/** Journals one phase's batches; settles at once what needs no request (no-ops) or cannot be sent. */
function planPhase(run: RunRow, phase: Phase, entries: readonly DraftEntry[], deps: PhaseDeps): BatchTask[] {
  const { repos } = deps;
  const main = repos.accounts.main()?.account_id;
  if (!main) throw new Error('no main account is known; connect the key before applying');
  const lookup = repoLookup(repos);
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
  settleAsDone(run.draft_id, endedDeletes, repos);
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

/** Marks these entries done in the ledger and the draft (no request needed, or the trader said so). */
export function settleAsDone(draftId: string, entries: readonly DraftEntry[], repos: Repos): void {
  for (const e of entries) recordInLedger(repos, e.change);
  repos.drafts.setStatus(draftId, entries.map((e) => e.target), 'done', null);
}
