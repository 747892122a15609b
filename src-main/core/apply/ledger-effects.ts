import type { CreatedListing } from '../api/schemas.ts';
import type { Change } from '../drafts/change.ts';
import type { Repos } from '../store/index.ts';

/**
 * What a change that the service confirmed (or that the trader marked as
 * done) does to the ledger. The ledger is the only record of the account's
 * listings, so it changes only on a confirmed outcome.
 */
export type LedgerRepos = Pick<Repos, 'listings' | 'buyOrders'>;

/**
 * Records a done change. `created` is the create response's entry for a new
 * listing; null means its listing_id is unknown (a lost response the trader
 * marked as done), which flags the listing.
 */
export function recordInLedger(repos: LedgerRepos, change: Change, created: CreatedListing | null = null): void {
  switch (change.kind) {
    case 'listing.create':
      repos.listings.upsert({
        asset_id: change.asset_id,
        listing_id: created?.listing_id ?? null,
        sku: created?.sku ?? change.sku ?? '',
        price: change.price,
        promoted: change.promoted,
        game: change.game,
        user_note: change.user_note ?? '',
        account: change.account,
        state: 'active',
      });
      return;
    case 'listing.edit':
      repos.listings.update(change.asset_id, {
        price: change.price, promoted: change.promoted, ...(change.user_note === undefined ? {} : { user_note: change.user_note }),
      });
      return;
    case 'listing.delete':
      repos.listings.remove([change.asset_id]);
      return;
    case 'listing.deleteAll':
      repos.listings.removeAll(change.active_only);
      return;
    case 'buyOrder.create':
      // The create response does not say the stored quantity: the service may
      // have cut it to floor(balance / price), so the row says "requested" until
      // the balance readings around the create settle it (buy-order-quantities.ts).
      repos.buyOrders.upsert({
        sku: change.sku, account: change.account, price: change.price, quantity: change.quantity,
        quantity_may_be_cut: true, active: 1, user_note: change.user_note ?? '',
      });
      return;
    case 'buyOrder.edit':
      repos.buyOrders.update(change.sku, {
        price: change.price, quantity: change.quantity, active: change.active,
        ...(change.user_note === undefined ? {} : { user_note: change.user_note }),
      });
      return;
    case 'buyOrder.delete':
      repos.buyOrders.remove([change.sku]);
      return;
    case 'buyOrder.deleteAll':
      repos.buyOrders.removeAll();
      return;
  }
}
