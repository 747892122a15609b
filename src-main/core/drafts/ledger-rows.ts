import type { BuyOrderRowView, ItemView, ListingRowView } from '../../../src-shared/ledger.ts';
import { coveredQuantity } from '../../../src-shared/balance-rule.ts';
import { isEnded, type ListingState } from '../store/listings-repo.ts';
import { isLockedStatus, isSettled, LOCKED_REASON, type ChangeStatus } from './change.ts';
import type { ArmRow, DraftScope } from './ledger-sql.ts';

/**
 * One table row as the screens show it, from the row the SQL arms answer
 * (see ledger-sql.ts): the one place that says what a row is before and
 * after the draft (the renderer draws what this says and derives nothing).
 * `pending` holds the draft's values where they differ from the row's own.
 */

export const UNKNOWN_ID_REASON = 'its listing ID is unknown (the create response was lost)';
export const DELETED_REASON = 'deleted in this draft';
export const ENDED_REASON = 'it is sold or no longer on the service';

/** A change of the row as the arms project it (`e_…` or `x_…`), or null without one. */
interface Side {
  readonly kind: string;
  readonly status: ChangeStatus;
  readonly error: string | null;
  readonly updatedAt: number;
}

function sideOf(row: ArmRow, p: 'e' | 'x'): Side | null {
  const kind = p === 'e' ? row.e_kind : row.x_kind;
  if (kind === null) return null;
  return {
    kind,
    status: (p === 'e' ? row.e_status : row.x_status) as ChangeStatus,
    error: p === 'e' ? row.e_error : row.x_error,
    updatedAt: (p === 'e' ? row.e_updated_at : row.x_updated_at) ?? 0,
  };
}

const open = (s: Side | null): Side | null => (s && !isSettled(s.status) ? s : null);

function statusOf(s: Side | null): ListingRowView['status'] {
  if (!s) return null;
  if (s.status === 'queued' || s.status === 'sent') return 'sending';
  return s.status === 'pending' || s.status === 'failed' || s.status === 'unknown' ? s.status : null;
}

function problemOf(s: Side | null): string | null {
  if (!s?.error) return null;
  try {
    const parsed = JSON.parse(s.error) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message : null;
  } catch {
    return null;
  }
}

/** The parts of a row every table shows the same way. */
function draftSide(row: ArmRow) {
  const entry = sideOf(row, 'e');
  const del = sideOf(row, 'x');
  const edit = open(entry);
  const deleting = open(del);
  const shown = deleting ?? edit;
  return {
    edit, deleting,
    locked: (entry !== null && isLockedStatus(entry.status)) || (del !== null && isLockedStatus(del.status)),
    common: { key: row.key, status: statusOf(shown), problem: problemOf(shown) },
  };
}

/** Whether a listings delete-all (`active_only` as given) removes a ledger row in this state. */
export const removedByDeleteAll = (state: string | null, activeOnly: boolean): boolean => !activeOnly || state === 'active';

export function listingView(row: ArmRow, scope: DraftScope, now: number, item: ItemView | null): ListingRowView {
  const { edit, deleting, locked, common } = draftSide(row);
  const base = { domain: 'listings' as const, ...common, item };
  if (row.arm === 0) {
    return {
      ...base, change: 'create', removedByDeleteAll: false, blocked: locked ? LOCKED_REASON : null, updatedAt: edit?.updatedAt ?? now,
      asset_id: row.key, listing_id: null, sku: row.sku, account: row.account, state: 'new', stateReason: null, tradeId: null,
      price: row.price, promoted: row.promoted, user_note: row.user_note, pending: null,
    };
  }
  const removed = scope.deleteAll !== null && removedByDeleteAll(row.state, scope.deleteAll);
  // Listing an asset again after deleting it: the row shows the new listing's values as pending.
  const relist = (deleting || removed) && edit?.kind === 'listing.create';
  const edits = edit !== null && (edit.kind === 'listing.edit' || relist);
  const pending: NonNullable<ListingRowView['pending']> = {};
  if (edits) {
    if (row.e_price !== null && row.e_price !== row.price) pending.price = row.e_price;
    if (row.e_promoted !== null && row.e_promoted !== row.promoted) pending.promoted = row.e_promoted;
    if (row.e_note !== null && row.e_note !== row.user_note) pending.user_note = row.e_note;
  }
  const gone = (deleting !== null || removed) && !relist;
  return {
    ...base,
    change: relist ? 'create' : deleting || removed ? 'delete' : edits ? 'edit' : null,
    removedByDeleteAll: removed && !deleting && !relist,
    blocked: locked ? LOCKED_REASON
      : row.listing_id === null ? UNKNOWN_ID_REASON
      : isEnded(row.state as ListingState) ? ENDED_REASON
      : gone ? DELETED_REASON : null,
    updatedAt: row.updated_at,
    asset_id: row.key, listing_id: row.listing_id, sku: row.sku, account: row.account,
    state: row.id_unknown ? 'id_unknown' : (row.state ?? 'active'),
    stateReason: row.state_reason, tradeId: row.trade_id,
    price: row.price, promoted: row.promoted, user_note: row.user_note,
    pending: edits && !gone && Object.keys(pending).length > 0 ? pending : null,
  };
}

export function buyOrderView(row: ArmRow, scope: DraftScope, now: number, item: ItemView | null, balance: number | null): BuyOrderRowView {
  const { edit, deleting, locked, common } = draftSide(row);
  const base = { domain: 'buyOrders' as const, ...common, item };
  if (row.arm === 0) {
    return {
      ...base, change: 'create', removedByDeleteAll: false, blocked: locked ? LOCKED_REASON : null, updatedAt: edit?.updatedAt ?? now,
      sku: row.sku, account: row.account, price: row.price, quantity: row.quantity, active: 1, filled: 0,
      quantityMayBeCut: false, balanceCovers: covers(balance, row.price, row.quantity), user_note: row.user_note, pending: null,
    };
  }
  const removed = scope.deleteAll === true;
  const recreate = (deleting || removed) && edit?.kind === 'buyOrder.create';
  const edits = edit !== null && (edit.kind === 'buyOrder.edit' || recreate);
  const pending: NonNullable<BuyOrderRowView['pending']> = {};
  if (edits) {
    if (row.e_price !== null && row.e_price !== row.price) pending.price = row.e_price;
    if (row.e_quantity !== null && row.e_quantity !== row.quantity) pending.quantity = row.e_quantity;
    const active = edit.kind === 'buyOrder.edit' ? row.e_active : 1;
    if (active !== null && active !== row.active) pending.active = active;
    if (row.e_note !== null && row.e_note !== row.user_note) pending.user_note = row.e_note;
  }
  const gone = (deleting !== null || removed) && !recreate;
  return {
    ...base,
    change: recreate ? 'create' : deleting || removed ? 'delete' : edits ? 'edit' : null,
    removedByDeleteAll: removed && !deleting && !recreate,
    blocked: locked ? LOCKED_REASON : gone ? DELETED_REASON : null,
    updatedAt: row.updated_at,
    sku: row.key, account: row.account, price: row.price, quantity: row.quantity, active: row.active,
    filled: row.filled, quantityMayBeCut: row.may_be_cut === 1, quantityAtLeast: row.at_least,
    balanceCovers: covers(balance, pending.price ?? row.price, (pending.quantity ?? row.quantity) - row.filled), user_note: row.user_note,
    pending: edits && !gone && Object.keys(pending).length > 0 ? pending : null,
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
