import type { BuyOrderRowView, ItemView, ListingRowView } from '../../../src-shared/ledger.ts';
import { coveredQuantity } from '../../../src-shared/balance-rule.ts';
import { z } from 'zod';
import type { ChangeStatus } from '../../../src-shared/drafts.ts';
import { isLockedStatus, isSettled, LOCKED_REASON } from '../store/draft-entry.ts';
import type { ArmRow, DraftScope } from '../store/ledger-arms.ts';
import { isEnded } from '../store/listings-repo.ts';

/**
 * One table row as the screens show it, from the row the SQL arms answer
 * (see store/ledger-arms.ts): the one place that says what a row is before and
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
  const status = p === 'e' ? row.e_status : row.x_status;
  if (kind === null || status === null) return null;
  return {
    kind,
    status,
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

/** What a stored error says, when it is readable (it only ever words a refusal). */
const errorMessage = z.object({ message: z.string() });

function problemOf(s: Side | null): string | null {
  if (!s?.error) return null;
  try {
    const parsed = errorMessage.safeParse(JSON.parse(s.error));
    return parsed.success ? parsed.data.message : null;
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

type DraftSide = ReturnType<typeof draftSide>;

/** What every table shows of a row the draft creates (arm 0). */
const createdRow = (side: DraftSide, now: number) => ({
  change: 'create' as const, removedByDeleteAll: false, blocked: side.locked ? LOCKED_REASON : null, updatedAt: side.edit?.updatedAt ?? now, pending: null,
});

/**
 * The draft laid over a ledger row, the same in every table. `removed`: the
 * draft's delete-all takes the row; `kinds`: the domain's create and edit;
 * `ownReason`: why the domain leaves this row out of bulk edits, if it does
 * (it comes after a lock and before a delete). A row created again after its
 * delete shows the new values as pending.
 */
function overlay(side: DraftSide, removed: boolean, kinds: { readonly create: string; readonly edit: string }, ownReason: string | null = null) {
  const again = (side.deleting !== null || removed) && side.edit?.kind === kinds.create;
  const edits = side.edit !== null && (side.edit.kind === kinds.edit || again);
  const gone = (side.deleting !== null || removed) && !again;
  return {
    /** Whether the draft's values are laid over the row's: the caller fills `pending` then. */
    edits,
    change: again ? ('create' as const) : side.deleting !== null || removed ? ('delete' as const) : edits ? ('edit' as const) : null,
    removedByDeleteAll: removed && side.deleting === null && !again,
    blocked: side.locked ? LOCKED_REASON : ownReason ?? (gone ? DELETED_REASON : null),
    /** The values that differ, shown unless the row is deleted. */
    pendingOf: <P extends object>(pending: P): P | null => (edits && !gone && Object.keys(pending).length > 0 ? pending : null),
  };
}

const LISTING_KINDS = { create: 'listing.create', edit: 'listing.edit' } as const;
const BUY_ORDER_KINDS = { create: 'buyOrder.create', edit: 'buyOrder.edit' } as const;

export function listingView(row: ArmRow, scope: DraftScope, now: number, item: ItemView | null): ListingRowView {
  const side = draftSide(row);
  const base = { domain: 'listings' as const, ...side.common, item };
  if (row.arm === 0) {
    return {
      ...base, ...createdRow(side, now),
      asset_id: row.key, listing_id: null, sku: row.sku, account: row.account, state: 'new', stateReason: null, tradeId: null,
      price: row.price, promoted: row.promoted, user_note: row.user_note,
    };
  }
  const removed = scope.deleteAll !== null && removedByDeleteAll(row.state, scope.deleteAll);
  const own = row.listing_id === null ? UNKNOWN_ID_REASON : row.state !== null && row.state !== 'new' && isEnded(row.state) ? ENDED_REASON : null;
  const o = overlay(side, removed, LISTING_KINDS, own);
  const pending: NonNullable<ListingRowView['pending']> = {};
  if (o.edits) {
    if (row.e_price !== null && row.e_price !== row.price) pending.price = row.e_price;
    if (row.e_promoted !== null && row.e_promoted !== row.promoted) pending.promoted = row.e_promoted;
    if (row.e_note !== null && row.e_note !== row.user_note) pending.user_note = row.e_note;
  }
  return {
    ...base, change: o.change, removedByDeleteAll: o.removedByDeleteAll, blocked: o.blocked, updatedAt: row.updated_at,
    asset_id: row.key, listing_id: row.listing_id, sku: row.sku, account: row.account,
    state: row.id_unknown ? 'id_unknown' : (row.state ?? 'active'),
    stateReason: row.state_reason, tradeId: row.trade_id,
    price: row.price, promoted: row.promoted, user_note: row.user_note,
    pending: o.pendingOf(pending),
  };
}

export function buyOrderView(row: ArmRow, scope: DraftScope, now: number, item: ItemView | null, balance: number | null): BuyOrderRowView {
  const side = draftSide(row);
  const base = { domain: 'buyOrders' as const, ...side.common, item };
  if (row.arm === 0) {
    return {
      ...base, ...createdRow(side, now),
      sku: row.sku, account: row.account, price: row.price, quantity: row.quantity, active: 1, filled: 0,
      quantityMayBeCut: false, balanceCovers: covers(balance, row.price, row.quantity), user_note: row.user_note,
    };
  }
  const o = overlay(side, scope.deleteAll === true, BUY_ORDER_KINDS);
  const pending: NonNullable<BuyOrderRowView['pending']> = {};
  if (o.edits) {
    if (row.e_price !== null && row.e_price !== row.price) pending.price = row.e_price;
    if (row.e_quantity !== null && row.e_quantity !== row.quantity) pending.quantity = row.e_quantity;
    const active = side.edit?.kind === 'buyOrder.edit' ? row.e_active : 1;
    if (active !== null && active !== row.active) pending.active = active;
    if (row.e_note !== null && row.e_note !== row.user_note) pending.user_note = row.e_note;
  }
  return {
    ...base, change: o.change, removedByDeleteAll: o.removedByDeleteAll, blocked: o.blocked, updatedAt: row.updated_at,
    sku: row.key, account: row.account, price: row.price, quantity: row.quantity, active: row.active,
    filled: row.filled, quantityMayBeCut: row.may_be_cut === 1, quantityAtLeast: row.at_least,
    balanceCovers: covers(balance, pending.price ?? row.price, (pending.quantity ?? row.quantity) - row.filled), user_note: row.user_note,
    pending: o.pendingOf(pending),
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
