import type { ActivityEntry, BuyOrderRow, ListingRow } from '../../../src-shared/contract.ts';
import type { Desk } from '../../core/desk/desk.ts';
import type { ActivityRow } from '../../core/store/activity-repo.ts';
import type { BuyOrderRow as StoredBuyOrder } from '../../core/store/buy-orders-repo.ts';
import type { ListingRow as StoredListing } from '../../core/store/listings-repo.ts';
import type { Handlers } from '../router.ts';

/** Handlers for the ledger (what the account has on the market) and the activity log. */
export function ledgerHandlers(desk: Desk): Pick<Handlers, 'listings:list' | 'buyOrders:list' | 'activity:list'> {
  const repos = () => desk.workspace().repos;
  return {
    'listings:list': () => repos().listings.all().map(listingView),
    'buyOrders:list': () => repos().buyOrders.all().map(buyOrderView),
    'activity:list': ({ text, outcome, limit }) =>
      repos()
        .activity.list({
          ...(text ? { text } : {}),
          ...(outcome ? { status: outcome as ActivityRow['status'] } : {}),
          limit: limit ?? 500,
        })
        .map(activityView),
  };
}

export const listingView = (row: StoredListing): ListingRow => ({
  listing_id: row.listing_id,
  asset_id: row.asset_id,
  sku: row.sku,
  price: row.price,
  promoted: row.promoted,
  game: row.game,
  user_note: row.user_note,
  account: row.account,
  state: row.id_unknown ? 'id unknown' : row.state,
  updatedAt: row.updated_at,
  ...(row.state_reason === null ? {} : { stateReason: row.state_reason }),
  ...(row.trade_id === null ? {} : { tradeId: row.trade_id }),
});

export const buyOrderView = (row: StoredBuyOrder): BuyOrderRow => ({
  sku: row.sku,
  account: row.account,
  price: row.price,
  quantity: row.quantity,
  active: row.active,
  user_note: row.user_note,
  filled: row.fills_seen,
  quantityMayBeCut: row.quantity_may_be_cut,
  updatedAt: row.updated_at,
});

export const activityView = (row: ActivityRow): ActivityEntry => ({
  id: row.id,
  at: row.at,
  endpoint: row.endpoint,
  itemCount: row.item_count,
  outcome: row.status,
  message: [
    row.account ? `account ${row.account}` : null,
    row.targets.length > 0 ? `${row.targets.slice(0, 5).join(', ')}${row.targets.length > 5 ? ` and ${row.targets.length - 5} more` : ''}` : null,
    row.error?.message ?? null,
    row.note,
  ]
    .filter((part): part is string => part !== null)
    .join(' · '),
});
