import { describe, expect, it } from 'vitest';
import { LOCKED_REASON } from '../../../src-main/core/drafts/change.ts';
import type { ChangeStatus } from '../../../src-shared/drafts.ts';
import { buyOrderView, DELETED_REASON, ENDED_REASON, listingView, UNKNOWN_ID_REASON } from '../../../src-main/core/ledger/ledger-rows.ts';
import type { ArmRow, DraftScope } from '../../../src-main/core/store/ledger-arms.ts';

/**
 * The draft laid over one row, as both tables show it, from the row the SQL
 * arms answer: what the row becomes (create, edit, delete), the values laid
 * over it, and why a bulk edit leaves it out (a lock first, then the
 * domain's own reasons, then a delete).
 */

const NOW = 1_000;
const ledgerRow: ArmRow = {
  arm: 1, t1: 1, t2: '', key: '7', held: 1, sku: '5021;6', account: '1', price: 100, promoted: 0, active: 1, quantity: 3, filled: 1,
  user_note: '', listing_id: '900', id_unknown: 0, state: 'active', state_reason: null, trade_id: null, may_be_cut: 0, at_least: null,
  updated_at: 10, name: null,
  e_kind: null, e_status: null, e_error: null, e_price: null, e_promoted: null, e_quantity: null, e_active: null, e_note: null, e_updated_at: null,
  x_kind: null, x_status: null, x_error: null, x_price: null, x_promoted: null, x_quantity: null, x_active: null, x_note: null, x_updated_at: null,
};
const entry = (kind: string, status: ChangeStatus, values: Partial<ArmRow> = {}): Partial<ArmRow> => ({ e_kind: kind, e_status: status, e_updated_at: 20, ...values });
const deletion = (kind: string, status: ChangeStatus): Partial<ArmRow> => ({ x_kind: kind, x_status: status, x_updated_at: 30 });
const row = (...parts: Partial<ArmRow>[]): ArmRow => Object.assign({}, ledgerRow, ...parts);
const scope = (deleteAll: boolean | null = null): DraftScope => ({ draftId: 'd', deleteAll });
const listing = (r: ArmRow, s = scope()) => listingView(r, s, NOW, null);
const buyOrder = (r: ArmRow, s = scope()) => buyOrderView(r, s, NOW, null, null);
const overlayOf = (v: { change: unknown; removedByDeleteAll: boolean; blocked: string | null; pending: unknown }) =>
  ({ change: v.change, removedByDeleteAll: v.removedByDeleteAll, blocked: v.blocked, pending: v.pending });

describe('a listing row with the draft laid over it', () => {
  it('is a create the draft adds, locked while an apply sends it', () => {
    const created = row({ arm: 0 }, entry('listing.create', 'pending'));
    expect(listing(created)).toMatchObject({ change: 'create', state: 'new', blocked: null, updatedAt: 20, pending: null, status: 'pending' });
    expect(listing(row({ arm: 0 }, entry('listing.create', 'sent')))).toMatchObject({ blocked: LOCKED_REASON, status: 'sending' });
  });

  it('shows an edit\'s values where they differ from the row\'s, and nothing when none does', () => {
    expect(overlayOf(listing(row(entry('listing.edit', 'pending', { e_price: 120, e_promoted: 0, e_note: 'x' })))))
      .toEqual({ change: 'edit', removedByDeleteAll: false, blocked: null, pending: { price: 120, user_note: 'x' } });
    expect(listing(row(entry('listing.edit', 'pending', { e_price: 100 }))).pending).toBeNull();
    expect(listing(row(entry('listing.edit', 'done', { e_price: 120 }))).change).toBeNull();
  });

  it('is a delete, by its own change or by a delete-all, and shows no values then', () => {
    expect(overlayOf(listing(row(entry('listing.edit', 'pending', { e_price: 120 }), deletion('listing.delete', 'pending')))))
      .toEqual({ change: 'delete', removedByDeleteAll: false, blocked: DELETED_REASON, pending: null });
    expect(overlayOf(listing(row(), scope(true))))
      .toEqual({ change: 'delete', removedByDeleteAll: true, blocked: DELETED_REASON, pending: null });
    // Its own delete says so, not the delete-all.
    expect(listing(row(deletion('listing.delete', 'pending')), scope(false)).removedByDeleteAll).toBe(false);
    // A delete-all of active listings leaves a sold one.
    expect(listing(row({ state: 'sold' }), scope(true)).change).toBeNull();
  });

  it('listed again after its delete: a create with the new values pending', () => {
    const again = row(entry('listing.create', 'pending', { e_price: 150, e_promoted: 1, e_note: null }), deletion('listing.delete', 'pending'));
    expect(overlayOf(listing(again))).toEqual({ change: 'create', removedByDeleteAll: false, blocked: null, pending: { price: 150, promoted: 1 } });
    const afterAll = row(entry('listing.create', 'pending', { e_price: 150 }));
    expect(overlayOf(listing(afterAll, scope(false)))).toEqual({ change: 'create', removedByDeleteAll: false, blocked: null, pending: { price: 150 } });
  });

  it('says why a bulk edit leaves it out: a lock first, then an unknown ID or its end, then a delete', () => {
    expect(listing(row({ listing_id: null }, deletion('listing.delete', 'unknown'))).blocked).toBe(LOCKED_REASON);
    expect(listing(row({ listing_id: null }, deletion('listing.delete', 'pending'))).blocked).toBe(UNKNOWN_ID_REASON);
    expect(listing(row({ state: 'sold' }, deletion('listing.delete', 'pending'))).blocked).toBe(ENDED_REASON);
    expect(listing(row(entry('listing.edit', 'queued', { e_price: 1 }))).blocked).toBe(LOCKED_REASON);
    expect(listing(row(deletion('listing.delete', 'done'))).blocked).toBeNull();
  });
});

describe('a buy order row with the draft laid over it', () => {
  it('is a create the draft adds, active, with what the balance covers', () => {
    expect(buyOrder(row({ arm: 0 }, entry('buyOrder.create', 'pending')))).toMatchObject({ change: 'create', active: 1, filled: 0, blocked: null, pending: null });
  });

  it('shows an edit\'s values, pausing included', () => {
    expect(overlayOf(buyOrder(row(entry('buyOrder.edit', 'pending', { e_price: 90, e_quantity: 5, e_active: 0 })))))
      .toEqual({ change: 'edit', removedByDeleteAll: false, blocked: null, pending: { price: 90, quantity: 5, active: 0 } });
  });

  it('is a delete by its own change or the draft\'s delete-all; created again after it, a create that is active', () => {
    expect(overlayOf(buyOrder(row(deletion('buyOrder.delete', 'pending')))))
      .toEqual({ change: 'delete', removedByDeleteAll: false, blocked: DELETED_REASON, pending: null });
    expect(overlayOf(buyOrder(row(), scope(true)))).toEqual({ change: 'delete', removedByDeleteAll: true, blocked: DELETED_REASON, pending: null });
    expect(overlayOf(buyOrder(row({ active: 0 }, entry('buyOrder.create', 'pending', { e_price: 80 })), scope(true))))
      .toEqual({ change: 'create', removedByDeleteAll: false, blocked: null, pending: { price: 80, active: 1 } });
  });

  it('is left out of bulk edits while locked, whatever else it is', () => {
    expect(buyOrder(row(deletion('buyOrder.delete', 'sent'))).blocked).toBe(LOCKED_REASON);
    expect(buyOrder(row(entry('buyOrder.edit', 'unknown', { e_price: 1 })), scope(true)).blocked).toBe(LOCKED_REASON);
  });
});
