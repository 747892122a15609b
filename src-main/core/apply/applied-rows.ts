import type { CreatedListing } from '../api/schemas.ts';
import type { Change } from '../drafts/change.ts';
import type { RowValues } from '../store/applied-repo.ts';
import type { BuyOrderRow } from '../store/buy-orders-repo.ts';
import type { Repos } from '../store/index.ts';
import type { ListingRow } from '../store/listings-repo.ts';
import { recordInLedger } from './ledger-effects.ts';

/**
 * A change a run's request did (or the trader said it did) goes into the
 * ledger here, and what it changed is kept for an undo of the run: the
 * ledger row before and after, the first "before" of the run and its last
 * "after" (see store/applied-repo.ts). Changes settled without changing
 * anything on the service (a delete of a listing already sold) go through
 * recordInLedger alone.
 */
export type AppliedRepos = Pick<Repos, 'listings' | 'buyOrders' | 'applied'>;

export const listingValues = (row: ListingRow | null): RowValues | null =>
  row === null ? null : { listing_id: row.listing_id, price: row.price, promoted: row.promoted, quantity: null, active: null, user_note: row.user_note };

export const buyOrderValues = (row: BuyOrderRow | null): RowValues | null =>
  row === null ? null : { listing_id: null, price: row.price, promoted: null, quantity: row.quantity, active: row.active, user_note: row.user_note };

/** Records a done change of run `runId` in the ledger, keeping the row's values before and after it. */
export function recordApplied(repos: AppliedRepos, runId: number, change: Change, created: CreatedListing | null = null): void {
  switch (change.kind) {
    case 'listing.deleteAll':
      repos.applied.noteRemovedAll(runId, 'L', change.active_only);
      recordInLedger(repos, change, created);
      return;
    case 'buyOrder.deleteAll':
      repos.applied.noteRemovedAll(runId, 'B', false);
      recordInLedger(repos, change, created);
      return;
    case 'listing.create':
    case 'listing.edit':
    case 'listing.delete': {
      const before = repos.listings.get(change.asset_id);
      recordInLedger(repos, change, created);
      const after = repos.listings.get(change.asset_id);
      repos.applied.note({
        runId, slot: 'L', key: change.asset_id, account: (after ?? before)?.account ?? change.account, sku: (after ?? before)?.sku ?? '',
        before: listingValues(before), after: listingValues(after), kind: change.kind,
      });
      return;
    }
    case 'buyOrder.create':
    case 'buyOrder.edit':
    case 'buyOrder.delete': {
      const before = repos.buyOrders.get(change.sku);
      recordInLedger(repos, change, created);
      const after = repos.buyOrders.get(change.sku);
      repos.applied.note({
        runId, slot: 'B', key: change.sku, account: (after ?? before)?.account ?? change.account, sku: change.sku,
        before: buyOrderValues(before), after: buyOrderValues(after), kind: change.kind,
      });
      return;
    }
  }
}
