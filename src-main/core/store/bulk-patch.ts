import type { BulkDomain, ChangeStatus } from '../../../src-shared/drafts.ts';
import type { Store } from './db.ts';
import { LOCKED_SQL } from './draft-entry.ts';
import { statusCounts, type Params } from './typed-rows.ts';

/**
 * A bulk edit being written, read as a patch. A bulk edit of fifty thousand
 * rows is confirmed to the trader once its journal row is stored (a quit or
 * a crash finishes it at the next start, see core/bulk/bulk-writes.ts) and
 * is then written a part per transaction, a few hundred milliseconds in all.
 * Meanwhile the rows not written yet are still in the scratch table the
 * preview classified them into (`temp.bulk_rows`, see bulk-rows.ts), each
 * with the values the edit gives it; the screens' queries lay those rows
 * over the draft's, so a page,
 * a count or a sort answered between two parts shows the whole edit, as it
 * will be once written: the patch plus the parts written is always the edit.
 *
 * The values laid over a row's change (`e_*` in ledger-arms.ts) are the ones
 * the write stores (bulk-rows.ts `write`): kept in step with it.
 */
export interface BulkPatch {
  readonly draftId: string;
  readonly domain: BulkDomain;
  /** Whether the edit sets notes (else a change keeps its note, a new one has none). */
  readonly notes: boolean;
  /** When the edit was confirmed: the time its rows are written with. */
  readonly at: number;
  /** Rows of `temp.bulk_rows` up to this rowid are written; the patch is the rest. */
  readonly writtenTo: number;
  /**
   * The draft's versions just before and just after the edit was laid over
   * it (absent for an edit resumed at a start). While the draft is at
   * `after`, it is the draft as stored at `before` with some of the edit's
   * parts written: its counts are those at `before` and the rows the edit adds.
   */
  readonly laid?: { readonly before: number; readonly after: number };
}

/** A classified row the edit writes: not left out, not already so, its price valid (`a`: the table's alias and a dot). */
export const writes = (a = '') => `${a}skip IS NULL AND ${a}same = 0 AND ${a}problem IS NULL`;

/** The patch's parameters, for statements made with the SQL below. */
export const patchParams = (patch: BulkPatch): Params => ({ p_lo: patch.writtenTo, p_at: patch.at });

/**
 * The join that finds a row's patch (alias `p`) by key, after the join of its
 * change (`e`): a change an apply took meanwhile is never written over, as
 * the write leaves it too.
 */
export const patchJoin = (key: string) =>
  `LEFT JOIN temp.bulk_rows p ON p.key = ${key} AND p.rowid > :p_lo AND ${writes('p.')} AND (e.status IS NULL OR e.status NOT IN ${LOCKED_SQL})`;

type EntryColumn = 'kind' | 'status' | 'error' | 'price' | 'promoted' | 'quantity' | 'active' | 'user_note' | 'updated_at';

/** A column of a row's change with the patch laid over it (`e` is the change's alias, `p` the patch's). */
export function patchedColumn(patch: Pick<BulkPatch, 'domain' | 'notes'>, column: EntryColumn): string {
  const listings = patch.domain === 'listings';
  const own = (value: string) => `CASE WHEN p.e_open = 1 THEN e.${column} ELSE ${value} END`;
  const value = ((): string => {
    switch (column) {
      case 'kind': return own(listings ? "'listing.edit'" : "'buyOrder.edit'");
      case 'status': return "'pending'";
      case 'error': return 'NULL';
      case 'price': return 'p.n_price';
      case 'promoted': return listings ? 'p.n_promoted' : own('NULL');
      case 'quantity': return listings ? own('NULL') : 'p.n_quantity';
      case 'active': return listings ? own('NULL') : 'CASE WHEN p.e_open = 1 AND p.is_create = 1 THEN NULL ELSE p.n_active END';
      case 'user_note': return patch.notes ? 'p.n_note' : own('NULL');
      case 'updated_at': return ':p_at';
    }
  })();
  return `CASE WHEN p.key IS NULL THEN e.${column} ELSE ${value} END`;
}

/**
 * The patch's rows the draft has no open change of yet, that the ledger
 * holds (`table` and its key column): what a count of the table's changed
 * rows, made from the draft's side, adds for the patch. A row the draft
 * deletes is never in the patch, so none is counted twice.
 */
export const patchNewKeysSql = (table: string, key: string) =>
  `SELECT count(*) AS n FROM temp.bulk_rows p WHERE p.rowid > :p_lo AND p.e_open = 0 AND ${writes('p.')} AND EXISTS (SELECT 1 FROM ${table} h WHERE h.${key} = p.key)`;

/**
 * The draft's changes by status with the patch laid over them: a patched
 * change is pending, a patched row the draft had no change of is a new pending one.
 */
function patchedStatusCountsSql(patch: Pick<BulkPatch, 'domain'>): string {
  const slot = patch.domain === 'listings' ? 'L' : 'B';
  return `SELECT status, count(*) AS n FROM (
      SELECT CASE WHEN p.key IS NULL THEN e.status ELSE 'pending' END AS status FROM draft_entries e
        LEFT JOIN temp.bulk_rows p ON e.slot = '${slot}' AND p.key = e.key AND p.rowid > :p_lo AND ${writes('p.')} AND e.status NOT IN ${LOCKED_SQL}
        WHERE e.draft_id = :draft
      UNION ALL
      SELECT 'pending' FROM temp.bulk_rows p WHERE p.rowid > :p_lo AND ${writes('p.')}
        AND NOT EXISTS (SELECT 1 FROM draft_entries e WHERE e.draft_id = :draft AND e.slot = '${slot}' AND e.key = p.key))
    GROUP BY status`;
}

/** The draft's changes counted by status, with the bulk edit being written counted as written. */
export function patchedStatusCounts(store: Pick<Store, 'db'>, draftId: string, patch: BulkPatch): Partial<Record<ChangeStatus, number>> {
  return statusCounts('draft_entries', store.db.prepare(patchedStatusCountsSql(patch)).all({ draft: draftId, p_lo: patch.writtenTo }));
}
