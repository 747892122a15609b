import { describe, expect, it } from 'vitest';
import type { ListingRow } from '../../../src-shared/contract.ts';
import type { ListingDisplay } from '../../../src-renderer/src/lib/draft-overlay.ts';
import { emptyFilter, filterListings, isFilterActive } from '../../../src-renderer/src/lib/ledger-filter.ts';

function listing(asset: string, over: Partial<ListingRow> = {}): ListingDisplay {
  const row: ListingRow = {
    listing_id: `L${asset}`, asset_id: asset, sku: '5021;6', price: 100, promoted: 0, game: '440',
    user_note: '', account: 'main1', state: 'active', updatedAt: 0, ...over,
  };
  return { key: asset, row, change: null, pending: null, changeId: null, problem: null };
}

const rows = [
  listing('1', { sku: '5021;6', price: 150, user_note: 'Fast trades' }),
  listing('2', { sku: '5002;6', price: 500, promoted: 1 }),
  listing('3', { sku: '378;11;kt-3', price: 2500, account: 'linked7' }),
  { ...listing('4', { sku: '5021;6', price: 90 }), change: 'edit' as const, pending: { price: 80 } },
];
const keys = (list: readonly ListingDisplay[]) => list.map((d) => d.key);

describe('ledger filters', () => {
  it('returns the same list when no filter is set (no copy of 50,000 rows)', () => {
    expect(filterListings(rows, emptyFilter())).toBe(rows);
    expect(isFilterActive(emptyFilter())).toBe(false);
  });

  it('filters by SKU text, case-insensitively', () => {
    expect(keys(filterListings(rows, { ...emptyFilter(), sku: 'KT-3' }))).toEqual(['3']);
  });

  it('filters by an inclusive price range in cents, on the ledger’s price', () => {
    expect(keys(filterListings(rows, { ...emptyFilter(), minPrice: 90, maxPrice: 500 }))).toEqual(['1', '2', '4']);
  });

  it('filters by account, promoted and note text', () => {
    expect(keys(filterListings(rows, { ...emptyFilter(), account: 'linked7' }))).toEqual(['3']);
    expect(keys(filterListings(rows, { ...emptyFilter(), flag: '1' }))).toEqual(['2']);
    expect(keys(filterListings(rows, { ...emptyFilter(), note: 'fast' }))).toEqual(['1']);
  });

  it('shows only rows the draft changes when asked', () => {
    expect(keys(filterListings(rows, { ...emptyFilter(), changedOnly: true }))).toEqual(['4']);
  });

  it('searches SKU, note, asset ID and listing ID from the search box', () => {
    expect(keys(filterListings(rows, { ...emptyFilter(), text: '5021' }))).toEqual(['1', '4']);
    expect(keys(filterListings(rows, { ...emptyFilter(), text: 'l2' }))).toEqual(['2']);
    expect(keys(filterListings(rows, { ...emptyFilter(), text: 'trades' }))).toEqual(['1']);
  });

  it('combines every condition', () => {
    expect(keys(filterListings(rows, { ...emptyFilter(), sku: '5021', minPrice: 100 }))).toEqual(['1']);
  });
});
