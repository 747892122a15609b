import type { BulkOp } from '../../../src-shared/contract.ts';
import { formatCents } from '../../../src-shared/money.ts';

/**
 * What a bulk formula does to one row, computed here only to preview it before
 * the trader commits it to the draft; the main process applies the same rule
 * when the bulk operation lands. Prices stay integer cents throughout: a
 * percentage is read as an exact fraction, never multiplied as a float.
 */

export type Rounding = 'nearest' | 'up' | 'down';

/** Prices on a grid: every result is k × size + offset cents (size 100, offset 99 gives x.99). */
export interface PriceStep {
  readonly size: number;
  readonly offset: number;
}

/** The new price of a row, or null when the operation does not touch prices. */
export function priceAfter(price: number, op: BulkOp): number | null {
  switch (op.op) {
    case 'setPrice': return op.cents;
    case 'addCents': return price + op.cents;
    case 'multiply': return multiplyCents(price, op.percent, op.rounding, op.step);
    default: return null;
  }
}

/**
 * price × percent / 100, rounded to the grid in the direction asked, the
 * way the draft computes it: the percentage to four decimals, as an exact
 * fraction over 1,000,000. Integer doubles are exact below 2^53, which
 * covers any real price; beyond that (or for a price that is not an
 * integer, which BigInt refuses) it is done in BigInt. The bulk panel runs
 * this over every selected row, 50,000 of them, on each keystroke.
 */
export function multiplyCents(price: number, percent: number, rounding: Rounding, step: PriceStep = { size: 1, offset: 0 }): number {
  const scaled = Math.round(percent * 10_000);
  const num = scaled * price;
  const size = step.size * 1_000_000;
  const shift = step.offset * 1_000_000;
  const exact = Number.isSafeInteger(num) && Number.isSafeInteger(step.size) && Number.isSafeInteger(step.offset)
    && Number.isSafeInteger(Math.abs(num) + Math.abs(shift) + 2 * size);
  if (exact) {
    const y = num - shift;
    const r = y % size;
    const remainder = r < 0 ? r + size : r;
    const k = (y - remainder) / size;
    const down = k * step.size + step.offset;
    const up = remainder === 0 ? down : down + step.size;
    return rounding === 'down' ? down : rounding === 'up' ? up : 2 * remainder >= size ? up : down;
  }
  return multiplyBig(price, percent, rounding, step);
}

function multiplyBig(price: number, percent: number, rounding: Rounding, step: PriceStep): number {
  const den = 1_000_000n;
  const num = BigInt(Math.round(percent * 10_000)) * BigInt(price);
  const size = BigInt(step.size) * den;
  const y = num - BigInt(step.offset) * den;
  let k = y / size;
  if (y % size !== 0n && y < 0n) k -= 1n;
  const remainder = y - k * size;
  const down = k * BigInt(step.size) + BigInt(step.offset);
  const up = remainder === 0n ? down : down + BigInt(step.size);
  const chosen = rounding === 'down' ? down : rounding === 'up' ? up : 2n * remainder >= size ? up : down;
  return Number(chosen);
}

/**
 * The fields a bulk operation sets on one row whose price is now `price`:
 * what the table shows as pending from the click on, until main's stored
 * changes replace it (same rounding as the draft, so the two agree).
 */
export function fieldsAfter(price: number, op: BulkOp): Record<string, number | string> {
  switch (op.op) {
    case 'setPrice':
    case 'addCents':
    case 'multiply': return { price: priceAfter(price, op) ?? price };
    case 'setPromoted': return { promoted: op.value };
    case 'setNote': return { user_note: op.note };
    case 'clearNote': return { user_note: '' };
    case 'setActive': return { active: op.value };
    case 'setQuantity': return { quantity: op.quantity };
  }
}

export interface BulkPreview {
  readonly count: number;
  /** Rows the operation would take to zero or below: the service refuses those. */
  readonly refused: number;
  readonly samples: ReadonlyArray<{ key: string; before: number; after: number }>;
  readonly minAfter: number | null;
  readonly maxAfter: number | null;
}

/** Previews a price formula over the selected rows (first few as samples). */
export function previewBulk(rows: ReadonlyArray<{ key: string; price: number }>, op: BulkOp, sampleCount = 5): BulkPreview {
  const samples: Array<{ key: string; before: number; after: number }> = [];
  let refused = 0;
  let minAfter: number | null = null;
  let maxAfter: number | null = null;
  for (const row of rows) {
    const after = priceAfter(row.price, op);
    if (after === null) continue;
    if (after <= 0) refused++;
    if (minAfter === null || after < minAfter) minAfter = after;
    if (maxAfter === null || after > maxAfter) maxAfter = after;
    if (samples.length < sampleCount) samples.push({ key: row.key, before: row.price, after });
  }
  return { count: rows.length, refused, samples, minAfter, maxAfter };
}

/** One line a trader reads back before confirming, e.g. "× 95% (rounded down)". */
export function describeOp(op: BulkOp): string {
  switch (op.op) {
    case 'setPrice': return `Set price to ${formatCents(op.cents)}`;
    case 'addCents': return op.cents >= 0 ? `Raise price by ${formatCents(op.cents)}` : `Lower price by ${formatCents(-op.cents)}`;
    case 'multiply': return `Price × ${op.percent}% (${roundingText(op.rounding, op.step)})`;
    case 'setPromoted': return op.value === 1 ? 'Promote' : 'Stop promoting';
    case 'setNote': return `Set note to “${op.note}”`;
    case 'clearNote': return 'Clear note';
    case 'setActive': return op.value === 1 ? 'Resume' : 'Pause';
    case 'setQuantity': return `Set quantity to ${op.quantity}`;
  }
}

/** The price grids the bulk panel offers: `label` for the picker, `noun` for the read-back. */
export const PRICE_GRIDS: ReadonlyArray<{ id: string; label: string; noun: string; step: PriceStep | undefined }> = [
  { id: 'cent', label: 'every cent', noun: 'cent', step: undefined },
  { id: 'nine', label: 'prices ending in 9¢', noun: 'price ending in 9¢', step: { size: 10, offset: 9 } },
  { id: 'ninety-nine', label: 'prices ending in .99', noun: 'price ending in .99', step: { size: 100, offset: 99 } },
  { id: 'dollar', label: 'whole dollars', noun: 'whole dollar', step: { size: 100, offset: 0 } },
];

function roundingText(rounding: Rounding, step: PriceStep | undefined): string {
  const same = (g: PriceStep | undefined) => (g?.size ?? 1) === (step?.size ?? 1) && (g?.offset ?? 0) === (step?.offset ?? 0);
  const noun = PRICE_GRIDS.find((g) => same(g.step))?.noun ?? `step of ${formatCents(step?.size ?? 1)} from ${formatCents(step?.offset ?? 0)}`;
  return rounding === 'nearest' ? `to the nearest ${noun}` : `rounded ${rounding} to the ${noun}`;
}

/**
 * The buy-order balance rule of the service: a new order's quantity is cut to
 * floor(balance / price). Both are cents, so the quotient is a count of items.
 */
export function allowedQuantity(balance: number, price: number): number {
  if (price <= 0) return 0;
  return Math.max(0, Math.floor(balance / price));
}
