import { describe, expect, it } from 'vitest';
import { refusedItems } from '../../../src-main/core/apply/refused-items.ts';

const creates = ['11111111111', '22222222222', '33333333333'].map((asset_id) => ({ asset_id, price: 10, promoted: 0, game: '440' }));
const rejected = (message: string) => ({ kind: 'rejected' as const, message });

describe('refusedItems', () => {
  it('reads item indexes as a path or a bracket, every one named', () => {
    expect(refusedItems(rejected('x: {"success":false,"error":"items.1.asset_id: nope"}'), creates)).toEqual([1]);
    expect(refusedItems(rejected('items[2].price: too low'), creates)).toEqual([2]);
    expect(refusedItems(rejected('items.2.price and items.0.price'), creates)).toEqual([0, 2]);
    expect(refusedItems({ kind: 'invalid', message: 'bad', issues: [{ item: 1, field: 'items.1.sku', message: 'bad' }] }, creates)).toEqual([1]);
  });

  it('names nothing when an index is outside the batch or nothing is named', () => {
    expect(refusedItems(rejected('items.50.price'), creates)).toEqual([]);
    expect(refusedItems(rejected('refused'), creates)).toEqual([]);
  });

  it('finds an item by an identifier in the words: asset ID, listing ID or SKU', () => {
    expect(refusedItems(rejected('create_listing: refused (status 400): {"error":"asset 22222222222 already listed"}'), creates)).toEqual([1]);
    expect(refusedItems(rejected('assets 11111111111, 33333333333 are not yours.'), creates)).toEqual([0, 2]);
    const edits = [{ listing_id: 'lst_a1', price: 1, promoted: 0 }, { listing_id: 'lst_b2', price: 1, promoted: 0 }];
    expect(refusedItems(rejected('no listing lst_b2'), edits)).toEqual([1]);
    const orders = [{ sku: '5021;6', price: 1, quantity: 1 }, { sku: '378;11', price: 1, quantity: 1 }];
    expect(refusedItems(rejected('no buy order for 378;11'), orders)).toEqual([1]);
  });

  it('matches whole words only, and never a short number (an amount, not an asset)', () => {
    expect(refusedItems(rejected('asset 222222222225 is unknown'), creates)).toEqual([]);
    const small = [{ asset_id: '100', price: 1, promoted: 0, game: '440' }, { asset_id: '200', price: 1, promoted: 0, game: '440' }];
    expect(refusedItems(rejected('insufficient balance: 100 needed'), small)).toEqual([]);
  });
});
