import type { BulkOp } from '../../../src-preload/contract.ts';
import { formatCents } from '../../../src-main/core/money.ts';

/**
 * What a bulk formula does to one row, computed here only to preview it before
 * the trader commits it to the draft; the main process applies the same rule
 * when the bulk operation lands. Prices stay integer cents throughout: a
 * percentage is read as an exact fraction, never multiplied as a float.
 */

export type Rounding = 'nearest' | 'up' | 'down';

/** The new price of a row, or null when the operation does not touch prices. */
export function priceAfter(price: number, op: BulkOp): number | null {
  switch (op.op) {
    case 'setPrice': return op.cents;
    case 'addCents': return price + op.cents;
    case 'multiply': return multiplyCents(price, op.percent, op.rounding);
    default: return null;
  }
}

/** price × percent / 100, rounded as asked, exactly. */
export function multiplyCents(price: number, percent: number, rounding: Rounding): number {
  const [num, den] = asFraction(percent);
  const n = BigInt(price) * num;
  const d = den * 100n;
  const q = n / d;
  const r = n % d;
  const abs = r < 0n ? -r : r;
  let result = q;
  if (abs !== 0n) {
    const positive = n >= 0n;
    if (rounding === 'up') result = positive ? q + 1n : q;
    else if (rounding === 'down') result = positive ? q : q - 1n;
    else if (abs * 2n >= d) result = positive ? q + 1n : q - 1n;
  }
  return Number(result);
}

/** 95.5 → 955/10, from the number's shortest decimal text. */
function asFraction(value: number): [bigint, bigint] {
  const text = String(value);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) {
    // Exponent notation (tiny or huge percentages): scale to micro-percent.
    return [BigInt(Math.round(value * 1_000_000)), 1_000_000n];
  }
  const fraction = match[2] ?? '';
  return [BigInt((match[1] ?? '0') + fraction), 10n ** BigInt(fraction.length)];
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
    case 'multiply': return `Price × ${op.percent}% (rounded ${op.rounding === 'nearest' ? 'to nearest cent' : op.rounding})`;
    case 'setPromoted': return op.value === 1 ? 'Promote' : 'Stop promoting';
    case 'setNote': return `Set note to “${op.note}”`;
    case 'clearNote': return 'Clear note';
    case 'setActive': return op.value === 1 ? 'Resume' : 'Pause';
    case 'setQuantity': return `Set quantity to ${op.quantity}`;
  }
}

/**
 * The buy-order balance rule of the service: a new order's quantity is cut to
 * floor(balance / price). Both are cents, so the quotient is a count of items.
 */
export function allowedQuantity(balance: number, price: number): number {
  if (price <= 0) return 0;
  return Math.max(0, Math.floor(balance / price));
}
