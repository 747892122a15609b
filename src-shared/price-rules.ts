import type { PriceGuard } from './price-guard.ts';

/**
 * The price guard's rules (price-guard.ts says what the guard is), apart
 * from its schemas: the renderer's ledger screens mark prices with them on
 * their first paint, and need none of the schemas' code to do it.
 */

export const DEFAULT_PRICE_GUARD: PriceGuard = { maxDropPercent: 30, floorCents: null, maxRiseMultiple: 10 };

export type PriceConcern = 'drop' | 'floor' | 'rise';

/** What the guard says of one price change (null: nothing unusual). */
export function priceConcern(before: number, after: number, guard: PriceGuard): PriceConcern | null {
  if (guard.floorCents !== null && after < guard.floorCents && after < before) return 'floor';
  if (after < before && (before - after) * 100 > before * guard.maxDropPercent) return 'drop';
  if (after > before * guard.maxRiseMultiple) return 'rise';
  return null;
}

/** Percent change from before to after, rounded toward zero (−95 for $3.00 → $0.15). */
export const percentChange = (before: number, after: number): number => Math.trunc(((after - before) * 100) / before);
