import { randomUUID } from '../node-crypto.ts';
import { z } from 'zod';
import { ENDPOINT_NAMES, type EndpointName, type RequestOf } from '../api/endpoints.ts';
import { serializedApiErrorSchema } from '../api/errors.ts';
import type { Store } from './db.ts';
import { jsonColumn, parseRow, parseRows } from './sql.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * The apply journal: one run per apply of a draft, one row per batch. A batch
 * is written before it is sent and its outcome after, each in its own
 * committed transaction, so the next start can tell a batch never sent
 * (`planned`: send it) from one sent without a recorded outcome (`sent`:
 * unknown outcome, for the trader to resolve).
 */
export const runState = z.enum(['running', 'finished', 'stopped', 'cancelled']);
export type RunState = z.infer<typeof runState>;

export const batchState = z.enum(['planned', 'sent', 'done', 'failed', 'unknown', 'split', 'resolved']);
export type BatchState = z.infer<typeof batchState>;

export const batchOutcome = lazySchema(() => z.object({
  status: z.enum(['done', 'failed', 'unknown_outcome', 'stopped']),
  error: serializedApiErrorSchema.optional(),
}));
export type BatchOutcomeRecord = z.infer<typeof batchOutcome>;

export const runRow = lazySchema(() => z.object({
  run_id: z.number().int(),
  draft_id: z.string(),
  state: runState,
  started_at: z.number().int(),
  finished_at: z.number().int().nullable(),
  /** While set, the draft's changes below this sequence number are still being queued (see migration 17). */
  queue_below: z.number().int().nullable(),
}));
export type RunRow = z.output<typeof runRow>;

const endpointName = z.enum(ENDPOINT_NAMES as [EndpointName, ...EndpointName[]]);

export const batchRow = lazySchema(() => z.object({
  batch_id: z.string(),
  run_id: z.number().int(),
  parent_id: z.string().nullable(),
  endpoint: endpointName,
  proxy: z.string().nullable(),
  phase: z.number().int(),
  // The request as journaled; it was validated by the request schemas when planned.
  input: jsonColumn(z.record(z.string(), z.unknown())),
  targets: jsonColumn(z.array(z.string())),
  item_count: z.number().int(),
  state: batchState,
  created_at: z.number().int(),
  sent_at: z.number().int().nullable(),
  outcome_at: z.number().int().nullable(),
  outcome: jsonColumn(batchOutcome).nullable(),
}));
export type BatchRow = z.output<typeof batchRow>;

/** Something the service said later about a batch whose outcome is unknown. */
export const evidenceRow = lazySchema(() => z.object({
  target: z.string(),
  at: z.number().int(),
  message: z.string(),
}));
export type EvidenceRow = z.output<typeof evidenceRow>;

export interface NewBatch {
  readonly runId: number;
  readonly parentId: string | null;
  readonly endpoint: EndpointName;
  readonly proxy: string | null;
  readonly phase: number;
  readonly input: RequestOf<EndpointName>;
  readonly targets: readonly string[];
}

export interface JournalRepo {
  /** A running run; `queueBelow`: its changes below this sequence number are still to be queued. */
  createRun(draftId: string, queueBelow?: number | null): RunRow;
  /** Every change of the run is queued. */
  queuedAll(runId: number): void;
  run(runId: number): RunRow | null;
  runs(filter?: { state?: RunState; draftId?: string }): RunRow[];
  finishRun(runId: number, state: Exclude<RunState, 'running'>): void;
  insertBatch(batch: NewBatch): BatchRow;
  batch(batchId: string): BatchRow | null;
  batches(filter: { runId?: number; states?: readonly BatchState[] }): BatchRow[];
  setBatchState(batchId: string, state: BatchState, outcome?: BatchOutcomeRecord | null): void;
  /** A planned batch loses some items before it is sent (they were settled without it): its request and targets now. */
  reviseBatch(batchId: string, input: RequestOf<EndpointName>, targets: readonly string[]): BatchRow;
  deleteBatch(batchId: string): void;
  addEvidence(batchId: string, target: string, message: string): void;
  /** What was said about a batch, oldest first. */
  evidence(batchId: string): EvidenceRow[];
}

export function createJournalRepo(store: Store): JournalRepo {
  const { db } = store;
  const insertRun = db.prepare("INSERT INTO apply_runs (draft_id, state, started_at, queue_below) VALUES (?, 'running', ?, ?)");
  const queuedAllStmt = db.prepare('UPDATE apply_runs SET queue_below = NULL WHERE run_id = ?');
  const selectRun = db.prepare('SELECT * FROM apply_runs WHERE run_id = ?');
  const finishStmt = db.prepare('UPDATE apply_runs SET state = ?, finished_at = ? WHERE run_id = ?');
  const insertBatchStmt = db.prepare(`
    INSERT INTO apply_batches (batch_id, run_id, parent_id, endpoint, proxy, phase, input, targets, item_count, state, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'planned', ?)`);
  const selectBatch = db.prepare('SELECT * FROM apply_batches WHERE batch_id = ?');
  const setSent = db.prepare("UPDATE apply_batches SET state = 'sent', sent_at = coalesce(sent_at, ?) WHERE batch_id = ?");
  const setState = db.prepare('UPDATE apply_batches SET state = ?, outcome_at = ?, outcome = ? WHERE batch_id = ?');
  const setPlanned = db.prepare("UPDATE apply_batches SET state = 'planned', outcome = ? WHERE batch_id = ?");
  const reviseStmt = db.prepare("UPDATE apply_batches SET input = ?, targets = ?, item_count = ? WHERE batch_id = ? AND state = 'planned'");
  const deleteStmt = db.prepare('DELETE FROM apply_batches WHERE batch_id = ?');
  const insertEvidence = db.prepare('INSERT INTO outcome_evidence (batch_id, target, at, message) VALUES (?, ?, ?, ?)');
  const selectEvidence = db.prepare('SELECT target, at, message FROM outcome_evidence WHERE batch_id = ? ORDER BY id');

  const repo: JournalRepo = {
    createRun(draftId, queueBelow = null) {
      const id = Number(insertRun.run(draftId, store.clock.now(), queueBelow).lastInsertRowid);
      const row = repo.run(id);
      if (!row) throw new Error('run vanished after insert');
      return row;
    },
    run(id) {
      const row = selectRun.get(id);
      return row ? parseRow('apply_runs', runRow, row) : null;
    },
    runs(filter = {}) {
      const where: string[] = [];
      const params: string[] = [];
      if (filter.state) {
        where.push('state = ?');
        params.push(filter.state);
      }
      if (filter.draftId) {
        where.push('draft_id = ?');
        params.push(filter.draftId);
      }
      const sql = `SELECT * FROM apply_runs ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY run_id`;
      return parseRows('apply_runs', runRow, db.prepare(sql).all(...params));
    },
    queuedAll(id) {
      queuedAllStmt.run(id);
    },
    finishRun(id, state) {
      finishStmt.run(state, store.clock.now(), id);
    },
    insertBatch(b) {
      const id = randomUUID();
      const itemCount = Array.isArray((b.input as { items?: unknown }).items) ? (b.input as { items: unknown[] }).items.length : 1;
      insertBatchStmt.run(id, b.runId, b.parentId, b.endpoint, b.proxy, b.phase, JSON.stringify(b.input), JSON.stringify(b.targets), itemCount, store.clock.now());
      const row = repo.batch(id);
      if (!row) throw new Error('batch vanished after insert');
      return row;
    },
    batch(id) {
      const row = selectBatch.get(id);
      return row ? parseRow('apply_batches', batchRow, row) : null;
    },
    batches(filter) {
      const where: string[] = [];
      const params: (string | number)[] = [];
      if (filter.runId !== undefined) {
        where.push('run_id = ?');
        params.push(filter.runId);
      }
      if (filter.states) {
        where.push(`state IN (${filter.states.map(() => '?').join(', ')})`);
        params.push(...filter.states);
      }
      const sql = `SELECT * FROM apply_batches ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY rowid`;
      return parseRows('apply_batches', batchRow, db.prepare(sql).all(...params));
    },
    setBatchState(id, state, outcome = null) {
      if (state === 'sent') setSent.run(store.clock.now(), id);
      else if (state === 'planned') setPlanned.run(outcome ? JSON.stringify(outcome) : null, id);
      else setState.run(state, store.clock.now(), outcome ? JSON.stringify(outcome) : null, id);
    },
    reviseBatch(id, input, targets) {
      const items = (input as { items?: unknown }).items;
      if (!Array.isArray(items) || items.length !== targets.length || items.length === 0) throw new Error(`batch ${id} revised to ${targets.length} targets for its items`);
      if (Number(reviseStmt.run(JSON.stringify(input), JSON.stringify(targets), items.length, id).changes) !== 1) throw new Error(`no planned batch ${id} to revise`);
      return repo.batch(id) as BatchRow;
    },
    deleteBatch(id) {
      deleteStmt.run(id);
    },
    addEvidence(batchId, target, message) {
      insertEvidence.run(batchId, target, store.clock.now(), message);
    },
    evidence: (batchId) => parseRows('outcome_evidence', evidenceRow, selectEvidence.all(batchId)),
  };
  return repo;
}
