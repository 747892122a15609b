import type { Store } from '../store/db.ts';
import { statementCache } from '../store/sql.ts';
import { scalePrice } from '../../../src-shared/price-formula.ts';
import type { BulkDomain, BulkOp } from '../../../src-shared/drafts.ts';
import { LOCKED_REASON, LOCKED_SQL } from '../drafts/change.ts';
import { DELETED_REASON, ENDED_REASON, UNKNOWN_ID_REASON } from '../ledger/ledger-rows.ts';
import { ledgerTable, type Params } from '../store/ledger-arms.ts';
import { priceProblem } from './price-check.ts';
import type { GuardFindings, PriceGuard } from '../drafts/guard-tally.ts';
import { NO_FINDINGS, priceConcern } from '../../../src-shared/price-guard.ts';
import type { SelectedRows } from '../ledger/ledger-query.ts';
import type { Turn } from '../turn.ts';
import { writes, type BulkPatch } from '../store/bulk-patch.ts';

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
 * registered as a SQL function.
 */
/** Rows grouped by the reason they were left out or refused: a count, a few keys. */
export interface RowsByReason {
  readonly reason: string;
  readonly count: number;
  readonly sample: readonly string[];
}

export interface BulkPlan {
  /** Rows the selection named that can take the edit. */
  readonly matched: number;
  /** Rows whose value changes. */
  readonly changed: number;
  /** Rows left out, with why (listing ID unknown, being applied, deleted in the draft): the edit goes on without them. */
  readonly skipped: readonly RowsByReason[];
  /** Rows whose result would be invalid: non-empty means nothing changes. */
  readonly refused: readonly RowsByReason[];
  /** The first few price changes, before → after, for the preview. */
  readonly samples: readonly { readonly key: string; readonly before: number; readonly after: number }[];
  readonly minAfter: number | null;
  readonly maxAfter: number | null;
  /** Price changes beyond the trader's guard (see price-guard.ts). */
  readonly guard: GuardFindings;
}

const LISTING_ONLY = new Set(['setPromoted']);
const BUY_ORDER_ONLY = new Set(['setActive', 'setQuantity']);
const SAMPLES = 5;
const NOT_FOUND_REASON = 'not in the ledger';
const CREATED_PAUSE_REASON = 'created in this draft: it cannot be paused before it exists';

/** Skip codes the SQL gives, and what they say. */
const SKIP_REASONS: Readonly<Record<string, string>> = {
  missing: NOT_FOUND_REASON, deleted: DELETED_REASON, locked: LOCKED_REASON, unknown_id: UNKNOWN_ID_REASON, ended: ENDED_REASON,
  created_pause: CREATED_PAUSE_REASON,
};

/** Rows classified in one step of a preview, and written in one transaction of an edit: some milliseconds each. */
const PART = 2_000;
const WRITE_PART = 2_500;
const SETTLED = "('done', 'dropped')";

/**
 * Each selected row (an arm row, see ledger-sql.ts) with what the draft makes
 * of it: the values a formula starts from (`b_*`) and why it is left out (`skip`).
 */
function classifiedSql(domain: BulkDomain, rows: string): string {
  const listings = domain === 'listings';
  const createKind = listings ? 'listing.create' : 'buyOrder.create';
  const editKind = listings ? 'listing.edit' : 'buyOrder.edit';
  const ended = listings ? "state IN ('sold_in_trade', 'sold', 'not_on_service')" : '0';
  const unknownId = listings ? 'listing_id IS NULL' : '0';
  const removedByAll = listings ? "(:deleteAll IS NOT NULL AND (:deleteAll = 0 OR state = 'active'))" : ':deleteAll = 1';
  const eOpen = `(e_status IS NOT NULL AND e_status NOT IN ${SETTLED})`;
  const xOpen = `(x_status IS NOT NULL AND x_status NOT IN ${SETTLED})`;
  // coalesce: a row with no change has a NULL status, and `NOT (NULL IN …)` is NULL, which would let a deleted row through.
  const locked = `(coalesce(e_status, '') IN ${LOCKED_SQL} OR coalesce(x_status, '') IN ${LOCKED_SQL})`;
  const isCreate = `(${eOpen} AND e_kind = '${createKind}')`;
  // A row the draft lists again after deleting it takes the create's values, as the table shows it.
  const own = (field: string, ledger: string) => `CASE WHEN ${eOpen} AND e_kind IN ('${createKind}', '${editKind}') AND ${field} IS NOT NULL THEN ${field} ELSE ${ledger} END`;
  const values = `SELECT key, arm, ${eOpen} AS e_open, ${isCreate} AS is_create, account, listing_id, e_note,
      CASE
        WHEN ${isCreate} THEN CASE WHEN ${locked} THEN 'locked' ELSE NULL END
        WHEN ${xOpen} AND NOT ${locked} THEN 'deleted'
        WHEN ${removedByAll} THEN 'deleted'
        WHEN ${locked} THEN 'locked'
        WHEN ${unknownId} THEN 'unknown_id'
        WHEN ${ended} THEN 'ended'
        ELSE NULL END AS skip,
      ${own('e_price', 'price')} AS b_price, ${own('e_promoted', 'promoted')} AS b_promoted,
      coalesce(${own('e_note', 'user_note')}, '') AS b_note, CASE WHEN ${isCreate} THEN 1 ELSE ${own('e_active', 'active')} END AS b_active,
      ${own('e_quantity', 'quantity')} AS b_quantity
    FROM (${rows})`;
  return values;
}

/** The values an operation sets (`n_price`, …) and when a row already has them. */
function opSql(op: BulkOp): [string, string] {
  const keep = 'b_price AS n_price, b_promoted AS n_promoted, b_note AS n_note, b_active AS n_active, b_quantity AS n_quantity';
  const withPrice = (price: string) => `${price} AS n_price, b_promoted AS n_promoted, b_note AS n_note, b_active AS n_active, b_quantity AS n_quantity`;
  switch (op.op) {
    case 'setPrice': return [withPrice(':op_cents'), 'n_price = b_price'];
    case 'addCents': return [withPrice('b_price + :op_cents'), 'n_price = b_price'];
    case 'multiply': return [withPrice('scale_price(b_price, :op_percent, :op_rounding, :op_size, :op_offset)'), 'n_price = b_price'];
    case 'setPromoted': return [keep.replace('b_promoted AS n_promoted', ':op_value AS n_promoted'), 'n_promoted = b_promoted'];
    case 'setNote': return [keep.replace('b_note AS n_note', ':op_note AS n_note'), 'n_note = b_note'];
    case 'clearNote': return [keep.replace('b_note AS n_note', "'' AS n_note"), 'n_note = b_note'];
    case 'setActive': return [keep.replace('b_active AS n_active', ':op_value AS n_active'), 'n_active = b_active'];
    case 'setQuantity': return [keep.replace('b_quantity AS n_quantity', ':op_quantity AS n_quantity'), 'n_quantity = b_quantity'];
  }
}

function opParams(op: BulkOp): Params {
  switch (op.op) {
    case 'setPrice':
    case 'addCents': return { op_cents: op.cents };
    case 'multiply': return { op_percent: op.percent, op_rounding: op.rounding, op_size: op.step?.size ?? 1, op_offset: op.step?.offset ?? 0 };
    case 'setPromoted':
    case 'setActive': return { op_value: op.value };
    case 'setNote': return { op_note: op.note };
    case 'clearNote': return {};
    case 'setQuantity': return { op_quantity: op.quantity };
  }
}

const computesPrice = (op: BulkOp) => op.op === 'setPrice' || op.op === 'addCents' || op.op === 'multiply';

/** The classified rows of one bulk edit, kept for its preview's figures and for writing it. */
// n_price: INTEGER affinity stores a whole computed price (SQLite computes in REAL once a bound number joins in) as an integer.
const TEMP_TABLE = `CREATE TEMP TABLE IF NOT EXISTS bulk_rows (
  key TEXT NOT NULL UNIQUE, e_open INTEGER NOT NULL, is_create INTEGER NOT NULL, account TEXT, listing_id TEXT, e_note TEXT,
  skip TEXT, b_price INTEGER, b_promoted INTEGER, b_note TEXT, b_active INTEGER, b_quantity INTEGER,
  n_price INTEGER, n_promoted INTEGER, n_note TEXT, n_active INTEGER, n_quantity INTEGER,
  same INTEGER NOT NULL, problem TEXT, concern TEXT)`;

/** Why a computed price cannot be stored (the cents rule), as a class the reasons are looked up by. */
const PROBLEM = `CASE WHEN n_price IS NULL OR n_price != CAST(n_price AS INTEGER) THEN 'fraction'
  WHEN n_price <= 0 THEN 'not-positive' WHEN n_price > 9007199254740991 THEN 'too-large' ELSE NULL END`;


export interface BulkEdits {
  /**
   * What a bulk edit would do, storing nothing (draftId null: over the ledger
   * alone): the selection is classified a part at a time into the scratch
   * table, giving the event loop back (`turn`) between parts. `resumeSeq`
   * leaves out rows an interrupted write of this edit already wrote.
   */
  preview(draftId: string | null, domain: BulkDomain, rows: SelectedRows, op: BulkOp, guard: PriceGuard, resumeSeq?: number): Promise<BulkPlan>;
  /**
   * Writes the rows the last preview classified as changes, with sequence
   * number `seq` and time `at`, a part per transaction (see bulk-writes.ts
   * for the journal that finishes an interrupted one). Until the last part
   * the rows not written yet are the patch (see bulk-patch.ts); after a
   * failed part it stays, and writing the same edit again goes on from there.
   */
  write(draftId: string, domain: BulkDomain, op: BulkOp, seq: number, at: number, part: (write: () => void, last: boolean) => void): Promise<void>;
  /** The edit being written into a draft (into its `domain` table, when given), as a patch over it (null when none is). */
  patch(draftId: string, domain?: BulkDomain): BulkPatch | null;
  /** Forgets a patch whose edit is left for the next start to finish (the screens read the draft as stored). */
  abandon(): void;
}

export function createBulkEdits(store: Pick<Store, 'db' | 'transaction' | 'clock'>, turn: Turn): BulkEdits {
  const { db } = store;
  db.function('scale_price', { deterministic: true }, (price, percent, rounding, size, offset) =>
    scalePrice(Number(price), Number(percent), rounding as 'nearest' | 'up' | 'down', { size: Number(size), offset: Number(offset) }));
  db.function('price_concern', { deterministic: true }, (before, after, maxDrop, floor, maxRise) =>
    priceConcern(Number(before), Number(after), { maxDropPercent: Number(maxDrop), floorCents: floor === null ? null : Number(floor), maxRiseMultiple: Number(maxRise) }));
  // The selection's, the operation's and the draft's parameters go together; each statement takes the ones it names.
  const prepared = statementCache(db, 100);
  const all = <T>(sql: string, params: Params = {}) => prepared(sql).all(params) as T[];

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
    // A fresh table: emptying one of fifty thousand rows takes longer than making it again.
    db.exec(`DROP TABLE IF EXISTS temp.bulk_rows; ${TEMP_TABLE}`);
    for (let after = ''; ;) {
      if (insert(`SELECT * FROM (${rows.arms.created}) WHERE key > :c_after ${notWritten} ORDER BY key LIMIT ${PART}`, { c_after: after }) < PART) break;
      after = (db.prepare('SELECT key FROM temp.bulk_rows ORDER BY rowid DESC LIMIT 1').get() as { key: string }).key;
      await turn();
    }
    // The ledger's rows PART at a time by rowid, however sparse the rowids (the end of each part found in the index).
    const table = ledgerTable(domain);
    const partEnd = db.prepare(`SELECT rowid AS r FROM ${table} WHERE rowid > ? ORDER BY rowid LIMIT 1 OFFSET ${PART - 1}`);
    for (let lo: number | null = 0; lo !== null;) {
      await turn();
      const hi: number | null = (partEnd.get(lo) as { r: number } | undefined)?.r ?? null;
      insert(`SELECT * FROM (${rows.arms.ledger}) WHERE t1 > :lo ${hi === null ? '' : 'AND t1 <= :hi'} ${notWritten}`, { lo, hi });
      lo = hi;
    }
  }

  /** The preview's figures, from the classified rows. */
  async function figures(rows: SelectedRows, op: BulkOp): Promise<BulkPlan> {
    await turn();
    const sample = (where: string, params: Params = {}) => all<{ key: string }>(`SELECT key FROM temp.bulk_rows WHERE ${where} LIMIT ${SAMPLES}`, params).map((r) => r.key);
    const skipped: RowsByReason[] = all<{ skip: string; n: number }>('SELECT skip, count(*) AS n FROM temp.bulk_rows WHERE skip IS NOT NULL GROUP BY skip ORDER BY min(rowid)')
      .map((g) => ({ reason: SKIP_REASONS[g.skip] ?? g.skip, count: g.n, sample: sample('skip = :skip', { skip: g.skip }) }));
    if (rows.ids !== null) {
      // Keys named by ID that no row of the table has.
      const missing = all<{ key: string }>(`SELECT value AS key FROM json_each(:sel_ids) WHERE value NOT IN (SELECT key FROM temp.bulk_rows)`, rows.params);
      if (missing.length > 0) skipped.push({ reason: NOT_FOUND_REASON, count: missing.length, sample: missing.slice(0, SAMPLES).map((r) => r.key) });
    }
    const refused: RowsByReason[] = all<{ problem: string; n: number; price: number }>(
      'SELECT problem, count(*) AS n, min(n_price) AS price FROM temp.bulk_rows WHERE problem IS NOT NULL GROUP BY problem ORDER BY min(rowid)',
    ).map((g) => ({ reason: `the new price ${priceProblem(Number(g.price)) ?? 'is invalid'}`, count: g.n, sample: sample('problem = :problem', { problem: g.problem }) }));
    await turn();
    const totals = all<{ matched: number; changed: number; lo: number | null; hi: number | null }>(
      `SELECT sum(skip IS NULL) AS matched, sum(${writes()}) AS changed, min(CASE WHEN ${writes()} THEN n_price END) AS lo,
        max(CASE WHEN ${writes()} THEN n_price END) AS hi FROM temp.bulk_rows`)[0];
    const prices = computesPrice(op);
    const samples = prices
      ? all<{ key: string; b_price: number; n_price: number }>(`SELECT key, b_price, n_price FROM temp.bulk_rows WHERE ${writes()} LIMIT ${SAMPLES}`)
        .map((r) => ({ key: r.key, before: r.b_price, after: r.n_price }))
      : [];
    const change = (r: { key: string; b_price: number; n_price: number } | undefined) => (r ? { key: r.key, before: r.b_price, after: r.n_price } : null);
    await turn();
    const counts = new Map(all<{ concern: string; n: number }>('SELECT concern, count(*) AS n FROM temp.bulk_rows WHERE concern IS NOT NULL GROUP BY concern').map((r) => [r.concern, r.n]));
    const guard: GuardFindings = counts.size === 0 ? NO_FINDINGS : {
      drops: counts.get('drop') ?? 0,
      belowFloor: counts.get('floor') ?? 0,
      rises: counts.get('rise') ?? 0,
      worstDrop: change(all<{ key: string; b_price: number; n_price: number }>(
        "SELECT key, b_price, n_price FROM temp.bulk_rows WHERE concern IN ('drop', 'floor') ORDER BY n_price * 1.0 / b_price, rowid LIMIT 1")[0]),
      worstRise: change(all<{ key: string; b_price: number; n_price: number }>(
        "SELECT key, b_price, n_price FROM temp.bulk_rows WHERE concern = 'rise' ORDER BY n_price * 1.0 / b_price DESC, rowid LIMIT 1")[0]),
    };
    // A refused row stops the whole edit: nothing changes.
    return {
      matched: totals?.matched ?? 0, changed: refused.length > 0 ? 0 : (totals?.changed ?? 0), skipped, refused, samples,
      minAfter: prices ? (totals?.lo ?? null) : null, maxAfter: prices ? (totals?.hi ?? null) : null, guard,
    };
  }

  async function preview(draftId: string | null, domain: BulkDomain, rows: SelectedRows, op: BulkOp, guard: PriceGuard, resumeSeq?: number): Promise<BulkPlan> {
    if ((domain === 'buyOrders' && LISTING_ONLY.has(op.op)) || (domain === 'listings' && BUY_ORDER_ONLY.has(op.op))) {
      const what = op.op === 'setPromoted' ? 'Promoting' : op.op === 'setActive' ? 'Pausing or resuming' : 'Setting a quantity';
      const reason = `${what} does not apply to ${domain === 'listings' ? 'listings' : 'buy orders'}`;
      return { matched: 0, changed: 0, skipped: [], refused: [{ reason, count: 0, sample: [] }], samples: [], minAfter: null, maxAfter: null, guard: NO_FINDINGS };
    }
    await classify(draftId, domain, rows, op, guard, resumeSeq);
    return figures(rows, op);
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
    const last = Number((db.prepare('SELECT coalesce(max(rowid), 0) AS n FROM temp.bulk_rows').get() as { n: number }).n);
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
    preview,
    write,
    patch: (draftId, domain) => (live !== null && live.draftId === draftId && (domain === undefined || live.domain === domain) ? live : null),
    abandon: () => void (live = null),
  };
}
