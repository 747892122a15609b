import type { EndpointName, RequestOf } from '../api/endpoints.ts';
import type { SerializedApiError } from '../api/errors.ts';
import type { DraftEntry } from '../drafts/change.ts';
import type { BatchTask } from '../scheduler/index.ts';
import type { Repos } from '../store/index.ts';
import type { BatchRow, RunRow } from '../store/journal-repo.ts';
import { LISTING_ENDPOINTS, noteGoneAndKeep, noteRefusedListing } from './ended-listings.ts';
import { settleAsDone, taskOf } from './phases.ts';
import { refusedItems, saysAlreadyExists, saysGone } from './refused-items.ts';

/**
 * What a refusal does to a journaled batch: the items it names fail alone
 * and the rest goes on as one batch, or the batch is halved until the bad
 * item is alone. A delete refused because its target is gone counts as done
 * when that was the point (`if_exists`, or an earlier attempt may have done
 * it). A create refused because its asset already stands is evidence for the
 * trader's choice about an earlier create whose outcome is unknown. A
 * listing the refusal says is gone (sold, unknown to the service) is marked
 * so in the ledger and stays in the batch sent again, where the check before
 * sending settles it; the trades are read first, so every other sale they
 * show leaves the run's listing batches at once instead of one per refusal.
 */

/** Items settled without a request of their own, which the job's own counts cannot know. */
export interface Settled {
  done: number;
  failed: number;
  unknown: number;
}

export interface RefusalResult {
  readonly followUps: BatchTask[];
  /** The batch's items are settled one by one or re-batched: the job must not count the batch itself. */
  readonly replaced: boolean;
  /** Listings the refusal said are gone (0: none): others may have sold too, so the trades are read before more listing batches go. */
  readonly readTrades?: number;
}

const isDelete = (endpoint: EndpointName) => endpoint === 'delete_listing' || endpoint === 'delete_buy_order';

/** An earlier attempt of this batch (or of the batch it was split from) may have been applied. */
export const mayHaveBeenApplied = (b: Pick<BatchRow, 'outcome'>): boolean => b.outcome?.status === 'unknown_outcome';

export function settleRefusal(repos: Repos, b: BatchRow, run: RunRow, error: SerializedApiError, settled: Settled): RefusalResult {
  const entries = repos.drafts.entriesOfBatch(b.batch_id);
  if ((error.kind === 'rejected' || error.kind === 'invalid') && (b.item_count > 1 || namesGoneListing(b, error))) {
    return split(repos, b, run, entries, error, settled);
  }
  const gone = settleItems(repos, b, run, entries, error);
  repos.journal.setBatchState(b.batch_id, gone ? 'done' : 'failed', { status: gone ? 'done' : 'failed', error });
  repos.activity.recordOutcome(b.batch_id, gone ? 'done' : 'failed', error);
  // Refused, yet done: the job would count it failed.
  if (gone) settled.done += b.item_count;
  return { followUps: [], replaced: gone };
}

/** A refusal of a batch of one listing that names it as gone: sent again, the check before sending settles it with no request. */
function namesGoneListing(b: BatchRow, error: SerializedApiError): boolean {
  if (!LISTING_ENDPOINTS.has(b.endpoint) || error.kind !== 'rejected' || !saysGone(error.message) || mayHaveBeenApplied(b)) return false;
  return refusedItems(error, (b.input as { items: unknown[] }).items).length > 0;
}

/**
 * Settles refused entries (a whole one-item batch, or the items a refusal
 * named); the journal row and the activity entry are the caller's. Returns
 * whether they counted as done (a delete of what is gone).
 */
function settleItems(repos: Repos, b: BatchRow, run: RunRow, entries: readonly DraftEntry[], error: SerializedApiError): boolean {
  const deleteOfGone = (e: DraftEntry) =>
    (e.change.kind === 'listing.delete' || e.change.kind === 'buyOrder.delete') && error.kind === 'rejected'
    && ((e.change.if_exists === true && entries.length === 1) || (mayHaveBeenApplied(b) && saysGone(error.message)));
  const gone = entries.filter(deleteOfGone);
  if (gone.length > 0) settleAsDone(run.draft_id, gone, repos, run.run_id);
  const failed = entries.filter((e) => !gone.includes(e));
  if (failed.length > 0) repos.drafts.setStatus(run.draft_id, failed.map((e) => e.target), 'failed', error);
  for (const e of failed) {
    if ((e.change.kind === 'listing.create' || e.change.kind === 'buyOrder.create') && saysAlreadyExists(error.message)) {
      noteEvidence(repos, e.target, error.message, b.batch_id);
    }
    // Only a refusal of this item alone tells about its listing (a whole batch's refusal may be about another).
    if (entries.length === 1) noteRefusedListing(repos, e.change, error);
  }
  return failed.length === 0;
}

function split(repos: Repos, b: BatchRow, run: RunRow, entries: readonly DraftEntry[], error: SerializedApiError, settled: Settled): RefusalResult {
  const wasMaybeApplied = mayHaveBeenApplied(b);
  repos.journal.setBatchState(b.batch_id, 'split', { status: 'failed', error });
  repos.activity.recordOutcome(b.batch_id, 'failed', error);
  const { items, ...rest } = b.input as { items: unknown[] };
  const child = (keep: (i: number) => boolean): BatchRow | null => {
    const indexes = items.map((_, i) => i).filter(keep);
    if (indexes.length === 0) return null;
    const input = { ...rest, items: indexes.map((i) => items[i]) } as RequestOf<EndpointName>;
    const targets = indexes.map((i) => b.targets[i] as string);
    const row = repos.journal.insertBatch({ runId: b.run_id, parentId: b.batch_id, endpoint: b.endpoint, proxy: b.proxy, phase: b.phase, input, targets });
    // A half of a batch that may have been applied may have been applied too.
    if (wasMaybeApplied) repos.journal.setBatchState(row.batch_id, 'planned', b.outcome);
    repos.drafts.setStatus(run.draft_id, targets, 'queued', null, row.batch_id);
    return { ...row, outcome: wasMaybeApplied ? b.outcome : null };
  };
  const named = new Set(refusedItems(error, items));
  if (named.size === 0) {
    const half = Math.ceil(items.length / 2);
    const halves = [child((i) => i < half), child((i) => i >= half)].filter((r): r is BatchRow => r !== null);
    return { followUps: halves.map(taskOf), replaced: true };
  }
  const kept = new Set<number>();
  for (const index of named) {
    const target = b.targets[index];
    const bad = entries.filter((e) => e.target === target);
    if (!wasMaybeApplied && bad.length === 1 && noteGoneAndKeep(repos, (bad[0] as DraftEntry).change, error)) {
      kept.add(index);
      continue;
    }
    if (settleItems(repos, { ...b, targets: target === undefined ? [] : [target], item_count: 1 }, run, bad, error)) settled.done += 1;
    else settled.failed += 1;
  }
  const restRow = child((i) => !named.has(i) || kept.has(i));
  const readTrades = kept.size;
  if (restRow === null) return { followUps: [], replaced: true, readTrades };
  if (wasMaybeApplied && isDelete(b.endpoint) && saysGone(error.message)) {
    // Asked again, the service says what we deleted is gone: the lost attempt most likely did it all.
    // Sending the rest again would be refused item by item; the trader decides, with that evidence.
    parkAsUnknown(repos, restRow, run, error);
    settled.unknown += restRow.item_count;
    return { followUps: [], replaced: true };
  }
  return { followUps: [taskOf(restRow)], replaced: true, readTrades };
}

function parkAsUnknown(repos: Repos, row: BatchRow, run: RunRow, refusal: SerializedApiError): void {
  const error: SerializedApiError = {
    kind: 'unknown_outcome',
    endpoint: row.endpoint,
    message: `${row.endpoint}: an answer was lost, and asked again the service says some of these are already gone; the lost attempt most likely deleted them all`,
  };
  repos.journal.setBatchState(row.batch_id, 'unknown', { status: 'unknown_outcome', error });
  repos.drafts.setStatus(run.draft_id, row.targets, 'unknown', error);
  for (const target of row.targets) repos.journal.addEvidence(row.batch_id, target, refusal.message);
}

/** Adds what the service said about `target` to every unresolved unknown outcome that holds it. */
function noteEvidence(repos: Repos, target: string, message: string, fromBatch: string): void {
  for (const u of repos.journal.batches({ states: ['unknown'] })) {
    if (u.batch_id === fromBatch || !u.targets.includes(target)) continue;
    repos.journal.addEvidence(u.batch_id, target, message);
  }
}
