import type { BulkDomain, BulkOp } from '../../../src-shared/drafts.ts';
import { LOCKED_SQL } from './draft-entry.ts';
import type { Params } from './typed-rows.ts';

/**
 * What a bulk operation does to a selected row, in SQL: the row's values as
 * the draft leaves them (`b_*`), why it is left out (`skip`), the values the
 * operation sets (`n_*`) and whether the row has them already. bulk-rows.ts
 * classifies the rows of an edit into the scratch table these columns make.
 */

const SETTLED = "('done', 'dropped')";

/**
 * Each selected row (an arm row, see ledger-arms.ts) with what the draft makes
 * of it: the values a formula starts from (`b_*`) and why it is left out (`skip`).
 */
export function classifiedSql(domain: BulkDomain, rows: string): string {
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
export function opSql(op: BulkOp): [string, string] {
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

export function opParams(op: BulkOp): Params {
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

/** Whether an operation computes prices (the rest set another column). */
export const computesPrice = (op: BulkOp) => op.op === 'setPrice' || op.op === 'addCents' || op.op === 'multiply';

/** The classified rows of one bulk edit, kept for its preview's figures and for writing it. */
// n_price: INTEGER affinity stores a whole computed price (SQLite computes in REAL once a bound number joins in) as an integer.
export const TEMP_TABLE = `CREATE TEMP TABLE IF NOT EXISTS bulk_rows (
  key TEXT NOT NULL UNIQUE, e_open INTEGER NOT NULL, is_create INTEGER NOT NULL, account TEXT, listing_id TEXT, e_note TEXT,
  skip TEXT, b_price INTEGER, b_promoted INTEGER, b_note TEXT, b_active INTEGER, b_quantity INTEGER,
  n_price INTEGER, n_promoted INTEGER, n_note TEXT, n_active INTEGER, n_quantity INTEGER,
  same INTEGER NOT NULL, problem TEXT, concern TEXT)`;

/** Why a computed price cannot be stored (the cents rule), as a class the reasons are looked up by. */
export const PROBLEM = `CASE WHEN n_price IS NULL OR n_price != CAST(n_price AS INTEGER) THEN 'fraction'
  WHEN n_price <= 0 THEN 'not-positive' WHEN n_price > 9007199254740991 THEN 'too-large' ELSE NULL END`;
