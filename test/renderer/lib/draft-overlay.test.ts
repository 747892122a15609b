import { describe, expect, it } from 'vitest';
import type { BuyOrderRow, ChangeView, ListingRow } from '../../../src-shared/contract.ts';
import { buildOverlay, patchOverlay, type LocalPatch } from '../../../src-renderer/src/lib/draft-overlay.ts';
import { overlayBuyOrders, overlayListings } from '../../../src-renderer/src/lib/overlay-rows.ts';

let n = 0;
function change(kind: string, target: string, fields: Record<string, unknown>, status: ChangeView['status'] = 'pending', error: string | null = null): ChangeView {
  return { id: `c${++n}`, kind, target, fields, status, error, updatedAt: n };
}
const listing = (asset: string, id: string | null, price = 100): ListingRow => ({
  listing_id: id, asset_id: asset, sku: '5021;6', price, promoted: 0, game: '440', user_note: '', account: 'main', state: 'active', updatedAt: 0,
});

describe('draft overlay on the ledger', () => {
  it('shows an edit’s new values beside the ledger’s (before → after)', () => {
    const overlay = buildOverlay([change('listing.edit', '1', { listing_id: 'L1', asset_id: '1', price: 90, promoted: 1 })]);
    const [row] = overlayListings([listing('1', 'L1')], overlay, 'main');
    expect(row?.change).toBe('edit');
    expect(row?.row.price).toBe(100);
    expect(row?.pending).toEqual({ price: 90, promoted: 1 });
  });

  it('puts listings created in the draft first, keyed by asset ID', () => {
    const overlay = buildOverlay([change('listing.create', '77', { asset_id: '77', price: 450, promoted: 0, game: '440' })]);
    const rows = overlayListings([listing('1', 'L1')], overlay, 'main');
    expect(rows.map((r) => [r.key, r.change])).toEqual([['77', 'create'], ['1', null]]);
    expect(rows[0]?.row.price).toBe(450);
    expect(rows[0]?.row.account).toBe('main');
  });

  it('keeps drafted listings in asset ID order, however main orders the changes', () => {
    const create = (asset: string) => change('listing.create', asset, { asset_id: asset, price: 100, promoted: 0, game: '440' });
    const rows = overlayListings([], buildOverlay([create('30'), create('100'), create('4')]), 'main');
    expect(rows.map((r) => r.key)).toEqual(['4', '30', '100']);
  });

  it('marks deletes, which win over edits of the same listing', () => {
    const overlay = buildOverlay([
      change('listing.edit', '1', { price: 90 }),
      change('listing.delete', '1', { asset_id: '1' }),
    ]);
    const [row] = overlayListings([listing('1', 'L1')], overlay, 'main');
    expect(row?.change).toBe('delete');
    expect(row?.pending).toBeNull();
  });

  it('leaves out changes already applied, and shows why one failed', () => {
    const overlay = buildOverlay([
      change('listing.edit', '1', { price: 90 }, 'done'),
      change('listing.edit', '2', { price: 50 }, 'failed', 'price too low'),
    ]);
    const rows = overlayListings([listing('1', 'L1'), listing('2', 'L2')], overlay, 'main');
    expect(rows[0]?.change).toBeNull();
    expect(rows[1]?.problem).toBe('price too low');
  });

  it('lets the later change to the same target win', () => {
    const overlay = buildOverlay([change('listing.edit', '1', { price: 90 }), change('listing.edit', '1', { price: 70 })]);
    expect(overlayListings([listing('1', 'L1')], overlay, 'main')[0]?.pending?.price).toBe(70);
  });

  it('reads field values defensively: wrong types are ignored, not shown', () => {
    const overlay = buildOverlay([change('listing.edit', '1', { price: '90', promoted: 2, user_note: 'hi' })]);
    expect(overlayListings([listing('1', 'L1')], overlay, 'main')[0]?.pending).toEqual({ user_note: 'hi' });
  });

  it('overlays buy orders by SKU, including pause and quantity', () => {
    const order: BuyOrderRow = { sku: '5021;6', account: 'main', price: 300, quantity: 4, active: 1, user_note: '', filled: 1, quantityMayBeCut: false, updatedAt: 0 };
    const overlay = buildOverlay([
      change('buyOrder.edit', '5021;6', { active: 0, quantity: 2 }),
      change('buyOrder.create', '5002;6', { sku: '5002;6', price: 150, quantity: 3 }),
    ]);
    const rows = overlayBuyOrders([order], overlay, 'main');
    expect(rows.map((r) => [r.key, r.change])).toEqual([['5002;6', 'create'], ['5021;6', 'edit']]);
    expect(rows[1]?.pending).toEqual({ active: 0, quantity: 2 });
  });

  it('marks as pending only the fields that differ from the ledger (stored edits carry every field)', () => {
    const overlay = buildOverlay([change('listing.edit', '1', { listing_id: 'L1', price: 100, promoted: 1, user_note: '' })]);
    expect(overlayListings([listing('1', 'L1')], overlay, 'main')[0]?.pending).toEqual({ promoted: 1 });
  });

  it('shows listing an asset again after deleting it on the ledger’s row, not as a second row', () => {
    const overlay = buildOverlay([
      change('listing.delete', '1', { asset_id: '1' }),
      change('listing.create', '1', { asset_id: '1', price: 300, promoted: 0, game: '440' }),
    ]);
    const rows = overlayListings([listing('1', 'L1')], overlay, 'main');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.change).toBe('create');
    expect(rows[0]?.pending).toEqual({ price: 300 });
  });

  it('notes a delete-all in the draft', () => {
    expect(buildOverlay([change('listing.deleteAll', '*', { active_only: true })]).listingDeleteAll).not.toBeNull();
  });

  describe('local bulk patches', () => {
    const patch = (target: LocalPatch['target'], values: Record<string, Record<string, unknown>>): LocalPatch => ({ target, values: new Map(Object.entries(values)) });

    it('show as new edits with no id on untouched rows, and over a stored edit’s other fields', () => {
      const stored = buildOverlay([change('listing.edit', '2', { listing_id: 'L2', asset_id: '2', price: 100, user_note: 'kept' })]);
      const overlay = patchOverlay(stored, [patch('listings', { 1: { price: 90 }, 2: { price: 80 } })]);
      const rows = overlayListings([listing('1', 'L1'), listing('2', 'L2'), listing('3', 'L3')], overlay, 'main');
      expect(rows.map((r) => [r.change, r.changeId, r.pending])).toEqual([
        ['edit', '', { price: 90 }],
        ['edit', stored.listingEdits.get('2')?.id, { price: 80, user_note: 'kept' }],
        [null, null, null],
      ]);
    });

    it('apply in order, merge into a drafted create, and leave a deleted row deleted', () => {
      const stored = buildOverlay([
        change('listing.create', '77', { asset_id: '77', price: 450, promoted: 0, game: '440' }),
        change('listing.delete', '2', { listing_id: 'L2' }),
      ]);
      const overlay = patchOverlay(stored, [
        patch('listings', { 1: { price: 90 }, 77: { price: 400 }, 2: { price: 5 } }),
        patch('listings', { 1: { promoted: 1 } }),
      ]);
      const rows = overlayListings([listing('1', 'L1'), listing('2', 'L2')], overlay, 'main');
      expect(rows.map((r) => [r.key, r.change, r.pending])).toEqual([
        ['77', 'create', null],
        ['1', 'edit', { price: 90, promoted: 1 }],
        ['2', 'delete', null],
      ]);
      expect(rows[0]?.row.price).toBe(400);
      // The stored overlay itself is untouched: dropping the patches shows it as it was.
      expect(overlayListings([listing('1', 'L1')], stored, 'main').map((r) => [r.key, r.change, r.row.price])).toEqual([['77', 'create', 450], ['1', null, 100]]);
    });

    it('patch buy orders by SKU the same way', () => {
      const order: BuyOrderRow = { sku: '5021;6', account: 'main', price: 100, quantity: 3, active: 1, user_note: '', filled: 0, quantityMayBeCut: false, updatedAt: 0 };
      const overlay = patchOverlay(buildOverlay([]), [patch('buyOrders', { '5021;6': { active: 0 } })]);
      expect(overlayBuyOrders([order], overlay, 'main')[0]?.pending).toEqual({ active: 0 });
      expect(overlayListings([listing('5021;6', 'L1')], overlay, 'main')[0]?.change).toBeNull();
    });
  });
});
