import { z } from 'zod';
import { bulkDomain, bulkOp, type BulkDomain, type BulkOp } from '../../../src-shared/drafts.ts';
import type { Store } from './db.ts';
import type { SelectedRows } from './ledger-reads.ts';
import { jsonColumn, parseRows } from './sql.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * The journal of bulk edits being written (`bulk_writes`): a row per draft
 * an edit is being written into, stored before its first part and removed
 * with its last, so an edit a quit or a crash cut short is found at the next
 * start (core/bulk/bulk-writes.ts says how it is finished).
 */
export interface BulkWrite {
  readonly draftId: string;
  readonly seq: number;
  readonly domain: BulkDomain;
  /** The selection as the query that found it. */
  readonly rows: SelectedRows;
  readonly op: BulkOp;
}

export interface BulkJournal {
  /** Notes an edit, on its own (one transaction). */
  note(edit: BulkWrite, at: number): void;
  /** Removes the draft's row: run in the transaction of the edit's last part, or for an edit that cannot be finished. */
  done(draftId: string): void;
  /** The edits noted and not done, oldest first. */
  unfinished(): BulkWrite[];
}

const selection = lazySchema(() => z.object({
  sql: z.string(),
  arms: z.object({ created: z.string(), ledger: z.string() }),
  params: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
  ids: z.array(z.string()).nullable(),
}));
const journalRow = lazySchema(() => z.object({ draft_id: z.string(), seq: z.number(), domain: bulkDomain, selection: jsonColumn(selection), op: jsonColumn(bulkOp) }));

export function createBulkJournal(store: Pick<Store, 'db' | 'transaction'>): BulkJournal {
  const { db } = store;
  const note = db.prepare('INSERT OR REPLACE INTO bulk_writes (draft_id, seq, domain, selection, op, started_at) VALUES (?, ?, ?, ?, ?, ?)');
  const done = db.prepare('DELETE FROM bulk_writes WHERE draft_id = ?');
  const all = db.prepare('SELECT draft_id, seq, domain, selection, op FROM bulk_writes ORDER BY started_at');
  return {
    note(edit, at) {
      const { sql, arms, params, ids } = edit.rows;
      store.transaction(() => note.run(edit.draftId, edit.seq, edit.domain, JSON.stringify({ sql, arms, params, ids }), JSON.stringify(edit.op), at));
    },
    done: (draftId) => void done.run(draftId),
    unfinished: () => parseRows('bulk_writes', journalRow, all.all()).map((r) => ({ draftId: r.draft_id, seq: r.seq, domain: r.domain, rows: r.selection, op: r.op })),
  };
}
