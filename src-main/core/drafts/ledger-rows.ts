import type { BuyOrderRowView, ItemView, ListingRowView } from '../../../src-shared/ledger.ts';
import type { BuyOrderRow } from '../store/buy-orders-repo.ts';
import { isEnded, type ListingRow } from '../store/listings-repo.ts';
import {
  BUY_ORDERS_DELETE_ALL, LISTINGS_DELETE_ALL, isLockedStatus, isSettled, type ChangeOf, type DraftEntry,
} from './change.ts';
import { removedByDeleteAll, type LedgerView } from './ledger-view.ts';
import { liveEntry, type WorkingSet } from './working-set.ts';
import { coveredQuantity } from '../../../src-shared/balance-rule.ts';

/**
 * The draft laid over the ledger, one row at a time: the one place that says
 * what a table row is before and after the draft (the renderer draws what
 * this says and derives nothing). A row's own values are the ledger's, or the
 * create's for a row the draft creates; `pending` holds the draft's values
 * where they differ.
 */

/** A listing row's own values: the ledger row, or the draft's create of an asset not in the ledger. */
export type ListingSource = ListingRow | ChangeOf<'listing.create'>;
export type BuyOrderSource = BuyOrderRow | ChangeOf<'buyOrder.create'>;

export const isLedgerListing = (s: ListingSource): s is ListingRow => 'listing_id' in s;
export const isLedgerBuyOrder = (s: BuyOrderSource): s is BuyOrderRow => 'fills_seen' in s;

export const LOCKED_REASON = 'being applied, or its outcome is unknown';
export const UNKNOWN_ID_REASON = 'its listing ID is unknown (the create response was lost)';
export const DELETED_REASON = 'deleted in this draft';
export const ENDED_REASON = 'it is sold or no longer on the service';

/** What the draft does to every row of a table, read once per query. */
export interface DraftLayer {
  readonly ws: WorkingSet | null;
  /** `active_only` of the draft's delete-all of listings, or null without one. */
  readonly listingsDeleteAll: boolean | null;
  readonly buyOrdersDeleteAll: boolean;
}

export function draftLayer(ws: WorkingSet | null): DraftLayer {
  const all = ws ? liveEntry(ws, LISTINGS_DELETE_ALL)?.change : undefined;
  return {
    ws,
    listingsDeleteAll: all?.kind === 'listing.deleteAll' ? all.active_only : null,
    buyOrdersDeleteAll: ws !== null && liveEntry(ws, BUY_ORDERS_DELETE_ALL) !== undefined,
  };
}

const open = (e: DraftEntry | undefined): DraftEntry | undefined => (e && !isSettled(e.status) ? e : undefined);

function statusOf(e: DraftEntry | undefined): ListingRowView['status'] {
  if (!e) return null;
  if (e.status === 'queued' || e.status === 'sent') return 'sending';
  return e.status === 'pending' || e.status === 'failed' || e.status === 'unknown' ? e.status : null;
}

/** The source of a listing row: the ledger's, or the draft's create of an asset the ledger lacks. */
export function listingSource(key: string, ledger: LedgerView, ws: WorkingSet | null): ListingSource | undefined {
  const row = ledger.listings.get(key);
  if (row) return row;
  const c = ws ? open(ws.entries.peek('L', key))?.change : undefined;
  return c?.kind === 'listing.create' ? c : undefined;
}

export function buyOrderSource(key: string, ledger: LedgerView, ws: WorkingSet | null): BuyOrderSource | undefined {
  const row = ledger.buyOrders.get(key);
  if (row) return row;
  const c = ws ? open(ws.entries.peek('B', key))?.change : undefined;
  return c?.kind === 'buyOrder.create' ? c : undefined;
}

/** Whether the draft changes this listing row at all (the "changed only" filter). */
export function listingChanged(key: string, src: ListingSource, layer: DraftLayer): boolean {
  if (!isLedgerListing(src)) return true;
  const ws = layer.ws;
  if (ws && (open(ws.entries.peek('L', key)) || open(ws.entries.peek('LD', key)))) return true;
  return layer.listingsDeleteAll !== null && removedByDeleteAll(src, layer.listingsDeleteAll);
}

export function buyOrderChanged(key: string, src: BuyOrderSource, layer: DraftLayer): boolean {
  if (!isLedgerBuyOrder(src)) return true;
  const ws = layer.ws;
  if (ws && (open(ws.entries.peek('B', key)) || open(ws.entries.peek('BD', key)))) return true;
  return layer.buyOrdersDeleteAll;
}

export function listingView(key: string, src: ListingSource, layer: DraftLayer, now: number, item: ItemView | null): ListingRowView {
  const ws = layer.ws;
  const entry = ws ? ws.entries.peek('L', key) : undefined;
  const del = ws ? ws.entries.peek('LD', key) : undefined;
  const edit = open(entry);
  const deleting = open(del);
  const locked = (entry !== undefined && isLockedStatus(entry.status)) || (del !== undefined && isLockedStatus(del.status));
  const shown = deleting ?? edit;
  const common = {
    domain: 'listings' as const,
    key,
    item,
    status: statusOf(shown),
    problem: shown?.error?.message ?? null,
  };
  if (!isLedgerListing(src)) {
    return {
      ...common, change: 'create', removedByDeleteAll: false, blocked: locked ? LOCKED_REASON : null, updatedAt: edit?.updatedAt ?? now,
      asset_id: src.asset_id, listing_id: null, sku: src.sku ?? '', account: src.account, state: 'new', stateReason: null, tradeId: null,
      price: src.price, promoted: src.promoted, user_note: src.user_note ?? '', pending: null,
    };
  }
  const removed = layer.listingsDeleteAll !== null && removedByDeleteAll(src, layer.listingsDeleteAll);
  // Listing an asset again after deleting it: the row shows the new listing's values as pending.
  const relist = (deleting || removed) && edit?.change.kind === 'listing.create' ? edit.change : undefined;
  const e = edit?.change.kind === 'listing.edit' ? edit.change : relist;
  const pending: NonNullable<ListingRowView['pending']> = {};
  if (e) {
    if (e.price !== src.price) pending.price = e.price;
    if (e.promoted !== src.promoted) pending.promoted = e.promoted;
    if (e.user_note !== undefined && e.user_note !== src.user_note) pending.user_note = e.user_note;
  }
  return {
    ...common,
    change: relist ? 'create' : deleting || removed ? 'delete' : e ? 'edit' : null,
    removedByDeleteAll: removed && !deleting && !relist,
    blocked: locked ? LOCKED_REASON
      : src.listing_id === null ? UNKNOWN_ID_REASON
      : isEnded(src.state) ? ENDED_REASON
      : (deleting || removed) && !relist ? DELETED_REASON : null,
    updatedAt: src.updated_at,
    asset_id: src.asset_id, listing_id: src.listing_id, sku: src.sku, account: src.account,
    state: src.id_unknown ? 'id_unknown' : src.state,
    stateReason: src.state_reason, tradeId: src.trade_id,
    price: src.price, promoted: src.promoted, user_note: src.user_note,
    pending: e && (relist || !(deleting || removed)) && Object.keys(pending).length > 0 ? pending : null,
  };
}

export function buyOrderView(key: string, src: BuyOrderSource, layer: DraftLayer, now: number, item: ItemView | null, balance: number | null): BuyOrderRowView {
  const ws = layer.ws;
  const entry = ws ? ws.entries.peek('B', key) : undefined;
  const del = ws ? ws.entries.peek('BD', key) : undefined;
  const edit = open(entry);
  const deleting = open(del);
  const locked = (entry !== undefined && isLockedStatus(entry.status)) || (del !== undefined && isLockedStatus(del.status));
  const shown = deleting ?? edit;
  const common = {
    domain: 'buyOrders' as const,
    key,
    item,
    status: statusOf(shown),
    problem: shown?.error?.message ?? null,
  };
  if (!isLedgerBuyOrder(src)) {
    return {
      ...common, change: 'create', removedByDeleteAll: false, blocked: locked ? LOCKED_REASON : null, updatedAt: edit?.updatedAt ?? now,
      sku: src.sku, account: src.account, price: src.price, quantity: src.quantity, active: 1, filled: 0,
      quantityMayBeCut: false, balanceCovers: covers(balance, src.price, src.quantity), user_note: src.user_note ?? '', pending: null,
    };
  }
  const removed = layer.buyOrdersDeleteAll;
  const recreate = (deleting || removed) && edit?.change.kind === 'buyOrder.create' ? edit.change : undefined;
  const e = edit?.change.kind === 'buyOrder.edit' ? edit.change : recreate;
  const pending: NonNullable<BuyOrderRowView['pending']> = {};
  if (e) {
    if (e.price !== src.price) pending.price = e.price;
    if (e.quantity !== src.quantity) pending.quantity = e.quantity;
    const active = e.kind === 'buyOrder.edit' ? e.active : 1;
    if (active !== src.active) pending.active = active;
    if (e.user_note !== undefined && e.user_note !== src.user_note) pending.user_note = e.user_note;
  }
  return {
    ...common,
    change: recreate ? 'create' : deleting || removed ? 'delete' : e ? 'edit' : null,
    removedByDeleteAll: removed && !deleting && !recreate,
    blocked: locked ? LOCKED_REASON : (deleting || removed) && !recreate ? DELETED_REASON : null,
    updatedAt: src.updated_at,
    sku: src.sku, account: src.account, price: src.price, quantity: src.quantity, active: src.active,
    filled: src.fills_seen, quantityMayBeCut: src.quantity_may_be_cut, quantityAtLeast: src.quantity_at_least,
    balanceCovers: covers(balance, pending.price ?? src.price, (pending.quantity ?? src.quantity) - src.fills_seen), user_note: src.user_note,
    pending: e && (recreate || !(deleting || removed)) && Object.keys(pending).length > 0 ? pending : null,
  };
}

/**
 * The service's balance rule, floor(balance / price): how many units the
 * last balance read covers, when fewer than `wanted` (null when it covers
 * them all, or the balance is not known).
 */
export function covers(balance: number | null, price: number, wanted: number): number | null {
  if (balance === null || price <= 0) return null;
  const n = coveredQuantity(balance, price);
  return n < wanted ? n : null;
}
