import { z } from 'zod';
import { rounding, priceStep } from './drafts.ts';
import { accountId, assetId, cents, flag01, gameId, userNote } from './fields.ts';
import { itemFacetCounts, itemFacetFilter } from './item-facets.ts';
import { itemView, stamp } from './ledger.ts';
import { undercutFindings } from './price-guard.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * The trader's inventories as the screens ask for them: main reads each
 * account's TF2 inventory from Steam, keeps it in the store with when it was
 * read, and answers filters, pages and counts; the picker sends a selection
 * (ids, or "all matching this filter minus these") and a price formula, and
 * main drafts the listings. The renderer never holds an inventory whole.
 */

export { killstreakFilter, type KillstreakFilter } from './item-facets.ts';

export const inventoryFilter = lazySchema(() => z.strictObject({
  /** One account's inventory; every account's when absent. */
  account: accountId.optional(),
  /** The item search (words in any order, as every table reads it), or the SKU or asset ID. */
  text: z.string().max(200).optional(),
  ...itemFacetFilter,
  /** `hide`: only items neither listed nor in the current draft; `only`: only those that are. */
  listed: z.enum(['hide', 'only']).optional(),
}));
export type InventoryFilter = z.infer<typeof inventoryFilter>;

export const inventorySort = lazySchema(() => z.strictObject({ column: z.enum(['name', 'asset', 'account']), dir: z.enum(['asc', 'desc']) }));
export type InventorySort = z.infer<typeof inventorySort>;

export const inventoryQuery = lazySchema(() => z.strictObject({
  filter: inventoryFilter.default({}),
  /** Null: Steam's order, newest first. */
  sort: inventorySort.nullable().default(null),
  offset: z.number().int().min(0).max(1_000_000).default(0),
  limit: z.number().int().min(1).max(500).default(100),
}));
export type InventoryQuery = z.input<typeof inventoryQuery>;

/** Items by asset ID, or every item matching a filter minus some (select all, then untick a few). */
export const inventorySelection = lazySchema(() => z.union([
  z.strictObject({ ids: z.array(assetId).max(200_000) }),
  z.strictObject({ filter: inventoryFilter, except: z.array(assetId).max(200_000).optional() }),
]));
export type InventorySelection = z.infer<typeof inventorySelection>;

export const inventoryItemView = lazySchema(() => z.object({
  /** The asset ID: the row's key. */
  key: z.string(),
  account: z.string(),
  /** '' when Steam's description could not be read as a SKU (the name is then Steam's). */
  sku: z.string(),
  item: itemView,
  /** Steam says the item cannot be traded now: it cannot be listed. */
  tradable: z.boolean(),
  /** The asset's listing in the ledger (any state), with its price. */
  listing: z.object({ state: z.string(), price: z.number().int() }).nullable(),
  /** The current draft lists it, at this price. */
  drafted: z.object({ price: z.number().int() }).nullable(),
}));
export type InventoryItemView = z.infer<typeof inventoryItemView>;

export const inventoryPage = lazySchema(() => z.object({
  stamp,
  offset: z.number().int(),
  /** Items matching the filter. */
  total: z.number().int(),
  /** Items in the inventories asked for (the filter's account), without the other filters. */
  all: z.number().int(),
  rows: z.array(inventoryItemView),
}));
export type InventoryPage = z.infer<typeof inventoryPage>;

/**
 * How reading one account's inventory goes. idle: never asked; reading: a read
 * is on its way (`progress`); waiting: Steam asked the desk to wait (429) or
 * the last read is too recent, the next try at `nextAt`; done: the last read
 * succeeded; failed: the last read could not be done (`problem` says why).
 */
export const inventoryPhase = z.enum(['idle', 'reading', 'waiting', 'done', 'failed']);

/** Why an inventory could not be read, as the screen says it. */
export const inventoryProblem = lazySchema(() => z.object({
  /**
   * private: Steam refuses to show it; rate_limited: Steam asks to wait; unreachable: no answer; unreadable: an answer the desk cannot read;
   * stopped: an answer that would not end, so the read stopped (what it read is shown, the phase is `done`).
   */
  kind: z.enum(['private', 'rate_limited', 'unreachable', 'unreadable', 'stopped']),
  /** A sentence for the trader, naming the account and what to do. */
  message: z.string(),
  at: z.number(),
}));
export type InventoryProblem = z.infer<typeof inventoryProblem>;

export const inventoryAccountState = lazySchema(() => z.object({
  account: z.string(),
  phase: inventoryPhase,
  /** When the items shown were read (ms); null before the first complete read. */
  readAt: z.number().nullable(),
  /** Items kept from that read. */
  items: z.number().int(),
  /** Items read so far of `total`, while reading. */
  progress: z.object({ read: z.number().int(), total: z.number().int().nullable() }).nullable(),
  /** When the next read or try starts (ms), while waiting. */
  nextAt: z.number().nullable(),
  problem: inventoryProblem.nullable(),
}));
export type InventoryAccountState = z.infer<typeof inventoryAccountState>;

export const inventoryState = z.object({
  stamp,
  /** Every account the key acts for, main first. */
  accounts: z.array(inventoryAccountState),
  /** What the kept items hold, for the filters: qualities, effects and killstreak tiers present, with counts. */
  facets: itemFacetCounts,
});
export type InventoryState = z.infer<typeof inventoryState>;

/**
 * How the picked items are priced: a fixed price for all, or a formula over a
 * reference (the item's price in the trader's standing listings, its lowest;
 * or the trader's buy order for it): × percent, rounded to a grid, as the
 * bulk edit does (src-shared/price-formula.ts). An item with no reference
 * gets `cents`, or is left out when `cents` is null.
 */
export const inventoryPricing = lazySchema(() => z.strictObject({
  from: z.enum(['fixed', 'listing', 'buyOrder']),
  cents: cents.nullable(),
  percent: z.number().positive().max(10_000).default(100),
  rounding: rounding.default('nearest'),
  step: priceStep.optional(),
}).refine((p) => p.from !== 'fixed' || p.cents !== null, { error: 'a fixed price needs its amount', path: ['cents'] }));
export type InventoryPricing = z.input<typeof inventoryPricing>;

/** What a picker's listings carry beside their price. */
export const listingExtras = lazySchema(() => z.strictObject({ promoted: flag01.default(0), user_note: userNote.optional() }));

export const inventoryDraftInput = z.strictObject({
  selection: inventorySelection,
  pricing: inventoryPricing,
  extras: listingExtras.default({ promoted: 0 }),
});

/** Items of a selection a draft leaves out, by reason: a count and a few asset IDs. */
const leftOut = lazySchema(() => z.object({ reason: z.string(), count: z.number().int(), sample: z.array(z.string()).max(5) }));

export const inventoryPricingOutcome = z.object({
  /** Items selected. */
  selected: z.number().int(),
  /** Items priced, that go into the draft. */
  priced: z.number().int(),
  leftOut: z.array(leftOut).max(20),
  /** The first few items with their price (and the reference it came from). */
  samples: z.array(z.object({ key: z.string(), name: z.string(), base: z.number().int().nullable(), price: z.number().int() })).max(10),
  minPrice: z.number().int().nullable(),
  maxPrice: z.number().int().nullable(),
  /** Items priced far under what the same item fetches (its lowest standing listing, its last sale), as the price guard marks them. */
  undercuts: undercutFindings,
});
export type InventoryPricingOutcome = z.infer<typeof inventoryPricingOutcome>;

export const inventoryDraftOutcome = lazySchema(() => inventoryPricingOutcome.extend({
  draftId: z.string(),
  /** New listings in the draft. */
  added: z.number().int(),
  /** Items the draft listed already, now at the new price. */
  replaced: z.number().int(),
  /** Refusals of the draft's own rules, each naming the asset. */
  errors: z.array(z.object({ assetId: z.string(), message: z.string() })).max(100),
  errorCount: z.number().int(),
}));
export type InventoryDraftOutcome = z.infer<typeof inventoryDraftOutcome>;

/** Asset IDs typed by hand, checked against the inventory before they are drafted. */
export const typedAssetsInput = z.strictObject({
  /** The account they are listed for; the main account when absent. */
  account: accountId.optional(),
  assetIds: z.array(assetId).max(5_000),
});

export const typedAssetCheck = lazySchema(() => z.object({
  assetId: z.string(),
  /** Where the asset is: in this account's inventory, another account's, or in none as last read. */
  found: z.enum(['here', 'other_account', 'not_found']),
  /** The account that holds it, when found. */
  account: z.string().nullable(),
  item: itemView.nullable(),
  sku: z.string(),
  tradable: z.boolean().nullable(),
  listing: z.object({ state: z.string(), price: z.number().int() }).nullable(),
  /** The current draft already lists it, at this price. */
  drafted: z.object({ price: z.number().int() }).nullable(),
}));

export const typedAssetsCheck = lazySchema(() => z.object({
  stamp,
  account: z.string(),
  /** When the account's inventory was read; null when it never was. */
  readAt: z.number().nullable(),
  /** Why the IDs cannot be checked (the inventory is private or was never read); null when they were. */
  unchecked: z.string().nullable(),
  rows: z.array(typedAssetCheck),
}));
export type TypedAssetsCheck = z.infer<typeof typedAssetsCheck>;

export const typedAssetsDraftInput = lazySchema(() => typedAssetsInput.extend({
  price: cents,
  game: gameId.default('440'),
  extras: listingExtras.default({ promoted: 0 }),
}));

export const typedAssetsDraftOutcome = lazySchema(() => z.object({
  draftId: z.string(),
  /** New listings in the draft. */
  added: z.number().int(),
  /** Assets the draft listed already, now at this price. */
  replaced: z.number().int(),
  errors: z.array(z.object({ assetId: z.string(), message: z.string() })).max(100),
  errorCount: z.number().int(),
  /** Drafted although they are not in the account's inventory as last read (the first 100); none when it was never read. */
  notFound: z.array(z.string()).max(100),
  notFoundCount: z.number().int(),
}));
export type TypedAssetsDraftOutcome = z.infer<typeof typedAssetsDraftOutcome>;
