import { z } from 'zod';
import { flag01 } from './fields.ts';
import { itemFacetFilter } from './item-facets.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * The ledger as the screens ask for it: main lays the current draft over the
 * ledger, filters, sorts and pages it, and answers one viewport at a time.
 * Selections name rows as main understands them ("these keys", or "all that
 * match this filter, minus these keys"), so selecting 50,000 rows crosses the
 * bridge as a few bytes and every bulk edit is computed where the data is.
 */

export const ledgerDomain = z.enum(['listings', 'buyOrders']);
export type LedgerDomain = z.infer<typeof ledgerDomain>;

/** A row's key: the asset ID of a listing, the SKU of a buy order. */
const rowKey = lazySchema(() => z.string().min(1).max(200));

/**
 * What the tables filter by. Values are the row's own (the ledger's, or the
 * create's for a row the draft creates), never the draft's pending ones, so a
 * row does not jump out of view while the trader reprices it, and "all that
 * match" means the rows on screen.
 */
export const ledgerFilter = lazySchema(() => z.strictObject({
  /** The item search (words in any order, as every table reads it), or text in the SKU, asset ID, listing ID or note. */
  text: z.string().max(200).optional(),
  ...itemFacetFilter,
  /** Exact SKU. */
  sku: z.string().max(200).optional(),
  minPrice: z.number().int().optional(),
  maxPrice: z.number().int().optional(),
  account: z.string().max(20).optional(),
  /** Listings only. */
  promoted: flag01.optional(),
  /** Buy orders only. */
  active: flag01.optional(),
  /** Case-insensitive, in the note only. */
  note: z.string().max(200).optional(),
  /** Only rows the current draft changes. */
  changedOnly: z.boolean().optional(),
}));
export type LedgerFilter = z.infer<typeof ledgerFilter>;

/** Rows by key, or every row matching a filter minus some keys (select all, then untick a few). */
export const ledgerSelection = lazySchema(() => z.union([
  z.strictObject({ ids: z.array(rowKey).max(200_000) }),
  z.strictObject({ filter: ledgerFilter, except: z.array(rowKey).max(200_000).optional() }),
]));
export type LedgerSelection = z.infer<typeof ledgerSelection>;

/** The columns a table can be sorted by; each domain has its own (checked by main). */
/** `newPrice`: the price after the draft (where the draft changes it); every other column sorts by the row's own value. */
export const ledgerColumn = z.enum(['name', 'asset', 'price', 'newPrice', 'promoted', 'note', 'account', 'state', 'quantity', 'active', 'filled']);
export type LedgerColumn = z.infer<typeof ledgerColumn>;
export const LISTING_COLUMNS: readonly LedgerColumn[] = ['name', 'asset', 'price', 'newPrice', 'promoted', 'note', 'account', 'state'];
export const BUY_ORDER_COLUMNS: readonly LedgerColumn[] = ['name', 'price', 'newPrice', 'quantity', 'active', 'filled', 'note', 'account'];

export const ledgerSort = z.strictObject({ column: ledgerColumn, dir: z.enum(['asc', 'desc']) });
export type LedgerSort = z.infer<typeof ledgerSort>;

/** One viewport of a ledger table. */
export const ledgerQuery = lazySchema(() => z.strictObject({
  domain: ledgerDomain,
  filter: ledgerFilter.default({}),
  sort: ledgerSort.nullable().default(null),
  offset: z.number().int().min(0).max(10_000_000).default(0),
  limit: z.number().int().min(1).max(500).default(100),
}));

/**
 * An item as a trader reads it: the name backpack.tf shows (the SKU itself
 * when the schema does not know it), and the parts a table marks apart.
 */
export const itemView = lazySchema(() => z.object({
  name: z.string(),
  /** False for a SKU newer than the schema: show the SKU and a quiet "unknown item". */
  known: z.boolean(),
  quality: z.string().nullable(),
  /** The quality's colour as traders know it (`#RRGGBB`). */
  color: z.string().nullable(),
  effect: z.string().nullable(),
  killstreak: z.string().nullable(),
  wear: z.string().nullable(),
  australium: z.boolean(),
  festivized: z.boolean(),
  craftable: z.boolean(),
}));
export type ItemView = z.infer<typeof itemView>;

/** What the draft does to a row, as every table shows it. */
const draftSide = {
  key: z.string(),
  change: z.enum(['create', 'edit', 'delete']).nullable(),
  /** A delete-all in the draft takes this row (shown as going, with the delete-all as its reason). */
  removedByDeleteAll: z.boolean(),
  /** Where the row's change stands; null without one. */
  status: z.enum(['pending', 'sending', 'failed', 'unknown']).nullable(),
  /** Why the last apply of the change failed, or why its outcome is unknown. */
  problem: z.string().nullable(),
  /** Why bulk edits leave this row out (listing ID unknown, being applied); null when they can change it. */
  blocked: z.string().nullable(),
  updatedAt: z.number(),
  /** The row's item, named (null only for a listing created without a known SKU). */
  item: itemView.nullable(),
};

export const listingRowView = lazySchema(() => z.object({
  domain: z.literal('listings'),
  ...draftSide,
  asset_id: z.string(),
  /** Null when a create's response was lost and it was marked done: the listing cannot be edited. */
  listing_id: z.string().nullable(),
  sku: z.string(),
  account: z.string(),
  /** active, id_unknown, sold_in_trade, sold, not_on_service, or another ledger state. */
  state: z.string(),
  /** Why a listing is sold or not on the service, in words (the trade, the service's refusal). */
  stateReason: z.string().nullable(),
  /** The trade that sold it. */
  tradeId: z.string().nullable(),
  price: z.number().int(),
  promoted: flag01,
  user_note: z.string(),
  /** The draft's new values where they differ; null when the draft does not edit the row. */
  pending: z.object({ price: z.number().int().optional(), promoted: flag01.optional(), user_note: z.string().optional() }).nullable(),
}));
export type ListingRowView = z.infer<typeof listingRowView>;

export const buyOrderRowView = lazySchema(() => z.object({
  domain: z.literal('buyOrders'),
  ...draftSide,
  sku: z.string(),
  account: z.string(),
  price: z.number().int(),
  quantity: z.number().int(),
  active: flag01,
  filled: z.number().int(),
  /** Created without knowing the balance: the service may have cut the quantity. */
  quantityMayBeCut: z.boolean(),
  /**
   * While it may be cut, the least the service can hold (the balance moved
   * between the readings around its create): "between this and quantity".
   * Absent or null when nothing narrower than 0..quantity is known.
   */
  quantityAtLeast: z.number().int().nullable().optional(),
  /** What the last balance read covers at the row's price, floor(balance / price), when less than the quantity left to fill. */
  balanceCovers: z.number().int().nullable(),
  user_note: z.string(),
  pending: z.object({
    price: z.number().int().optional(), quantity: z.number().int().optional(), active: flag01.optional(), user_note: z.string().optional(),
  }).nullable(),
}));
export type BuyOrderRowView = z.infer<typeof buyOrderRowView>;

export const ledgerRowView = z.discriminatedUnion('domain', [listingRowView, buyOrderRowView]);
export type LedgerRowView = z.infer<typeof ledgerRowView>;

/**
 * Which state of main a reply was computed from. Every area main owns has
 * one; a screen drops a reply older than what it already shows.
 */
export const stamp = lazySchema(() => z.number().int().nonnegative());

export const ledgerPage = lazySchema(() => z.object({
  domain: ledgerDomain,
  /** The draft laid over the ledger (main's current draft); null when there is none. */
  draftId: z.string().nullable(),
  stamps: z.object({ ledger: stamp, drafts: stamp }),
  offset: z.number().int(),
  /** Rows matching the filter. */
  total: z.number().int(),
  /** Rows in the table without a filter. */
  all: z.number().int(),
  /** Rows the draft changes, among those matching. */
  changed: z.number().int(),
  rows: z.array(ledgerRowView),
}));
export type LedgerPage = z.infer<typeof ledgerPage>;
