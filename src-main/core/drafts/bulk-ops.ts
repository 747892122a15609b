import { cents } from '../../../src-shared/fields.ts';
import type { PatchBody, PatchFields } from './patch.ts';
import { collectRows, type EffectiveRow } from './effective-rows.ts';
import type { LedgerView } from './ledger-view.ts';
import type { WorkingSet } from './working-set.ts';
import type { BulkDomain, BulkOp, Selection } from '../../../src-shared/drafts.ts';
import { scalePrice } from '../../../src-shared/price-formula.ts';

/**
 * Bulk operations over a selection (IDs) or a filter, computed in memory and
 * stored as one patch: they must stay instant on 50,000 rows. An operation
 * whose result would be invalid for some rows reports those rows and changes
 * nothing, so the trader never ends up with half a price change.
 */
export {
  bulkDomain, bulkFilter, bulkOp, priceStep, rounding, selection,
} from '../../../src-shared/drafts.ts';
export type { BulkDomain, BulkFilter, BulkOp, PriceStep, Rounding, Selection } from '../../../src-shared/drafts.ts';

export interface RefusedRow {
  /** Asset ID or SKU; empty when the whole operation does not apply. */
  readonly id: string;
  readonly reason: string;
}

export interface BulkPlan {
  /** The patch to store; null when nothing changes or something was refused. */
  readonly patch: PatchBody | null;
  readonly matched: number;
  readonly refused: readonly RefusedRow[];
}

const LISTING_ONLY = new Set(['setPromoted']);
const BUY_ORDER_ONLY = new Set(['setActive', 'setQuantity']);

/** Works out what a bulk operation would set on each selected row. */
export function planBulk(domain: BulkDomain, sel: Selection, op: BulkOp, ws: WorkingSet, ledger: LedgerView): BulkPlan {
  if ((domain === 'buyOrders' && LISTING_ONLY.has(op.op)) || (domain === 'listings' && BUY_ORDER_ONLY.has(op.op))) {
    return { patch: null, matched: 0, refused: [{ id: '', reason: `${op.op} does not apply to ${domain === 'listings' ? 'listings' : 'buy orders'}` }] };
  }
  const { rows, refused } = collectRows(domain, sel, ws, ledger);
  const ids: string[] = [];
  const prices: number[] = [];
  const computesPrice = op.op === 'addCents' || op.op === 'multiply';
  for (const row of rows) {
    const next = nextValues(op, row);
    if (typeof next === 'string') {
      refused.push({ id: row.id, reason: next });
      continue;
    }
    if (next === null) continue; // already so
    ids.push(row.id);
    if (computesPrice) prices.push(next);
  }
  if (refused.length > 0 || ids.length === 0) return { patch: null, matched: rows.length, refused };
  const set: PatchFields = fixedFields(op);
  const patch: PatchBody = op.op === 'addCents' || op.op === 'multiply'
    ? { domain, ids, set, prices }
    : { domain, ids, set };
  return { patch, matched: rows.length, refused };
}

function fixedFields(op: BulkOp): PatchFields {
  switch (op.op) {
    case 'setPrice': return { price: op.cents };
    case 'setPromoted': return { promoted: op.value };
    case 'setNote': return { user_note: op.note };
    case 'clearNote': return { user_note: '' };
    case 'setActive': return { active: op.value };
    case 'setQuantity': return { quantity: op.quantity };
    case 'addCents':
    case 'multiply':
      return {};
  }
}

/**
 * The new price (number), `null` when the row already has the value, or the
 * reason the row cannot take it (string).
 */
function nextValues(op: BulkOp, row: EffectiveRow): number | null | string {
  switch (op.op) {
    case 'setPrice': return row.price === op.cents ? null : op.cents;
    case 'addCents': return checkedPrice(row.price + op.cents, row.price);
    case 'multiply': return checkedPrice(scalePrice(row.price, op.percent, op.rounding, op.step), row.price);
    case 'setPromoted': return row.promoted === op.value ? null : 0;
    case 'setNote': return row.user_note === op.note ? null : 0;
    case 'clearNote': return row.user_note === '' ? null : 0;
    case 'setActive':
      if (row.active === op.value) return null;
      return row.isCreate ? 'a buy order created in this draft cannot be paused before it exists' : 0;
    case 'setQuantity': return row.quantity === op.quantity ? null : 0;
  }
}

function checkedPrice(price: number, current: number): number | null | string {
  if (price === current) return null;
  return isValidPrice(price) ? price : `price would be ${price} cents: ${priceProblem(price)}`;
}

/**
 * The shared `cents` rule for tens of thousands of computed prices. Asking
 * zod for each (and building an error for each refused row) would spend most
 * of the time budget, so a positive safe integer, which is exactly what
 * `cents` accepts (a test holds the two together), passes at once, and the
 * reason for a refusal comes from `cents` itself, once per kind of failure.
 */
export function isValidPrice(price: number): boolean {
  return Number.isSafeInteger(price) && price > 0;
}

const refusalReasons = new Map<string, string>();
function priceProblem(price: number): string {
  const kind = !Number.isInteger(price) ? 'fraction' : price <= 0 ? 'not-positive' : 'too-large';
  let reason = refusalReasons.get(kind);
  if (reason === undefined) {
    const r = cents.safeParse(price);
    reason = r.success ? 'invalid' : (r.error.issues[0]?.message ?? 'invalid');
    refusalReasons.set(kind, reason);
  }
  return reason;
}
