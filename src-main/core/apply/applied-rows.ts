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
    case 'listing.delete':
      noteAround(repos, runId, change, created, { slot: 'L', key: change.asset_id, sku: '', read: (id) => repos.listings.get(id), values: listingValues });
      return;
    case 'buyOrder.create':
    case 'buyOrder.edit':
    case 'buyOrder.delete':
      noteAround(repos, runId, change, created, { slot: 'B', key: change.sku, sku: change.sku, read: (sku) => repos.buyOrders.get(sku), values: buyOrderValues });
      return;
  }
}

/** The ledger row a change is about, read just before and just after the change goes into the ledger, kept for the undo. */
function noteAround<R extends { readonly account: string; readonly sku: string }>(
  repos: AppliedRepos, runId: number, change: Change & { readonly account: string }, created: CreatedListing | null,
  row: { slot: 'L' | 'B'; key: string; sku: string; read: (key: string) => R | null; values: (row: R | null) => RowValues | null },
): void {
  const before = row.read(row.key);
  recordInLedger(repos, change, created);
  const after = row.read(row.key);
  const held = after ?? before;
  repos.applied.note({
    runId, slot: row.slot, key: row.key, account: held?.account ?? change.account, sku: held?.sku ?? row.sku,
    before: row.values(before), after: row.values(after), kind: change.kind,
  });
}
