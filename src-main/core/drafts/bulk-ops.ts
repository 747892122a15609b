import { z } from 'zod';
import { cents, flag01, quantity, userNote } from '../api/fields.ts';
import type { PatchBody, PatchFields } from './patch.ts';
import { collectRows, type EffectiveRow } from './effective-rows.ts';
import type { LedgerView } from './ledger-view.ts';
import type { WorkingSet } from './working-set.ts';

/**
 * Bulk operations over a selection (IDs) or a filter, computed in memory and
 * stored as one patch: they must stay instant on 50,000 rows. An operation
 * whose result would be invalid for some rows reports those rows and changes
 * nothing, so the trader never ends up with half a price change.
 */
export const bulkDomain = z.enum(['listings', 'buyOrders']);
export type BulkDomain = z.infer<typeof bulkDomain>;

export const rounding = z.enum(['nearest', 'up', 'down']);
export type Rounding = z.infer<typeof rounding>;

/**
 * Prices on a grid: every result is `k * size + offset` cents. `{ size: 10,
 * offset: 9 }` gives prices ending in 9 cents (…0.09, …0.19); `{ size: 100,
 * offset: 99 }` gives x.99. Without a step the grid is every cent.
 */
export const priceStep = z
  .strictObject({ size: cents, offset: z.number().int().nonnegative() })
  .refine((s) => s.offset < s.size, { error: 'offset must be less than size', path: ['offset'] });
export type PriceStep = z.infer<typeof priceStep>;

export const bulkOp = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('setPrice'), cents }),
  /** Adds (or, negative, subtracts) cents. */
  z.strictObject({ op: z.literal('addCents'), cents: z.number().int().refine(Number.isSafeInteger) }),
  /** Multiplies by `percent` / 100 (95 = 5% off), then rounds to the grid. */
  z.strictObject({ op: z.literal('multiply'), percent: z.number().positive().max(10_000), rounding, step: priceStep.optional() }),
  z.strictObject({ op: z.literal('setPromoted'), value: flag01 }),
  z.strictObject({ op: z.literal('setNote'), note: userNote }),
  z.strictObject({ op: z.literal('clearNote') }),
  /** Pause (0) or resume (1) buy orders. */
  z.strictObject({ op: z.literal('setActive'), value: flag01 }),
  z.strictObject({ op: z.literal('setQuantity'), quantity }),
]);
export type BulkOp = z.infer<typeof bulkOp>;

export const bulkFilter = z.strictObject({
  /** Case-insensitive, in asset ID, listing ID, SKU or note. */
  text: z.string().max(200).optional(),
  /** Exact SKU. */
  sku: z.string().max(200).optional(),
  minPrice: z.number().int().optional(),
  maxPrice: z.number().int().optional(),
  account: z.string().optional(),
  promoted: flag01.optional(),
  active: flag01.optional(),
  /** Case-insensitive, in the note only. */
  note: z.string().max(200).optional(),
});
export type BulkFilter = z.infer<typeof bulkFilter>;

/** Asset IDs (listings) or SKUs (buy orders), or a filter over the draft's view of the ledger. */
export const selection = z.union([
  z.strictObject({ ids: z.array(z.string()).max(200_000) }),
  z.strictObject({ filter: bulkFilter }),
]);
export type Selection = z.infer<typeof selection>;

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

/**
 * `price * percent / 100`, rounded to the grid of `step` (default: every
 * cent) in the direction asked. Exact integer arithmetic (BigInt): a float
 * would turn 1.15 * 100 into 114.99999.
 */
export function scalePrice(price: number, percent: number, mode: Rounding, step: PriceStep = { size: 1, offset: 0 }): number {
  // percent with up to 4 decimals, as a fraction over 1,000,000.
  const num = BigInt(Math.round(percent * 10_000)) * BigInt(price);
  const den = 1_000_000n;
  const size = BigInt(step.size) * den;
  const y = num - BigInt(step.offset) * den;
  const k = floorDiv(y, size);
  const remainder = y - k * size;
  const down = k * BigInt(step.size) + BigInt(step.offset);
  const up = remainder === 0n ? down : down + BigInt(step.size);
  const chosen = mode === 'down' ? down : mode === 'up' ? up : 2n * remainder >= size ? up : down;
  return Number(chosen);
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q;
}
