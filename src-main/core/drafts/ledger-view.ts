import type { Store } from '../store/db.ts';
import type { Repos } from '../store/index.ts';
import type { BuyOrderRow } from '../store/buy-orders-repo.ts';
import type { ListingRow } from '../store/listings-repo.ts';

/**
 * The ledger held in memory for drafting: editing and bulk operations look
 * rows up by asset, listing ID or SKU tens of thousands of times, which must
 * not cost a query each. Rebuilt only when the store says the ledger changed.
 */
export interface LedgerView {
  readonly version: number;
  readonly listings: ReadonlyMap<string, ListingRow>;
  readonly listingsById: ReadonlyMap<string, ListingRow>;
  readonly buyOrders: ReadonlyMap<string, BuyOrderRow>;
}

export function createLedgerCache(store: Store, repos: Pick<Repos, 'listings' | 'buyOrders'>): () => LedgerView {
  let view: LedgerView | null = null;
  return () => {
    if (view && view.version === store.ledgerVersion) return view;
    const version = store.ledgerVersion;
    const listings = new Map<string, ListingRow>();
    const listingsById = new Map<string, ListingRow>();
    for (const row of repos.listings.all()) {
      listings.set(row.asset_id, row);
      if (row.listing_id !== null) listingsById.set(row.listing_id, row);
    }
    const buyOrders = new Map<string, BuyOrderRow>();
    for (const row of repos.buyOrders.all()) buyOrders.set(row.sku, row);
    view = { version, listings, listingsById, buyOrders };
    return view;
  };
}

/** Whether a delete-all of listings (with this `active_only`) removes this ledger row. */
export function removedByDeleteAll(row: ListingRow, activeOnly: boolean): boolean {
  return !activeOnly || row.state === 'active';
}
