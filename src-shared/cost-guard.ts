import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';

/**
 * The price guard's marks against what an item cost: a listing's new price
 * under its cost, or under its cost plus a margin the trader sets. The cost
 * is what a sale of the SKU would take next (first in, first out: see
 * core/costs/). Only a cut or a new listing is marked: a price raised
 * towards its cost is the way out, not a mistake. Kept beside the price
 * guard's own marks (price-guard.ts) and counted with them.
 */
export const costGuard = lazySchema(() => z.strictObject({
  /** Mark a listing priced under what it cost. */
  markUnderCost: z.boolean(),
  /** Mark a listing priced under its cost plus this share (percent); null: no such mark. */
  marginPercent: z.number().min(0).max(1_000).nullable(),
}));
export type CostGuard = z.infer<typeof costGuard>;

export const DEFAULT_COST_GUARD: CostGuard = { markUnderCost: true, marginPercent: 10 };

export type CostConcern = 'under_cost' | 'under_margin';

/** Basis points of a percentage with up to two decimals: integer arithmetic from here on. */
export const basisPoints = (percent: number): number => Math.round(percent * 100);

/** What the guard says of a listing's price `after` (from `before`; null for a new listing) against its unit cost. */
export function costConcern(before: number | null, after: number, cost: number, guard: CostGuard): CostConcern | null {
  if (before !== null && after >= before) return null;
  if (guard.markUnderCost && after < cost) return 'under_cost';
  if (guard.marginPercent !== null && after * 10_000 < cost * (10_000 + basisPoints(guard.marginPercent))) return 'under_margin';
  return null;
}
