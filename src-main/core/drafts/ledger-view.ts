import type { Store } from '../store/db.ts';
import type { Repos } from '../store/index.ts';
import type { BuyOrderRow } from '../store/buy-orders-repo.ts';
import type { ListingRow } from '../store/listings-repo.ts';
import { inSequence, overPages, runInSlices, SLICE_ROWS, type SlicedWork, type Turn } from './sliced-read.ts';

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

export interface LedgerCache {
  /** The view of the ledger as stored now: built at once when it is stale (finishing a warm-up under way). */
  (): LedgerView;
  /** Builds the view a slice at a time (see sliced-read.ts); gives up when the ledger changes meanwhile. */
  warm(turn: Turn): Promise<void>;
}

export function createLedgerCache(store: Store, repos: Pick<Repos, 'listings' | 'buyOrders'>): LedgerCache {
  let view: LedgerView | null = null;
  let building: { view: LedgerView; work: SlicedWork } | null = null;
  const current = (v: LedgerView | null | undefined): v is LedgerView => v?.version === store.ledgerVersion;

  function begin(): { view: LedgerView; work: SlicedWork } {
    const listings = new Map<string, ListingRow>();
    const listingsById = new Map<string, ListingRow>();
    const buyOrders = new Map<string, BuyOrderRow>();
    const work = inSequence(
      overPages(repos.listings.checkedPages(SLICE_ROWS), (row) => {
        listings.set(row.asset_id, row);
        if (row.listing_id !== null) listingsById.set(row.listing_id, row);
      }),
      overPages(repos.buyOrders.checkedPages(SLICE_ROWS), (row) => buyOrders.set(row.sku, row)),
    );
    return { view: { version: store.ledgerVersion, listings, listingsById, buyOrders }, work };
  }

  const get = (): LedgerView => {
    if (current(view)) return view;
    const b = building && current(building.view) ? building : begin();
    building = null;
    b.work.step();
    view = b.view;
    return view;
  };

  async function warm(turn: Turn): Promise<void> {
    await turn();
    if (current(view) || building) return;
    const b = (building = begin());
    const done = await runInSlices(b.work, turn, () => building === b && current(b.view));
    if (building !== b) return;
    building = null;
    if (done) view = b.view;
  }

  return Object.assign(get, { warm });
}

/** Whether a delete-all of listings (with this `active_only`) removes this ledger row. */
export function removedByDeleteAll(row: ListingRow, activeOnly: boolean): boolean {
  return !activeOnly || row.state === 'active';
}
