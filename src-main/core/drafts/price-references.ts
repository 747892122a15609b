import type { CostConcern } from '../../../src-shared/cost-guard.ts';

/**
 * What the price guard holds a listing's new price against besides its old
 * price: what the item cost (core/costs/ answers it; the composition hands
 * it in, the drafts sit below the costs). Without it nothing is marked
 * against a cost.
 */
export interface PriceReferences {
  /** What the guard says of listing prices of these SKUs, `before` null for a new listing (null: nothing, or no cost known). */
  concerns(): (sku: string, before: number | null, after: number) => CostConcern | null;
  /** Moves when what the marks depend on changed (a cost counted or set, the guard's margin): a kept finding is stale then. */
  version(): number;
}

export const NO_REFERENCES: PriceReferences = { concerns: () => () => null, version: () => 0 };
