import { z } from 'zod';
import type { BulkDomain, BulkOp, Rounding } from '../../../src-shared/drafts.ts';
import { scalePrice } from '../../../src-shared/price-formula.ts';
import { NO_FINDINGS, type GuardFindings, type PriceGuard } from '../../../src-shared/price-guard.ts';
import { priceConcern } from '../../../src-shared/price-rules.ts';
import type { Turn } from '../turn.ts';
import { writes, type BulkPatch } from './bulk-patch.ts';
import type { Store } from './db.ts';
import { LOCKED_SQL } from './draft-entry.ts';
import { classifiedSql, computesPrice, opParams, opSql, PROBLEM, TEMP_TABLE } from './bulk-ops-sql.ts';
import { ledgerTable } from './ledger-arms.ts';
import type { SelectedRows } from './ledger-reads.ts';
import { parseRow, parseRows, statementCache } from './sql.ts';
import { countOf, keyRow, keysOf, rowidRow, type Params } from './typed-rows.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * A bulk edit over a selection, in SQL: each selected row is read with the
 * draft laid over it and sorted into "changes", "already so", "left out
 * (why)" or "refused (why)" into a scratch table (`classify`, a part of the
 * selection a step), which the preview walks for its figures and the edit
 * reuses to write every changed row with set-based statements, a part per
 * transaction: one updating the draft's open changes in place, one adding an
 * edit built from the ledger for rows the draft did not change yet. Between
 * steps the event loop runs (the heartbeat, the sends, the screens). Prices
 * go through the one formula the screens show (src-shared/price-formula.ts),
 * registered as a SQL function. What the figures mean to the trader (the
 * words of each reason, the plan) is core/bulk/bulk-edits.ts's.
 */
/** The figures of the rows a preview classified, before they are worded for the trader. */
export interface BulkFigures {
  /** Rows that can take the edit. */
  readonly matched: number;
  /** Rows whose value changes (written unless a price is refused). */
  readonly changed: number;
  /** Rows left out, by the code of why (`missing`, `deleted`, `locked`, `unknown_id`, `ended`, `created_pause`), in the order first met. */
  readonly skipped: readonly { readonly code: string; readonly count: number; readonly sample: readonly string[] }[];
  /** Keys named by ID that no row of the table has. */
  readonly missing: readonly string[];
  /** Rows whose new price cannot be stored, by kind of failure, each with its lowest price (0 for none). */
  readonly refused: readonly { readonly price: number; readonly count: number; readonly sample: readonly string[] }[];
  /** The first few price changes, before → after (price operations only). */
  readonly samples: readonly { readonly key: string; readonly before: number; readonly after: number }[];
  readonly minAfter: number | null;
  readonly maxAfter: number | null;
  /** Price changes beyond the guard the rows were classified with. */
  readonly guard: GuardFindings;
}

const SAMPLES = 5;
/** Rows classified in one step of a preview, and written in one transaction of an edit: some milliseconds each. */
const PART = 1_000;
const WRITE_PART = 1_250;

const skipGroup = lazySchema(() => z.object({ skip: z.string(), n: z.number() }));
const problemGroup = lazySchema(() => z.object({ problem: z.string(), n: z.number(), price: z.number().nullable() }));
const totalsRow = lazySchema(() => z.object({ matched: z.number().nullable(), changed: z.number().nullable(), lo: z.number().nullable(), hi: z.number().nullable() }));
const priceChange = lazySchema(() => z.object({ key: z.string(), b_price: z.number(), n_price: z.number() }));
const concernGroup = lazySchema(() => z.object({ concern: z.string(), n: z.number() }));

export interface BulkRows {
  /**
   * Classifies the selected rows into the scratch table, storing nothing
   * (draftId null: over the ledger alone), a part at a time, giving the event
   * loop back (`turn`) between parts. `resumeSeq` leaves out rows an
   * interrupted write of this edit already wrote.
   */
  classify(draftId: string | null, domain: BulkDomain, rows: SelectedRows, op: BulkOp, guard: PriceGuard, resumeSeq?: number): Promise<void>;
  /** The figures of the rows classified last. */
  figures(rows: SelectedRows, op: BulkOp): Promise<BulkFigures>;
  /**
   * Writes the rows classified last as changes, with sequence number `seq`
   * and time `at`, a part per transaction (see core/bulk/bulk-writes.ts for
   * the journal that finishes an interrupted one). Until the last part the
   * rows not written yet are the patch (see bulk-patch.ts); after a failed
   * part it stays, and writing the same edit again goes on from there.
   */
  write(draftId: string, domain: BulkDomain, op: BulkOp, seq: number, at: number, part: (write: () => void, last: boolean) => void): Promise<void>;
  /** The edit being written into a draft (into its `domain` table, when given), as a patch over it (null when none is). */
  patch(draftId: string, domain?: BulkDomain): BulkPatch | null;
  /** Forgets a patch whose edit is left for the next start to finish (the screens read the draft as stored). */
  abandon(): void;
}

export function createBulkRows(store: Pick<Store, 'db' | 'transaction' | 'clock'>, turn: Turn): BulkRows {
  const { db } = store;
  db.function('scale_price', { deterministic: true }, (price, percent, rounding, size, offset) =>
    scalePrice(Number(price), Number(percent), rounding as Rounding, { size: Number(size), offset: Number(offset) }));
  db.function('price_concern', { deterministic: true }, (before, after, maxDrop, floor, maxRise) =>
    priceConcern(Number(before), Number(after), { maxDropPercent: Number(maxDrop), floorCents: floor === null ? null : Number(floor), maxRiseMultiple: Number(maxRise) }));
  // The selection's, the operation's and the draft's parameters go together; each statement takes the ones it names.
  const prepared = statementCache(db, 100);
  const read = <T extends z.ZodType>(schema: T, sql: string, params: Params = {}) => parseRows('bulk_rows', schema, prepared(sql).all(params));

  /**
   * Classifies the selected rows into bulk_rows: their values as the draft
   * leaves them and what the operation makes of them, computed once a row (a
   * materialized step: the formula is a function call), then whether that is
   * allowed. The draft's creates go by key, the ledger's rows by rowid, PART
   * rows a step.
   */
  async function classify(draftId: string | null, domain: BulkDomain, rows: SelectedRows, op: BulkOp, guard: PriceGuard, resumeSeq?: number) {
    const [set, same] = opSql(op);
    const priced = computesPrice(op);
    const changes = `skip IS NULL AND NOT (${same})`;
    const skip = op.op === 'setActive' ? `CASE WHEN ${changes} AND is_create = 1 THEN 'created_pause' ELSE skip END` : 'skip';
    const slot = domain === 'listings' ? 'L' : 'B';
    // Rows an interrupted write of this edit wrote already (they carry its sequence number).
    const notWritten = resumeSeq === undefined ? '' : `AND key NOT IN (SELECT key FROM draft_entries WHERE draft_id = :draft AND slot = '${slot}' AND seq = :resume_seq)`;
    const params = {
      ...rows.params, ...opParams(op), draft: draftId ?? '', resume_seq: resumeSeq ?? null,
      g_drop: guard.maxDropPercent, g_floor: guard.floorCents, g_rise: guard.maxRiseMultiple,
    };
    const insert = (part: string, bounds: Params) => Number(prepared(`INSERT INTO temp.bulk_rows (key, e_open, is_create, account, listing_id, e_note, skip,
        b_price, b_promoted, b_note, b_active, b_quantity, n_price, n_promoted, n_note, n_active, n_quantity, same, problem, concern)
      WITH base AS MATERIALIZED (SELECT *, ${set} FROM (${classifiedSql(domain, part)}))
      SELECT key, e_open, is_create, account, listing_id, e_note, ${skip}, b_price, b_promoted, b_note, b_active, b_quantity,
        n_price, n_promoted, n_note, n_active, n_quantity, ${same},
        ${priced ? `CASE WHEN ${changes} THEN ${PROBLEM} END` : 'NULL'},
        ${priced ? `CASE WHEN ${changes} THEN price_concern(b_price, n_price, :g_drop, :g_floor, :g_rise) END` : 'NULL'}
      FROM base`).run({ ...params, ...bounds }).changes);
    // Every step in a turn of its own, the first too: the turn that asked for the preview (and a page asked with it) holds none.
    await turn();
    // A fresh table: emptying one of fifty thousand rows takes longer than making it again.
    db.exec(`DROP TABLE IF EXISTS temp.bulk_rows; ${TEMP_TABLE}`);
    for (let after = ''; ;) {
      if (insert(`SELECT * FROM (${rows.arms.created}) WHERE key > :c_after ${notWritten} ORDER BY key LIMIT ${PART}`, { c_after: after }) < PART) break;
      after = parseRow('bulk_rows', keyRow, db.prepare('SELECT key FROM temp.bulk_rows ORDER BY rowid DESC LIMIT 1').get()).key;
      await turn();
    }
    // The ledger's rows PART at a time by rowid, however sparse the rowids (the end of each part found in the index).
    const table = ledgerTable(domain);
    const partEnd = db.prepare(`SELECT rowid AS r FROM ${table} WHERE rowid > ? ORDER BY rowid LIMIT 1 OFFSET ${PART - 1}`);
    for (let lo: number | null = 0; lo !== null;) {
      await turn();
      const end: unknown = partEnd.get(lo);
      const hi: number | null = end === undefined ? null : parseRow(table, rowidRow, end).r;
      insert(`SELECT * FROM (${rows.arms.ledger}) WHERE t1 > :lo ${hi === null ? '' : 'AND t1 <= :hi'} ${notWritten}`, { lo, hi });
      lo = hi;
    }
  }

  /** The figures of the classified rows. */
  async function figures(rows: SelectedRows, op: BulkOp): Promise<BulkFigures> {
    await turn();
    const sample = (where: string, params: Params = {}) => keysOf('bulk_rows', prepared(`SELECT key FROM temp.bulk_rows WHERE ${where} LIMIT ${SAMPLES}`).all(params));
    const skipped = read(skipGroup, 'SELECT skip, count(*) AS n FROM temp.bulk_rows WHERE skip IS NOT NULL GROUP BY skip ORDER BY min(rowid)')
      .map((g) => ({ code: g.skip, count: g.n, sample: sample('skip = :skip', { skip: g.skip }) }));
    // Keys named by ID that no row of the table has.
    const missing = rows.ids === null ? []
      : keysOf('bulk_rows', prepared('SELECT value AS key FROM json_each(:sel_ids) WHERE value NOT IN (SELECT key FROM temp.bulk_rows)').all(rows.params));
    const refused = read(problemGroup, 'SELECT problem, count(*) AS n, min(n_price) AS price FROM temp.bulk_rows WHERE problem IS NOT NULL GROUP BY problem ORDER BY min(rowid)')
      .map((g) => ({ price: g.price ?? 0, count: g.n, sample: sample('problem = :problem', { problem: g.problem }) }));
    await turn();
    const totals = read(totalsRow, `SELECT sum(skip IS NULL) AS matched, sum(${writes()}) AS changed, min(CASE WHEN ${writes()} THEN n_price END) AS lo,
        max(CASE WHEN ${writes()} THEN n_price END) AS hi FROM temp.bulk_rows`)[0];
    const prices = computesPrice(op);
    const change = (r: z.output<typeof priceChange> | undefined) => (r ? { key: r.key, before: r.b_price, after: r.n_price } : null);
    const samples = prices ? read(priceChange, `SELECT key, b_price, n_price FROM temp.bulk_rows WHERE ${writes()} LIMIT ${SAMPLES}`).map((r) => ({ key: r.key, before: r.b_price, after: r.n_price })) : [];
    await turn();
    const counts = new Map(read(concernGroup, 'SELECT concern, count(*) AS n FROM temp.bulk_rows WHERE concern IS NOT NULL GROUP BY concern').map((r) => [r.concern, r.n]));
    const guard: GuardFindings = counts.size === 0 ? NO_FINDINGS : {
      drops: counts.get('drop') ?? 0,
      belowFloor: counts.get('floor') ?? 0,
      rises: counts.get('rise') ?? 0,
      worstDrop: change(read(priceChange, "SELECT key, b_price, n_price FROM temp.bulk_rows WHERE concern IN ('drop', 'floor') ORDER BY n_price * 1.0 / b_price, rowid LIMIT 1")[0]),
      worstRise: change(read(priceChange, "SELECT key, b_price, n_price FROM temp.bulk_rows WHERE concern = 'rise' ORDER BY n_price * 1.0 / b_price DESC, rowid LIMIT 1")[0]),
    };
    return {
      matched: totals?.matched ?? 0, changed: totals?.changed ?? 0, skipped, missing, refused, samples,
      minAfter: prices ? (totals?.lo ?? null) : null, maxAfter: prices ? (totals?.hi ?? null) : null, guard,
    };
  }

  let live: (BulkPatch & { readonly seq: number }) | null = null;

  async function write(draftId: string, domain: BulkDomain, op: BulkOp, seq: number, at: number, part: (write: () => void, last: boolean) => void): Promise<void> {
    const listings = domain === 'listings';
    const slot = listings ? 'L' : 'B';
    const params = { draft: draftId, seq, at };
    // A note is written only where the operation sets one, or the change already had one: absent means "leave it".
    const notes = op.op === 'setNote' || op.op === 'clearNote';
    const note = notes ? 'c.n_note' : 'c.e_note';
    const fields = listings
      ? `price = c.n_price, promoted = c.n_promoted, user_note = ${note}`
      : `price = c.n_price, quantity = c.n_quantity, active = CASE WHEN c.is_create = 1 THEN NULL ELSE c.n_active END, user_note = ${note}`;
    const insertColumns = listings
      ? `'listing.edit', c.account, c.listing_id, NULL, c.n_price, c.n_promoted, NULL, NULL, ${notes ? 'c.n_note' : 'NULL'}`
      : `'buyOrder.edit', c.account, NULL, c.key, c.n_price, NULL, c.n_quantity, c.n_active, ${notes ? 'c.n_note' : 'NULL'}`;
    const inPart = 'c.rowid > :lo AND c.rowid <= :hi';
    // The part's keys drive each statement (looked up in the draft by primary key), not a walk of the whole draft.
    const partKeys = `d.key IN (SELECT key FROM temp.bulk_rows WHERE rowid > :lo AND rowid <= :hi)`;
    // A row an apply took meanwhile (queued, sent, unknown) is never touched: it is the apply's now.
    const statements = [
      // Rows already pending and in no batch keep those columns: an index on a column a statement sets is written again for each row.
      `UPDATE draft_entries AS d SET ${fields}, seq = :seq, updated_at = :at FROM temp.bulk_rows AS c
        WHERE ${inPart} AND c.e_open = 1 AND ${writes('c.')} AND d.draft_id = :draft AND d.slot = '${slot}' AND ${partKeys} AND d.key = c.key
          AND d.status = 'pending' AND d.batch_id IS NULL AND d.error IS NULL`,
      `UPDATE draft_entries AS d SET ${fields}, seq = :seq, status = 'pending', error = NULL, batch_id = NULL, updated_at = :at
        FROM temp.bulk_rows AS c
        WHERE ${inPart} AND c.e_open = 1 AND ${writes('c.')} AND d.draft_id = :draft AND d.slot = '${slot}' AND ${partKeys} AND d.key = c.key
          AND NOT (d.status = 'pending' AND d.batch_id IS NULL AND d.error IS NULL) AND d.status NOT IN ${LOCKED_SQL}`,
      `INSERT INTO draft_entries (draft_id, slot, key, seq, kind, account, listing_id, sku, price, promoted, quantity, active, user_note, status, updated_at)
        SELECT :draft, '${slot}', c.key, :seq, ${insertColumns}, 'pending', :at FROM temp.bulk_rows AS c
        WHERE ${inPart} AND c.e_open = 0 AND ${writes('c.')}
        ON CONFLICT (draft_id, slot, key) DO UPDATE SET seq = excluded.seq, kind = excluded.kind, account = excluded.account,
          listing_id = excluded.listing_id, sku = excluded.sku, price = excluded.price, promoted = excluded.promoted,
          quantity = excluded.quantity, active = excluded.active, user_note = excluded.user_note, game = NULL, active_only = NULL,
          replaced = NULL, if_exists = NULL, status = 'pending', error = NULL, batch_id = NULL, updated_at = excluded.updated_at
        WHERE draft_entries.status NOT IN ${LOCKED_SQL}`,
    ].map(prepared);
    const last = countOf('bulk_rows', db.prepare('SELECT coalesce(max(rowid), 0) AS n FROM temp.bulk_rows').get());
    const again = live !== null && live.draftId === draftId && live.seq === seq;
    live = { draftId, domain, notes, at, seq, writtenTo: again && live ? live.writtenTo : 0 };
    for (let lo = live.writtenTo; lo < last; lo += WRITE_PART) {
      // A turn before each part, the first too: the edit is answered (and its first page read) before any part is written.
      await turn();
      const bounds = { ...params, lo, hi: lo + WRITE_PART };
      part(() => {
        for (const statement of statements) statement.run(bounds);
      }, lo + WRITE_PART >= last);
      live = { ...live, writtenTo: lo + WRITE_PART };
    }
    live = null;
  }

  return {
    classify,
    figures,
    write,
    patch: (draftId, domain) => (live !== null && live.draftId === draftId && (domain === undefined || live.domain === domain) ? live : null),
    abandon: () => void (live = null),
  };
}
