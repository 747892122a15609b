import type { BulkDomain, BulkOp } from '../../../src-shared/drafts.ts';
import type { Store } from '../store/db.ts';
import type { BulkEdits } from './bulk-sql.ts';
import type { SelectedRows } from '../ledger/ledger-query.ts';

/**
 * The journal of bulk edits being written. An edit of fifty thousand rows is
 * written a part per transaction (bulk-sql.ts), so a quit or a crash can
 * fall between parts; its row in `bulk_writes`, written with the first part
 * and removed with the last, says one is under way, with the selection as
 * the query that found it and the operation. Every row written carries the
 * edit's sequence number, so the next start writes the rest: the same
 * operation over the same selection, leaving out the rows that carry it.
 *
 * The journal row is stored before any part, on its own: from then on the
 * edit is the draft's, and the trader is told so while its parts are still
 * being written (the screens read the rest as a patch, see bulk-patch.ts).
 */
export interface BulkWrite {
  readonly draftId: string;
  readonly seq: number;
  readonly domain: BulkDomain;
  readonly rows: SelectedRows;
  readonly op: BulkOp;
}

export interface BulkWriter {
  /** Notes the edit in the journal: from here on a quit or a crash finishes it at the next start. */
  begin(edit: BulkWrite): void;
  /** Writes what the last preview classified, the last part removing the journal row; after a failed part, again from there. */
  write(edit: BulkWrite, at: number): Promise<void>;
  /** Edits a quit or a crash cut short. */
  unfinished(): BulkWrite[];
  /** Forgets an unfinished edit that cannot be finished (its rows are refused now). */
  drop(draftId: string): void;
}

export function createBulkWriter(store: Pick<Store, 'db' | 'transaction' | 'clock'>, edits: BulkEdits): BulkWriter {
  const { db } = store;
  const note = db.prepare('INSERT OR REPLACE INTO bulk_writes (draft_id, seq, domain, selection, op, started_at) VALUES (?, ?, ?, ?, ?, ?)');
  const done = db.prepare('DELETE FROM bulk_writes WHERE draft_id = ?');
  const all = db.prepare('SELECT draft_id, seq, domain, selection, op FROM bulk_writes ORDER BY started_at');
  return {
    begin(edit) {
      const { sql, arms, params, ids } = edit.rows;
      store.transaction(() => note.run(edit.draftId, edit.seq, edit.domain, JSON.stringify({ sql, arms, params, ids }), JSON.stringify(edit.op), store.clock.now()));
    },
    async write(edit, at) {
      await edits.write(edit.draftId, edit.domain, edit.op, edit.seq, at, (part, last) => store.transaction(() => {
        part();
        if (last) done.run(edit.draftId);
      }));
    },
    unfinished: () => (all.all() as { draft_id: string; seq: number; domain: BulkDomain; selection: string; op: string }[]).map((r) => ({
      draftId: r.draft_id, seq: r.seq, domain: r.domain, rows: JSON.parse(r.selection) as SelectedRows, op: JSON.parse(r.op) as BulkOp,
    })),
    drop: (draftId) => void done.run(draftId),
  };
}
