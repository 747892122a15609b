import { randomUUID } from '../node-crypto.ts';
import type { SQLInputValue } from 'node:sqlite';
import { z } from 'zod';
import type { ChangeStatus } from '../../../src-shared/drafts.ts';
import type { ChangeError, DraftEntry } from './draft-entry.ts';
import type { Store } from './db.ts';
import { changeColumns, ENTRY_COLUMNS, readEntries, readEntry, splitTarget, targetKey, type Slot } from './draft-columns.ts';
import { parseRow, parseRows, placeholders, plainRows } from './sql.ts';
import { countOf, statusCounts } from './typed-rows.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * Drafts and their changes, one row per target (see draft-columns.ts).
 * Every write here is its own committed transaction unless the caller wraps
 * several in `store.transaction`, so an acknowledged edit is on disk. Reads
 * answer a row, a few rows or a page: nothing here reads a draft whole.
 */
export const draftRow = lazySchema(() => z.object({
  draft_id: z.string(),
  name: z.string(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
}));
export type DraftRow = z.output<typeof draftRow>;

export type StatusCounts = Partial<Record<ChangeStatus, number>>;

/** Where a page of a draft's entries in draft order starts: after this entry (null: from the first). */
export type EntryCursor = { readonly seq: number; readonly slot: Slot; readonly key: string } | null;

export interface DraftsRepo {
  list(): DraftRow[];
  get(draftId: string): DraftRow | null;
  create(name: string): DraftRow;
  rename(draftId: string, name: string): void;
  remove(draftId: string): void;
  /** Reserves `count` sequence numbers for new changes; returns the first. */
  takeSeqs(draftId: string, count: number): number;
  entry(draftId: string, target: string): DraftEntry | null;
  entriesFor(draftId: string, targets: readonly string[]): DraftEntry[];
  /** Up to `limit` entries in the order they were made, after `cursor`; dropped ones left out, and only these kinds and statuses when given. */
  entriesPage(draftId: string, cursor: EntryCursor, limit: number, only?: { kinds?: readonly string[]; statuses?: readonly ChangeStatus[] }): DraftEntry[];
  /**
   * Up to `limit` entries of one slot in key order, after `afterKey`, with one
   * of these statuses: the primary key walked, for a slot that holds few of a
   * draft's rows (its deletes) and that draft order would have to walk whole.
   */
  entriesOfSlot(draftId: string, slot: Slot, afterKey: string | null, limit: number, statuses: readonly ChangeStatus[]): DraftEntry[];
  /** Inserts or replaces rows (each checked with the shared schema) and stamps the draft as updated. */
  writeEntries(draftId: string, entries: readonly DraftEntry[]): void;
  deleteEntries(draftId: string, targets: readonly string[]): void;
  /**
   * Sets the status (and error) of these rows. `batchId`: undefined keeps the
   * row's batch, null clears it.
   */
  setStatus(draftId: string, targets: readonly string[], status: ChangeStatus, error?: ChangeError | null, batchId?: string | null): void;
  /**
   * Moves rows from one of `from` to `to` (batch cleared), in one statement: up to `limit` of them (in no particular
   * order), and only those made before `seqBelow` when given; returns how many moved.
   */
  moveStatus(draftId: string, from: readonly ChangeStatus[], to: ChangeStatus, only?: { limit?: number; seqBelow?: number }): number;
  /** Rows with one of these statuses (apply planning and recovery), in draft order; `unbatched`: only rows in no batch. */
  entriesByStatus(draftId: string, statuses: readonly ChangeStatus[], options?: { limit?: number; unbatched?: boolean }): DraftEntry[];
  /** Rows that belong to a journaled batch. */
  entriesOfBatch(batchId: string): DraftEntry[];
  /** Replaces a row's change in place (a resolution that adjusts it), keeping its seq. */
  replaceChange(draftId: string, target: string, body: DraftEntry['change'], status: ChangeStatus): void;
  statusCounts(draftId: string): StatusCounts;
  /**
   * Changes of a running apply not planned into a batch yet (see apply/phases.ts); with `alsoBelow`, the pending ones
   * made before that sequence number too (the run's changes still being queued as it starts).
   */
  queuedWithoutBatch(draftId: string, alsoBelow?: number | null): number;
}

/**
 * The counts an apply reports while it starts (see `queuedWithoutBatch`),
 * without reading the rows of the run's changes: the changes queued without
 * a batch from the status index alone (migration 23), and the pending ones
 * below the part being queued as every pending one (the same index) less
 * those made since the run started (the order index; few, if any).
 */
export const WAITING_COUNTS = {
  queuedWithoutBatch: "SELECT count(*) AS n FROM draft_entries WHERE draft_id = ? AND status = 'queued' AND batch_id IS NULL",
  pendingBelow: `SELECT
    (SELECT count(*) FROM draft_entries INDEXED BY draft_entries_status WHERE draft_id = ?1 AND status = 'pending')
    - (SELECT count(*) FROM draft_entries INDEXED BY draft_entries_order WHERE draft_id = ?1 AND seq >= ?2 AND status = 'pending') AS n`,
} as const;

/** Rows written by one statement. */
const WRITE_RUN = 1_000;

export function createDraftsRepo(store: Store): DraftsRepo {
  const { db } = store;
  const cols = ENTRY_COLUMNS.join(', ');
  const selectAll = db.prepare('SELECT draft_id, name, created_at, updated_at FROM drafts ORDER BY created_at, draft_id');
  const selectOne = db.prepare('SELECT draft_id, name, created_at, updated_at FROM drafts WHERE draft_id = ?');
  const insertDraft = db.prepare('INSERT INTO drafts (draft_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)');
  const renameStmt = db.prepare('UPDATE drafts SET name = ?, updated_at = ? WHERE draft_id = ?');
  const touchStmt = db.prepare('UPDATE drafts SET updated_at = ? WHERE draft_id = ?');
  const removeStmt = db.prepare('DELETE FROM drafts WHERE draft_id = ?');
  const takeSeqsStmt = db.prepare('UPDATE drafts SET next_seq = next_seq + ? WHERE draft_id = ? RETURNING next_seq');
  const selectEntry = db.prepare(`SELECT ${cols} FROM draft_entries WHERE draft_id = ? AND slot = ? AND key = ?`);
  // One primary-key lookup a target, in one statement (CROSS JOIN keeps the list outside: SQLite would scan the draft).
  const entriesForStmt = db.prepare(`SELECT ${ENTRY_COLUMNS.map((c) => `e.${c}`).join(', ')} FROM json_each(?) j
    CROSS JOIN draft_entries e ON e.draft_id = ? AND e.slot = j.value ->> 0 AND e.key = j.value ->> 1`);
  // Rows arrive as one JSON array of arrays, a statement for many: binding twenty named values a row costs more than the write.
  const WRITTEN = ['slot', 'key', 'seq', 'kind', 'account', 'listing_id', 'sku', 'price', 'promoted', 'quantity', 'active', 'user_note', 'game',
    'active_only', 'replaced', 'if_exists', 'status', 'error', 'batch_id', 'updated_at'] as const;
  const upsertEntries = db.prepare(`
    INSERT INTO draft_entries (draft_id, ${WRITTEN.join(', ')})
    SELECT ?, ${WRITTEN.map((_, i) => `value ->> ${i}`).join(', ')} FROM json_each(?) WHERE true
    ON CONFLICT (draft_id, slot, key) DO UPDATE SET ${WRITTEN.filter((c) => c !== 'slot' && c !== 'key').map((c) => `${c} = excluded.${c}`).join(', ')}`);
  const deleteEntry = db.prepare('DELETE FROM draft_entries WHERE draft_id = ? AND slot = ? AND key = ?');
  const setStatusStmt = db.prepare(`
    UPDATE draft_entries SET status = ?, error = ?, batch_id = CASE WHEN ? THEN ? ELSE batch_id END, updated_at = ?
    WHERE draft_id = ? AND slot = ? AND key = ?`);
  const byBatch = db.prepare(`SELECT ${cols} FROM draft_entries WHERE batch_id = ? ORDER BY seq, slot, key`);
  const replaceStmt = db.prepare(`
    UPDATE draft_entries SET kind = :kind, account = :account, listing_id = :listing_id, sku = :sku, price = :price, promoted = :promoted,
      quantity = :quantity, active = :active, user_note = :user_note, game = :game, active_only = :active_only, replaced = :replaced,
      if_exists = :if_exists, status = :status, error = NULL, batch_id = NULL, updated_at = :updated_at
    WHERE draft_id = :draft_id AND slot = :slot AND key = :key`);
  const countsStmt = db.prepare('SELECT status, count(*) AS n FROM draft_entries WHERE draft_id = ? GROUP BY status');
  const waitingStmt = db.prepare(WAITING_COUNTS.queuedWithoutBatch);
  const unqueuedStmt = db.prepare(WAITING_COUNTS.pendingBelow);

  const records = readEntries;
  const nextSeq = z.object({ next_seq: z.number() });

  const repo: DraftsRepo = {
    list: () => parseRows('drafts', draftRow, selectAll.all()),
    get(id) {
      const row = selectOne.get(id);
      return row ? parseRow('drafts', draftRow, row) : null;
    },
    create(name) {
      const id = randomUUID();
      const at = store.clock.now();
      insertDraft.run(id, name, at, at);
      return { draft_id: id, name, created_at: at, updated_at: at };
    },
    rename(id, name) {
      renameStmt.run(name, store.clock.now(), id);
    },
    remove(id) {
      removeStmt.run(id);
    },
    takeSeqs(id, count) {
      const row = takeSeqsStmt.get(count, id);
      if (row === undefined) throw new Error(`no draft ${id}`);
      return parseRow('drafts', nextSeq, row).next_seq - count;
    },
    entry(id, target) {
      const { slot, key } = splitTarget(target);
      const row = selectEntry.get(id, slot, key);
      return row === undefined ? null : readEntry(row);
    },
    entriesFor(id, targets) {
      if (targets.length === 0) return [];
      const pairs = JSON.stringify(targets.map((t) => {
        const { slot, key } = splitTarget(t);
        return [slot, key];
      }));
      return records(plainRows(entriesForStmt, pairs, id));
    },
    entriesPage(id, cursor, limit, only = {}) {
      const kinds = only.kinds ?? [];
      const statuses = only.statuses ?? [];
      const sql = `SELECT ${cols} FROM draft_entries WHERE draft_id = ? AND status != 'dropped'
        ${kinds.length > 0 ? `AND kind IN ${placeholders(kinds)}` : ''} ${statuses.length > 0 ? `AND status IN ${placeholders(statuses)}` : ''}
        ${cursor === null ? '' : 'AND (seq, slot, key) > (?, ?, ?)'} ORDER BY seq, slot, key LIMIT ?`;
      const after = cursor === null ? [] : [cursor.seq, cursor.slot, cursor.key];
      return records(plainRows(db.prepare(sql), id, ...kinds, ...statuses, ...after, limit));
    },
    entriesOfSlot(id, slot, afterKey, limit, statuses) {
      const sql = `SELECT ${cols} FROM draft_entries WHERE draft_id = ? AND slot = ? ${afterKey === null ? '' : 'AND key > ?'}
        AND status IN ${placeholders(statuses)} ORDER BY key LIMIT ?`;
      return records(plainRows(db.prepare(sql), id, slot, ...(afterKey === null ? [] : [afterKey]), ...statuses, limit));
    },
    writeEntries(id, entries) {
      if (entries.length === 0) return;
      const at = store.clock.now();
      store.transaction(() => {
        for (let from = 0; from < entries.length; from += WRITE_RUN) {
          const rows = entries.slice(from, from + WRITE_RUN).map((e) => {
            const columns = changeColumns(e.change);
            if (targetKey(columns.slot, columns.key) !== e.target) throw new Error(`a change to ${targetKey(columns.slot, columns.key)} was written as ${e.target}`);
            const row: Record<string, SQLInputValue> = {
              ...columns, seq: e.seq, status: e.status, error: e.error ? JSON.stringify(e.error) : null, batch_id: e.batchId, updated_at: e.updatedAt,
            };
            return WRITTEN.map((c) => row[c] ?? null);
          });
          upsertEntries.run(id, JSON.stringify(rows));
        }
        touchStmt.run(at, id);
      });
    },
    deleteEntries(id, targets) {
      if (targets.length === 0) return;
      store.transaction(() => {
        for (const t of targets) {
          const { slot, key } = splitTarget(t);
          deleteEntry.run(id, slot, key);
        }
        touchStmt.run(store.clock.now(), id);
      });
    },
    setStatus(id, targets, status, error = null, batchId = undefined) {
      if (targets.length === 0) return;
      const at = store.clock.now();
      const errorText = error ? JSON.stringify(error) : null;
      store.transaction(() => {
        for (const t of targets) {
          const { slot, key } = splitTarget(t);
          setStatusStmt.run(status, errorText, batchId === undefined ? 0 : 1, batchId ?? null, at, id, slot, key);
        }
      });
    },
    moveStatus(id, from, to, only = {}) {
      const { limit, seqBelow } = only;
      const below = seqBelow === undefined ? '' : ' AND seq < ?';
      const bound = seqBelow === undefined ? [] : [seqBelow];
      const set = 'UPDATE draft_entries SET status = ?, error = NULL, batch_id = NULL, updated_at = ?';
      // Through the status index, each row then updated by primary key: without it SQLite walks the whole draft by its
      // primary key (20 ms at 47,000 changes to find the few that failed), and a part walked in draft order would pass
      // again over the rows the parts before it moved.
      const part = limit === undefined ? '' : ' LIMIT ?';
      const sql = `${set} WHERE draft_id = ? AND (slot, key) IN (SELECT slot, key FROM draft_entries INDEXED BY draft_entries_status
        WHERE draft_id = ? AND status IN ${placeholders(from)}${below}${part})`;
      return Number(db.prepare(sql).run(to, store.clock.now(), id, id, ...from, ...bound, ...(limit === undefined ? [] : [limit])).changes);
    },
    entriesByStatus(id, statuses, options = {}) {
      const sql = `SELECT ${cols} FROM draft_entries WHERE draft_id = ? AND status IN ${placeholders(statuses)}
        ${options.unbatched ? 'AND batch_id IS NULL' : ''} ORDER BY seq, slot, key ${options.limit === undefined ? '' : `LIMIT ${Math.floor(options.limit)}`}`;
      return records(plainRows(db.prepare(sql), id, ...statuses));
    },
    entriesOfBatch: (batchId) => records(plainRows(byBatch, batchId)),
    replaceChange(id, target, body, status) {
      const columns = changeColumns(body);
      const { slot, key } = splitTarget(target);
      if (columns.slot !== slot || columns.key !== key) throw new Error(`a change to ${targetKey(columns.slot, columns.key)} cannot replace ${target}`);
      replaceStmt.run({ ...columns, draft_id: id, status, updated_at: store.clock.now() });
    },
    statusCounts(id) {
      return statusCounts('draft_entries', countsStmt.all(id));
    },
    queuedWithoutBatch: (id, alsoBelow = null) =>
      countOf('draft_entries', waitingStmt.get(id)) + (alsoBelow === null ? 0 : countOf('draft_entries', unqueuedStmt.get(id, alsoBelow))),
  };
  return repo;
}
