import { z } from 'zod';
import { cents } from './fields.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * The price guard: a change that cuts a price by more than a share, takes it
 * under a floor, or multiplies it past a bound is one a trader rarely means
 * (a 95 % cut typed as 5). A new listing priced that far under what the same
 * item fetches (the trader's lowest standing listing of it, its last sale) is
 * one too: an Unusual drafted at a picker's fallback price. Such changes are
 * marked wherever they show, and applying them needs an explicit
 * confirmation. One rule, for the bulk edit's preview, the review, the
 * inventory picker and the inline price editor alike.
 */
export const priceGuard = lazySchema(() => z.strictObject({
  /** A cut deeper than this share of the old price (percent) is marked. */
  maxDropPercent: z.number().min(1).max(99),
  /** A new price under this (cents) is marked; null: no floor. */
  floorCents: cents.nullable(),
  /** A new price above this multiple of the old one is marked. */
  maxRiseMultiple: z.number().min(1.1).max(1000),
}));
export type PriceGuard = z.infer<typeof priceGuard>;


/**
 * What a new listing's price is held against, and where it comes from: the
 * item's lowest standing listing in the ledger, or its last sale in History.
 * A later source (the item's cost, a price source's price) is another value
 * here, read where the others are, and `undercutOf` needs no change.
 */
export const referenceSource = z.enum(['listing', 'sale']);
export type ReferenceSource = z.infer<typeof referenceSource>;
export const referencePrice = z.object({ source: referenceSource, cents: cents });
export type ReferencePrice = z.infer<typeof referencePrice>;

/**
 * The reference a new listing's price is too far under, by the same share as
 * a deep cut (the one it undercuts most, when several); null when none.
 */
export function undercutOf(price: number, references: readonly ReferencePrice[], guard: PriceGuard): ReferencePrice | null {
  let worst: ReferencePrice | null = null;
  for (const r of references) {
    const far = price < r.cents && (r.cents - price) * 100 > r.cents * guard.maxDropPercent;
    if (far && (worst === null || r.cents > worst.cents)) worst = r;
  }
  return worst;
}

/** A change the guard marked: the worst one of its kind is shown with the count. */
export const guardedChange = lazySchema(() => z.object({ key: z.string(), before: z.number().int(), after: z.number().int() }));

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

/** A new listing priced far under a reference: the worst one is shown with the count. */
export const undercut = lazySchema(() => z.object({ key: z.string(), sku: z.string(), price: z.number().int(), reference: referencePrice }));
export type Undercut = z.infer<typeof undercut>;

/** New listings priced far under what the same item fetches: how many, and the deepest under its reference. */
export const undercutFindings = lazySchema(() => z.object({ count: z.number().int().nonnegative(), worst: undercut.nullable() }));
export type UndercutFindings = z.infer<typeof undercutFindings>;

export const NO_UNDERCUTS: UndercutFindings = { count: 0, worst: null };

/** What the guard found in a draft, per table, and among its new listings. */
export const draftGuard = z.object({ listings: guardFindings, buyOrders: guardFindings, undercuts: undercutFindings });
export type DraftGuard = z.infer<typeof draftGuard>;

export const draftHasFindings = (g: DraftGuard): boolean => hasFindings(g.listings) || hasFindings(g.buyOrders) || g.undercuts.count > 0;

/** The counts a confirmation names, to hold against what the draft holds when it is applied (the cost marks only when there are some). */
export const confirmationOf = (g: DraftGuard) => ({ listings: countsOf(g.listings), buyOrders: countsOf(g.buyOrders), undercuts: g.undercuts.count });

function countsOf(f: GuardFindings) {
  return {
    drops: f.drops, belowFloor: f.belowFloor, rises: f.rises,
    ...(f.underCost ? { underCost: f.underCost } : {}),
    ...(f.underMargin ? { underMargin: f.underMargin } : {}),
  };
}
