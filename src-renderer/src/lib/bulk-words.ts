import type { BulkOp } from '../../../src-shared/contract.ts';
import type { PriceStep, Rounding } from '../../../src-shared/drafts.ts';
import { formatCents } from '../../../src-shared/money.ts';

export type { Rounding };

/**
 * How a bulk formula reads back to the trader before it goes into the draft.
 * Main computes what it does to each row (and previews it); this only words it.
 */

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
/** The roundings a price formula offers, as its select lists them. */
export const ROUNDINGS: ReadonlyArray<{ id: Rounding; label: string }> = [
  { id: 'nearest', label: 'Nearest' },
  { id: 'down', label: 'Down' },
  { id: 'up', label: 'Up' },
];

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
