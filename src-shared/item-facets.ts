import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';

/**
 * The parts of an item every table filters by, as the inventory picker, the
 * Listings and the Buy orders ask for them: quality, Unusual effect,
 * killstreak tier, craftability and wear. Main answers them in SQL over the
 * item's parts (the picker's kept items, the ledger's names table).
 */

/** Killstreak tiers as the filters offer them: none, any, or one tier. */
export const killstreakFilter = z.enum(['none', 'any', 'basic', 'specialized', 'professional']);
export type KillstreakFilter = z.infer<typeof killstreakFilter>;

export const itemFacetFilter = {
  /** Quality ID (6 Unique, 11 Strange, 5 Unusual, ...); Strange also finds a Strange Unusual. */
  quality: z.number().int().min(0).max(99).optional(),
  /** Unusual effect ID. */
  effect: z.number().int().min(0).max(1_000_000).optional(),
  // Pure: a bundle that reads none of these schemas (the renderer's ledger screens) leaves zod out.
  killstreak: /* @__PURE__ */ killstreakFilter.optional(),
  craftable: z.boolean().optional(),
  /** Wear ID, 1 Factory New to 5 Battle Scarred. */
  wear: z.number().int().min(1).max(5).optional(),
};
export const itemFacets = z.strictObject(itemFacetFilter);
export type ItemFacets = z.infer<typeof itemFacets>;

/** The facet fields' names: a filter is read and cleared by them. */
export const ITEM_FACET_KEYS = ['quality', 'effect', 'killstreak', 'craftable', 'wear'] as const satisfies readonly (keyof ItemFacets)[];

const facet = lazySchema(() => z.object({ id: z.number().int(), name: z.string(), count: z.number().int() }));
export type Facet = z.infer<typeof facet>;

/** The values present in a table, with how many rows hold each, for its filters to offer. */
export const itemFacetCounts = lazySchema(() => z.object({
  qualities: z.array(facet),
  effects: z.array(facet),
  killstreaks: z.array(facet),
  wears: z.array(facet),
}));
export type ItemFacetCounts = z.infer<typeof itemFacetCounts>;
