import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { change, changeError, changeStatus, type ChangeError, type ChangeStatus, type DraftEntry } from '../drafts/change.ts';
import { patchBody, type PatchBody } from '../drafts/patch.ts';
import type { Store } from './db.ts';
import { checkedRows, chunked, jsonColumn, parseRow, parseRows, placeholders, type CheckedRows } from './sql.ts';

/**
 * Drafts, their changes (one row per target) and their unfolded bulk patches.
 * Every write here is its own committed transaction unless the caller wraps
 * several in `store.transaction`, so an acknowledged edit is on disk.
 */
export const draftRow = z.object({
  draft_id: z.string(),
  name: z.string(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type DraftRow = z.output<typeof draftRow>;

const entryRow = z
  .object({
    target: z.string(),
    seq: z.number().int(),
    body: jsonColumn(change),
    status: changeStatus,
    error: jsonColumn(changeError).nullable(),
    batch_id: z.string().nullable(),
    updated_at: z.number().int(),
  })
  .transform((r): DraftEntry => ({
    target: r.target, seq: r.seq, change: r.body, status: r.status, error: r.error, batchId: r.batch_id, updatedAt: r.updated_at,
  }));

const patchRow = z.object({
  patch_id: z.number().int(),
  seq: z.number().int(),
  body: jsonColumn(patchBody),
});
export type PatchRow = z.output<typeof patchRow>;

/** What folding needs of a stored patch: its targets, without its values (a 50,000-row body's prices cost most of its parsing). */
const patchTargetsRow = z.object({
  patch_id: z.number().int(),
  seq: z.number().int(),
  domain: patchBody.shape.domain,
  ids: jsonColumn(patchBody.shape.ids),
});
export type PatchTargets = z.output<typeof patchTargetsRow>;

export type StatusCounts = Partial<Record<ChangeStatus, number>>;

export interface DraftsRepo {
  list(): DraftRow[];
  get(draftId: string): DraftRow | null;
  create(name: string): DraftRow;
  rename(draftId: string, name: string): void;
  remove(draftId: string): void;
  /** All rows, tombstones included (the service decides what they mean). */
  entries(draftId: string): DraftEntry[];
  /** The same rows, each checked when asked for (see `CheckedRows`). */
  entriesChecked(draftId: string): CheckedRows<DraftEntry>;
  entriesFor(draftId: string, targets: readonly string[]): DraftEntry[];
  /** Inserts or replaces rows and stamps the draft as updated. */
  writeEntries(draftId: string, entries: readonly DraftEntry[]): void;
  deleteEntries(draftId: string, targets: readonly string[]): void;
  /**
   * Sets the status (and error) of these rows. `batchId`: undefined keeps the
   * row's batch, null clears it.
   */
  setStatus(draftId: string, targets: readonly string[], status: ChangeStatus, error?: ChangeError | null, batchId?: string | null): void;
  /** Rows with one of these statuses (apply planning and recovery). */
  entriesByStatus(draftId: string, statuses: readonly ChangeStatus[]): DraftEntry[];
  /** Rows that belong to a journaled batch. */
  entriesOfBatch(batchId: string): DraftEntry[];
  /** Replaces a row's change in place (a resolution that adjusts it), keeping its seq. */
  replaceChange(draftId: string, target: string, body: DraftEntry['change'], status: ChangeStatus): void;
  statusCounts(draftId: string): StatusCounts;
  patches(draftId: string): PatchRow[];
  patchTargets(draftId: string): PatchTargets[];
  /** Bulk patches not yet folded into rows (counted, not read). */
  patchCount(draftId: string): number;
  addPatch(draftId: string, seq: number, body: PatchBody): number;
  removePatch(patchId: number): void;
  /** Tombstones only matter while a patch could replay over them. */
  purgeTombstones(draftId: string): void;
  maxSeq(draftId: string): number;
  /**
   * Bumped by every write to any draft's rows or patches: a reader that spans
   * several turns (the drafts' warm-up) keeps what it read only if this has
   * not moved meanwhile.
   */
  writes(): number;
}

export function createDraftsRepo(store: Store): DraftsRepo {
  const { db } = store;
  const selectAll = db.prepare('SELECT * FROM drafts ORDER BY created_at, draft_id');
  const selectOne = db.prepare('SELECT * FROM drafts WHERE draft_id = ?');
  const insertDraft = db.prepare('INSERT INTO drafts (draft_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)');
  const renameStmt = db.prepare('UPDATE drafts SET name = ?, updated_at = ? WHERE draft_id = ?');
  const touchStmt = db.prepare('UPDATE drafts SET updated_at = ? WHERE draft_id = ?');
  const removeStmt = db.prepare('DELETE FROM drafts WHERE draft_id = ?');
  const selectEntries = db.prepare('SELECT * FROM draft_changes WHERE draft_id = ? ORDER BY seq, target');
  const upsertEntry = db.prepare(`
    INSERT INTO draft_changes (draft_id, target, seq, body, status, error, batch_id, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (draft_id, target) DO UPDATE SET seq = excluded.seq, body = excluded.body,
      status = excluded.status, error = excluded.error, batch_id = excluded.batch_id, updated_at = excluded.updated_at`);
  const deleteEntry = db.prepare('DELETE FROM draft_changes WHERE draft_id = ? AND target = ?');
  const setStatusStmt = db.prepare(`
    UPDATE draft_changes SET status = ?, error = ?, batch_id = CASE WHEN ? THEN ? ELSE batch_id END, updated_at = ?
    WHERE draft_id = ? AND target = ?`);
  const byBatch = db.prepare('SELECT * FROM draft_changes WHERE batch_id = ? ORDER BY seq');
  const replaceStmt = db.prepare(`
    UPDATE draft_changes SET body = ?, status = ?, error = NULL, batch_id = NULL, updated_at = ? WHERE draft_id = ? AND target = ?`);
  const countsStmt = db.prepare('SELECT status, count(*) AS n FROM draft_changes WHERE draft_id = ? GROUP BY status');
  const selectPatches = db.prepare('SELECT patch_id, seq, body FROM draft_patches WHERE draft_id = ? ORDER BY seq');
  const selectPatchTargets = db.prepare(
    "SELECT patch_id, seq, json_extract(body, '$.domain') AS domain, json_extract(body, '$.ids') AS ids FROM draft_patches WHERE draft_id = ? ORDER BY seq",
  );
  const countPatches = db.prepare('SELECT count(*) AS n FROM draft_patches WHERE draft_id = ?');
  const insertPatch = db.prepare('INSERT INTO draft_patches (draft_id, seq, body, created_at) VALUES (?, ?, ?, ?)');
  const removePatchStmt = db.prepare('DELETE FROM draft_patches WHERE patch_id = ?');
  const purgeStmt = db.prepare("DELETE FROM draft_changes WHERE draft_id = ? AND status = 'dropped'");
  const maxSeqStmt = db.prepare(`
    SELECT max(coalesce((SELECT max(seq) FROM draft_changes WHERE draft_id = ?1), 0),
               coalesce((SELECT max(seq) FROM draft_patches WHERE draft_id = ?1), 0)) AS seq`);

  let writes = 0;
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
      writes += 1;
      removeStmt.run(id);
    },
    entries: (id) => parseRows('draft_changes', entryRow, selectEntries.all(id)),
    entriesChecked: (id) => checkedRows('draft_changes', entryRow, selectEntries.all(id)),
    entriesFor(id, targets) {
      const out: DraftEntry[] = [];
      for (const part of chunked(targets)) {
        const rows = db.prepare(`SELECT * FROM draft_changes WHERE draft_id = ? AND target IN ${placeholders(part)}`).all(id, ...part);
        out.push(...parseRows('draft_changes', entryRow, rows));
      }
      return out;
    },
    writeEntries(id, entries) {
      writes += 1;
      const at = store.clock.now();
      store.transaction(() => {
        for (const e of entries) {
          upsertEntry.run(id, e.target, e.seq, JSON.stringify(e.change), e.status, e.error ? JSON.stringify(e.error) : null, e.batchId, e.updatedAt);
        }
        touchStmt.run(at, id);
      });
    },
    deleteEntries(id, targets) {
      writes += 1;
      store.transaction(() => {
        for (const t of targets) deleteEntry.run(id, t);
        touchStmt.run(store.clock.now(), id);
      });
    },
    setStatus(id, targets, status, error = null, batchId = undefined) {
      const at = store.clock.now();
      const errorText = error ? JSON.stringify(error) : null;
      writes += 1;
      store.transaction(() => {
        for (const t of targets) setStatusStmt.run(status, errorText, batchId === undefined ? 0 : 1, batchId ?? null, at, id, t);
      });
    },
    entriesByStatus(id, statuses) {
      const sql = `SELECT * FROM draft_changes WHERE draft_id = ? AND status IN ${placeholders(statuses)} ORDER BY seq`;
      return parseRows('draft_changes', entryRow, db.prepare(sql).all(id, ...statuses));
    },
    entriesOfBatch: (batchId) => parseRows('draft_changes', entryRow, byBatch.all(batchId)),
    replaceChange(id, target, body, status) {
      writes += 1;
      replaceStmt.run(JSON.stringify(body), status, store.clock.now(), id, target);
    },
    statusCounts(id) {
      const counts: StatusCounts = {};
      for (const row of countsStmt.all(id) as { status: ChangeStatus; n: number }[]) counts[row.status] = row.n;
      return counts;
    },
    patches: (id) => parseRows('draft_patches', patchRow, selectPatches.all(id)),
    patchTargets: (id) => parseRows('draft_patches', patchTargetsRow, selectPatchTargets.all(id)),
    patchCount: (id) => Number((countPatches.get(id) as { n: number }).n),
    addPatch(id, seq, body) {
      writes += 1;
      const at = store.clock.now();
      return store.transaction(() => {
        const result = insertPatch.run(id, seq, JSON.stringify(body), at);
        touchStmt.run(at, id);
        return Number(result.lastInsertRowid);
      });
    },
    removePatch(patchId) {
      writes += 1;
      removePatchStmt.run(patchId);
    },
    purgeTombstones(id) {
      writes += 1;
      purgeStmt.run(id);
    },
    maxSeq: (id) => Number((maxSeqStmt.get(id) as { seq: number | null }).seq ?? 0),
    writes: () => writes,
  };
  return repo;
}
