import { isSettled, type Change } from './change.ts';
import type { DraftCounts } from './draft-counts.ts';
import type { LedgerView } from './ledger-view.ts';
import type { PatchBody } from './patch.ts';
import type { EntryLayer, WorkingSet } from './working-set.ts';

/**
 * What laying a bulk patch over a draft changes in what the screens count:
 * the rows of the table the draft changes, and the draft's changes by status.
 * It is worked out with the plan (the preview the trader confirms), so the
 * first page and the draft list after the bulk edit are the counts before it
 * plus these, with no walk over tens of thousands of entries.
 */
export interface PatchEffect {
  /** The sequence number the patch was worked out for (the draft's next). */
  readonly seq: number;
  /** Where each target comes in the patch, for reading one row through it. */
  readonly positions: ReadonlyMap<string, number>;
  readonly counts: PatchCounts;
}

export interface PatchCounts {
  readonly domain: PatchBody['domain'];
  readonly ledgerVersion: number;
  /** Rows of the table the draft changes, after minus before (see ledger-query's tallyDraft). */
  readonly changedRows: number;
  /** The draft's changes by status, after minus before (dropped ones are not counted). */
  readonly statuses: Readonly<Partial<DraftCounts>>;
}

/**
 * One walk over the patch's targets, against the entries it will be laid
 * over. A row counts as changed once: for an open create, for an open edit of
 * a row the ledger holds, or else for an open delete of one. A patch keeps
 * each change's kind, builds edits only of rows the ledger holds, and names
 * each target once (a plan's keys), so the rows the draft creates stay the same.
 */
export function patchEffect(layer: EntryLayer, ws: WorkingSet, ledger: LedgerView, seq: number): PatchEffect {
  const listings = layer.slot === 'L';
  const edits = ws.entries.slot(layer.slot);
  const deletes = ws.entries.slot(listings ? 'LD' : 'BD');
  const held: ReadonlyMap<string, unknown> = listings ? ledger.listings : ledger.buyOrders;
  const createKind = listings ? 'listing.create' : 'buyOrder.create';
  /** Whether a row counts as changed, given the kind of its open change (null: none). */
  const counts = (key: string, kind: Change['kind'] | null): boolean => {
    if (kind !== null) return kind === createKind || held.has(key);
    const del = deletes.get(key);
    return del !== undefined && !isSettled(del.status) && held.has(key);
  };
  const statuses: Partial<DraftCounts> = {};
  const positions = new Map<string, number>();
  let changedRows = 0;
  const { ids } = layer;
  for (let i = 0; i < ids.length; i++) {
    const key = ids[i] as string;
    positions.set(key, i);
    const before = edits.get(key);
    const after = layer.kindAt(i, before);
    if (after === null) continue;
    statuses.pending = (statuses.pending ?? 0) + 1;
    const was = before !== undefined && !isSettled(before.status) ? before.change.kind : null;
    changedRows += Number(counts(key, after)) - Number(counts(key, was));
    if (before !== undefined && before.status !== 'dropped') statuses[before.status] = (statuses[before.status] ?? 0) - 1;
  }
  return { seq, positions, counts: { domain: listings ? 'listings' : 'buyOrders', ledgerVersion: ledger.version, changedRows, statuses } };
}
