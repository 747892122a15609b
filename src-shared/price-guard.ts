import { z } from 'zod';
import { cents } from './fields.ts';

/**
 * The price guard: a change that cuts a price by more than a share, takes it
 * under a floor, or multiplies it past a bound is one a trader rarely means
 * (a 95 % cut typed as 5). Such changes are marked wherever they show, and
 * applying them needs an explicit confirmation. One rule, for the bulk edit's
 * preview, the review and the inline price editor alike.
 */
export const priceGuard = z.strictObject({
  /** A cut deeper than this share of the old price (percent) is marked. */
  maxDropPercent: z.number().min(1).max(99),
  /** A new price under this (cents) is marked; null: no floor. */
  floorCents: cents.nullable(),
  /** A new price above this multiple of the old one is marked. */
  maxRiseMultiple: z.number().min(1.1).max(1000),
});
export type PriceGuard = z.infer<typeof priceGuard>;

export const DEFAULT_PRICE_GUARD: PriceGuard = { maxDropPercent: 30, floorCents: null, maxRiseMultiple: 10 };

export type PriceConcern = 'drop' | 'floor' | 'rise';

/** What the guard says of one price change (null: nothing unusual). */
export function priceConcern(before: number, after: number, guard: PriceGuard): PriceConcern | null {
  if (guard.floorCents !== null && after < guard.floorCents && after < before) return 'floor';
  if (after < before && (before - after) * 100 > before * guard.maxDropPercent) return 'drop';
  if (after > before * guard.maxRiseMultiple) return 'rise';
  return null;
}

/** A change the guard marked: the worst one of its kind is shown with the count. */
export const guardedChange = z.object({ key: z.string(), before: z.number().int(), after: z.number().int() });

/** What the guard found among many changes: how many of each concern, and the worst drop and rise. */
export const guardFindings = z.object({
  drops: z.number().int().nonnegative(),
  belowFloor: z.number().int().nonnegative(),
  rises: z.number().int().nonnegative(),
  /** The deepest cut among drops and floor breaches. */
  worstDrop: guardedChange.nullable(),
  /** The largest multiple among rises. */
  worstRise: guardedChange.nullable(),
  /** Listings whose new price is under what they cost, or under cost plus the margin (cost-guard.ts); absent: none. */
  underCost: z.number().int().nonnegative().optional(),
  underMargin: z.number().int().nonnegative().optional(),
});
export type GuardFindings = z.infer<typeof guardFindings>;

export const NO_FINDINGS: GuardFindings = { drops: 0, belowFloor: 0, rises: 0, worstDrop: null, worstRise: null };

/** How many changes the guard marked, of every kind. */
export const markedCount = (f: GuardFindings): number => f.drops + f.belowFloor + f.rises + (f.underCost ?? 0) + (f.underMargin ?? 0);

export const hasFindings = (f: GuardFindings): boolean => markedCount(f) > 0;

/** What the guard found in a draft, per table. */
export const draftGuard = z.object({ listings: guardFindings, buyOrders: guardFindings });
export type DraftGuard = z.infer<typeof draftGuard>;

export const draftHasFindings = (g: DraftGuard): boolean => hasFindings(g.listings) || hasFindings(g.buyOrders);

/** The counts a confirmation names, to hold against what the draft holds when it is applied (the cost marks only when there are some). */
export const confirmationOf = (g: DraftGuard) => ({ listings: countsOf(g.listings), buyOrders: countsOf(g.buyOrders) });

function countsOf(f: GuardFindings) {
  return {
    drops: f.drops, belowFloor: f.belowFloor, rises: f.rises,
    ...(f.underCost ? { underCost: f.underCost } : {}),
    ...(f.underMargin ? { underMargin: f.underMargin } : {}),
  };
}

/** Percent change from before to after, rounded toward zero (−95 for $3.00 → $0.15). */
export const percentChange = (before: number, after: number): number => Math.trunc(((after - before) * 100) / before);
