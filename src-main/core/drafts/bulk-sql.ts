import type { SQLInputValue, StatementSync } from 'node:sqlite';
import type { Store } from '../store/db.ts';
import { scalePrice } from '../../../src-shared/price-formula.ts';
import type { BulkDomain, BulkOp } from '../../../src-shared/drafts.ts';
import { DELETED_REASON, ENDED_REASON, LOCKED_REASON, UNKNOWN_ID_REASON } from './ledger-rows.ts';
import type { Params } from './ledger-sql.ts';
import { priceProblem } from './price-check.ts';
import { guardTally, type GuardTally, type PriceGuard } from './price-guard.ts';

/**
 * A bulk edit over a selection, in SQL: each selected row is read with the
 * draft laid over it and sorted into "changes", "already so", "left out
 * (why)" or "refused (why)" by one statement (`classified`), which the
 * preview walks once for its figures and the edit reuses to write every
 * changed row with two set-based statements: one updating the draft's open
 * changes in place, one adding an edit built from the ledger for rows the
 * draft did not change yet. Prices go through the one formula the screens
 * show (src-shared/price-formula.ts), registered as a SQL function.
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
  readonly guard: GuardTally;
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

const LOCKED = "('queued', 'sent', 'unknown')";
const SETTLED = "('done', 'dropped')";

/**
 * Each selected key with what the draft makes of its row (`b_*`: the values
 * a formula starts from) and why it is left out (`skip`), then the values the
 * operation sets (`n_*`) and whether they change anything.
 */
function classifiedSql(domain: BulkDomain, op: BulkOp, selection: string): string {
  const listings = domain === 'listings';
  const [slot, delSlot, allSlot, table, keyCol] = listings ? ['L', 'LD', 'LA', 'listings', 'asset_id'] : ['B', 'BD', 'BA', 'buy_orders', 'sku'];
  const createKind = listings ? 'listing.create' : 'buyOrder.create';
  const editKind = listings ? 'listing.edit' : 'buyOrder.edit';
  const ended = listings ? "l.state IN ('sold_in_trade', 'sold', 'not_on_service')" : '0';
  const unknownId = listings ? 'l.listing_id IS NULL' : '0';
  const removedByAll = listings ? "(a.active_only = 0 OR l.state = 'active')" : '1';
  const base = `
    SELECT s.key AS key, s.o1 AS o1, s.o2 AS o2, s.o3 AS o3,
      e.kind AS e_kind, (e.status IS NOT NULL AND e.status NOT IN ${SETTLED}) AS e_open,
      (e.status IN ${LOCKED} OR x.status IN ${LOCKED}) AS locked,
      l.${keyCol} IS NOT NULL AS held, l.account AS l_account, ${listings ? 'l.listing_id' : 'NULL'} AS l_listing_id,
      l.price AS l_price, ${listings ? 'l.promoted' : '0'} AS l_promoted, l.user_note AS l_note,
      ${listings ? '1' : 'l.active'} AS l_active, ${listings ? '1' : 'l.quantity'} AS l_quantity,
      e.price AS e_price, e.promoted AS e_promoted, e.user_note AS e_note, e.active AS e_active, e.quantity AS e_quantity,
      e.account AS e_account, e.sku AS e_sku, e.game AS e_game,
      CASE
        WHEN e.status IS NOT NULL AND e.status NOT IN ${SETTLED} AND e.kind = '${createKind}' THEN
          CASE WHEN e.status IN ${LOCKED} OR x.status IN ${LOCKED} THEN 'locked' ELSE NULL END
        WHEN l.${keyCol} IS NULL THEN 'missing'
        WHEN x.status IS NOT NULL AND x.status NOT IN ${SETTLED} AND NOT (x.status IN ${LOCKED} OR e.status IN ${LOCKED}) THEN 'deleted'
        WHEN a.kind IS NOT NULL AND ${removedByAll} THEN 'deleted'
        WHEN e.status IN ${LOCKED} OR x.status IN ${LOCKED} THEN 'locked'
        WHEN ${unknownId} THEN 'unknown_id'
        WHEN ${ended} THEN 'ended'
        ELSE NULL END AS skip
    FROM (${selection}) s
    LEFT JOIN ${table} l ON l.${keyCol} = s.key
    LEFT JOIN draft_entries e ON e.draft_id = :draft AND e.slot = '${slot}' AND e.key = s.key
    LEFT JOIN draft_entries x ON x.draft_id = :draft AND x.slot = '${delSlot}' AND x.key = s.key
    LEFT JOIN draft_entries a ON a.draft_id = :draft AND a.slot = '${allSlot}' AND a.key = '' AND a.status NOT IN ${SETTLED}`;
  // The row's values as the draft leaves it: its create's, or its open edit's over the ledger's.
  const isCreate = `(e_open AND e_kind = '${createKind}')`;
  const own = (field: string, ledger: string) => `CASE WHEN ${isCreate} THEN ${field} WHEN e_open AND e_kind = '${editKind}' AND ${field} IS NOT NULL THEN ${field} ELSE ${ledger} END`;
  const values = `SELECT *, ${isCreate} AS is_create,
      ${own('e_price', 'l_price')} AS b_price, ${own('e_promoted', 'l_promoted')} AS b_promoted,
      coalesce(${own('e_note', 'l_note')}, '') AS b_note, CASE WHEN ${isCreate} THEN 1 ELSE ${own('e_active', 'l_active')} END AS b_active,
      ${own('e_quantity', 'l_quantity')} AS b_quantity
    FROM (${base})`;
  const [set, same] = opSql(op);
  return `SELECT *, ${same} AS same FROM (SELECT *, ${set} FROM (${values}))`;
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

interface Classified {
  readonly key: string;
  readonly skip: string | null;
  readonly same: number;
  readonly is_create: number;
  readonly b_price: number;
  readonly n_price: number;
}

export interface BulkEdits {
  /** What a bulk edit would do, storing nothing (draftId null: over the ledger alone). */
  preview(draftId: string | null, domain: BulkDomain, selection: { sql: string; params: Params }, op: BulkOp, guard: PriceGuard): BulkPlan;
  /**
   * Writes it into the draft as changes with sequence number `seq`, in one
   * transaction, unless a row is refused (then nothing is written). `plan`:
   * the preview of the same edit when nothing has moved since.
   */
  apply(draftId: string, domain: BulkDomain, selection: { sql: string; params: Params }, op: BulkOp, guard: PriceGuard, seq: number, plan?: BulkPlan): BulkPlan;
}

export function createBulkEdits(store: Pick<Store, 'db' | 'transaction' | 'clock'>): BulkEdits {
  const { db } = store;
  db.function('scale_price', { deterministic: true }, (price, percent, rounding, size, offset) =>
    scalePrice(Number(price), Number(percent), rounding as 'nearest' | 'up' | 'down', { size: Number(size), offset: Number(offset) }));
  const statements = new Map<string, StatementSync>();
  const prepared = (sql: string) => {
    let s = statements.get(sql);
    if (!s) {
      if (statements.size > 100) statements.clear();
      s = db.prepare(sql);
      // The selection's, the operation's and the draft's parameters go together; each statement takes the ones it names.
      s.setAllowUnknownNamedParameters(true);
      statements.set(sql, s);
    }
    return s;
  };

  function preview(draftId: string | null, domain: BulkDomain, selection: { sql: string; params: Params }, op: BulkOp, guard: PriceGuard): BulkPlan {
    const empty = { matched: 0, changed: 0, skipped: [], samples: [], minAfter: null, maxAfter: null, guard: guardTally(guard).result() };
    if ((domain === 'buyOrders' && LISTING_ONLY.has(op.op)) || (domain === 'listings' && BUY_ORDER_ONLY.has(op.op))) {
      const what = op.op === 'setPromoted' ? 'Promoting' : op.op === 'setActive' ? 'Pausing or resuming' : 'Setting a quantity';
      return { ...empty, refused: [{ reason: `${what} does not apply to ${domain === 'listings' ? 'listings' : 'buy orders'}`, count: 0, sample: [] }] };
    }
    const sql = `SELECT key, skip, same, is_create, b_price, n_price FROM (${classifiedSql(domain, op, selection.sql)}) ORDER BY o1, o2, o3`;
    const params = { ...selection.params, ...opParams(op), draft: draftId ?? '' };
    const skipped = new Map<string, { count: number; sample: string[] }>();
    const refused = new Map<string, { count: number; sample: string[] }>();
    const add = (into: typeof skipped, reason: string, key: string) => {
      let r = into.get(reason);
      if (!r) into.set(reason, (r = { count: 0, sample: [] }));
      r.count += 1;
      if (r.sample.length < SAMPLES) r.sample.push(key);
    };
    const samples: { key: string; before: number; after: number }[] = [];
    const tally = guardTally(guard);
    const prices = computesPrice(op);
    let matched = 0;
    let changed = 0;
    let minAfter: number | null = null;
    let maxAfter: number | null = null;
    for (const row of prepared(sql).iterate(params as Record<string, SQLInputValue>) as Iterable<Classified>) {
      if (row.skip !== null) {
        add(skipped, SKIP_REASONS[row.skip] ?? row.skip, row.key);
        continue;
      }
      if (op.op === 'setActive' && row.is_create === 1 && row.same === 0) {
        add(skipped, CREATED_PAUSE_REASON, row.key);
        continue;
      }
      matched += 1;
      if (row.same === 1) continue;
      if (prices) {
        const problem = priceProblem(row.n_price);
        if (problem !== null) {
          add(refused, `the new price ${problem}`, row.key);
          continue;
        }
        if (samples.length < SAMPLES) samples.push({ key: row.key, before: row.b_price, after: row.n_price });
        if (minAfter === null || row.n_price < minAfter) minAfter = row.n_price;
        if (maxAfter === null || row.n_price > maxAfter) maxAfter = row.n_price;
        tally.add(row.key, row.b_price, row.n_price);
      }
      changed += 1;
    }
    const list = (m: typeof skipped) => [...m].map(([reason, r]) => ({ reason, count: r.count, sample: r.sample }));
    // A refused row stops the whole edit: nothing changes.
    return { matched, changed: refused.size > 0 ? 0 : changed, skipped: list(skipped), refused: list(refused), samples, minAfter, maxAfter, guard: tally.result() };
  }

  function apply(draftId: string, domain: BulkDomain, selection: { sql: string; params: Params }, op: BulkOp, guard: PriceGuard, seq: number, known?: BulkPlan): BulkPlan {
    const plan = known ?? preview(draftId, domain, selection, op, guard);
    if (plan.refused.length > 0 || plan.changed === 0) return plan;
    const listings = domain === 'listings';
    const slot = listings ? 'L' : 'B';
    const changing = `SELECT * FROM (${classifiedSql(domain, op, selection.sql)}) WHERE skip IS NULL AND same = 0
      ${op.op === 'setActive' ? 'AND is_create = 0' : ''}`;
    const params = { ...selection.params, ...opParams(op), draft: draftId, seq, at: store.clock.now() };
    // A note is written only where the operation sets one, or the change already had one: absent means "leave it".
    const notes = op.op === 'setNote' || op.op === 'clearNote';
    const note = notes ? 'c.n_note' : 'c.e_note';
    const fields = listings
      ? `price = c.n_price, promoted = c.n_promoted, user_note = ${note}`
      : `price = c.n_price, quantity = c.n_quantity, active = CASE WHEN c.is_create = 1 THEN NULL ELSE c.n_active END, user_note = ${note}`;
    const insertColumns = listings
      ? `'listing.edit', c.l_account, c.l_listing_id, NULL, c.n_price, c.n_promoted, NULL, NULL, ${notes ? 'c.n_note' : 'NULL'}`
      : `'buyOrder.edit', c.l_account, NULL, c.key, c.n_price, NULL, c.n_quantity, c.n_active, ${notes ? 'c.n_note' : 'NULL'}`;
    store.transaction(() => {
      prepared(`UPDATE draft_entries AS d SET ${fields}, seq = :seq, status = 'pending', error = NULL, batch_id = NULL, updated_at = :at
        FROM (${changing}) AS c
        WHERE d.draft_id = :draft AND d.slot = '${slot}' AND d.key = c.key AND c.e_open = 1`).run(params);
      prepared(`INSERT INTO draft_entries (draft_id, slot, key, seq, kind, account, listing_id, sku, price, promoted, quantity, active, user_note, status, updated_at)
        SELECT :draft, '${slot}', c.key, :seq, ${insertColumns}, 'pending', :at FROM (${changing}) AS c WHERE c.e_open = 0 AND true
        ON CONFLICT (draft_id, slot, key) DO UPDATE SET seq = excluded.seq, kind = excluded.kind, account = excluded.account,
          listing_id = excluded.listing_id, sku = excluded.sku, price = excluded.price, promoted = excluded.promoted,
          quantity = excluded.quantity, active = excluded.active, user_note = excluded.user_note, game = NULL, active_only = NULL,
          replaced = NULL, if_exists = NULL, status = 'pending', error = NULL, batch_id = NULL, updated_at = excluded.updated_at`).run(params);
      prepared('UPDATE drafts SET updated_at = :at WHERE draft_id = :draft').run({ at: params.at, draft: draftId });
    });
    return plan;
  }

  return { preview, apply };
}


