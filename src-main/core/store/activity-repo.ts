import { z } from 'zod';
import { ENDPOINT_NAMES, type EndpointName } from '../api/endpoints.ts';
import { serializedApiErrorSchema, type SerializedApiError } from '../api/errors.ts';
import type { Store } from './db.ts';
import { chunked, jsonColumn, parseRows, placeholders } from './sql.ts';
import { rowidRow } from './typed-rows.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * The activity log: every request that changes something on the service,
 * what it was about (endpoint, account, the draft targets it carried) and its
 * outcome. It records what the trader needs to audit a bulk apply, and never
 * the API key (there is no column that could hold it, and the error stored is
 * the serialized ApiError, whose body is already redacted).
 */
export const activityStatus = z.enum(['sent', 'done', 'failed', 'unknown_outcome', 'stopped']);
export type ActivityStatus = z.infer<typeof activityStatus>;

const endpointName = z.enum(ENDPOINT_NAMES as [EndpointName, ...EndpointName[]]);

/** An entry that is no request to the service: an alert to a webhook given up (core/alerts/). */
export const ALERT_ENTRY = 'alert';
/** What an entry is about: a service endpoint, or an alert. */
export type EntryName = EndpointName | typeof ALERT_ENTRY;

export const activityRow = lazySchema(() => z.object({
  id: z.number().int(),
  at: z.number().int(),
  endpoint: z.union([endpointName, z.literal(ALERT_ENTRY)]),
  account: z.string().nullable(),
  item_count: z.number().int(),
  targets: jsonColumn(z.array(z.string())),
  status: activityStatus,
  error: jsonColumn(serializedApiErrorSchema).nullable(),
  batch_id: z.string().nullable(),
  outcome_at: z.number().int().nullable(),
  /** What the desk learnt without a request of its own ("sold in trade 61…"), for entries that are not requests. */
  note: z.string().nullable(),
}));
export type ActivityRow = z.output<typeof activityRow>;

export interface ActivityQuery {
  /** Matches endpoint, account or any target (asset ID, SKU…). */
  text?: string;
  status?: ActivityStatus;
  limit?: number;
  /** Only entries with an id below this, for paging back in time. */
  beforeId?: number;
}

export interface ActivityRepo {
  /** Logs a request about to be sent; returns the entry id. */
  recordSent(entry: { batchId: string | null; endpoint: EntryName; account: string | null; targets: readonly string[]; itemCount: number }): number;
  /** Records the outcome of every entry logged for `batchId`. */
  recordOutcome(batchId: string, status: Exclude<ActivityStatus, 'sent'>, error?: SerializedApiError | null): void;
  /**
   * Logs what the desk learnt from a read (`endpoint`) about these targets,
   * e.g. listings sold in a trade: the trader sees it beside the requests.
   */
  recordNote(entry: { endpoint: EndpointName; account: string | null; targets: readonly string[]; note: string }): number;
  list(query?: ActivityQuery): ActivityRow[];
  /** The entries with these ids (those that exist), oldest first. */
  byIds(ids: readonly number[]): ActivityRow[];
  /**
   * Told the ids of entries just added or whose outcome was just recorded,
   * inside the transaction that wrote them: read them after it (the bridge
   * pushes them, batched).
   */
  onChanged(listener: (ids: readonly number[]) => void): () => void;
}

export function createActivityRepo(store: Store): ActivityRepo {
  const { db } = store;
  const insert = db.prepare(`
    INSERT INTO activity_log (at, endpoint, account, item_count, targets, status, batch_id)
    VALUES (?, ?, ?, ?, ?, 'sent', ?)`);
  const outcome = db.prepare(`
    UPDATE activity_log SET status = ?, error = ?, outcome_at = ? WHERE batch_id = ? AND status = 'sent'`);
  const insertNote = db.prepare(`
    INSERT INTO activity_log (at, endpoint, account, item_count, targets, status, outcome_at, note)
    VALUES (?, ?, ?, ?, ?, 'done', ?, ?)`);
  const sentOfBatch = db.prepare(`SELECT id AS r FROM activity_log WHERE batch_id = ? AND status = 'sent'`);
  const listeners = new Set<(ids: readonly number[]) => void>();
  const changed = (ids: readonly number[]) => {
    if (ids.length > 0) for (const listener of [...listeners]) listener(ids);
  };

  return {
    recordSent(e) {
      const result = insert.run(store.clock.now(), e.endpoint, e.account, e.itemCount, JSON.stringify(e.targets), e.batchId);
      const id = Number(result.lastInsertRowid);
      changed([id]);
      return id;
    },
    recordOutcome(batchId, status, error = null) {
      const ids = listeners.size === 0 ? [] : parseRows('activity_log', rowidRow, sentOfBatch.all(batchId)).map((row) => row.r);
      outcome.run(status, error ? JSON.stringify(error) : null, store.clock.now(), batchId);
      changed(ids);
    },
    recordNote(e) {
      const at = store.clock.now();
      const id = Number(insertNote.run(at, e.endpoint, e.account, e.targets.length, JSON.stringify(e.targets), at, e.note).lastInsertRowid);
      changed([id]);
      return id;
    },
    byIds(ids) {
      const rows = chunked(ids).flatMap((part) => db.prepare(`SELECT * FROM activity_log WHERE id IN ${placeholders(part)}`).all(...part));
      return parseRows('activity_log', activityRow, rows).sort((a, b) => a.id - b.id);
    },
    onChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    list(query = {}) {
      const where: string[] = [];
      const params: (string | number)[] = [];
      if (query.text) {
        where.push("(endpoint LIKE ? ESCAPE '\\' OR account LIKE ? ESCAPE '\\' OR targets LIKE ? ESCAPE '\\')");
        const like = `%${query.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        params.push(like, like, like);
      }
      if (query.status) {
        where.push('status = ?');
        params.push(query.status);
      }
      if (query.beforeId !== undefined) {
        where.push('id < ?');
        params.push(query.beforeId);
      }
      const sql = `SELECT * FROM activity_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`;
      params.push(Math.max(1, Math.min(query.limit ?? 500, 5_000)));
      return parseRows('activity_log', activityRow, db.prepare(sql).all(...params));
    },
  };
}
