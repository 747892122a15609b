import { afterEach, describe, expect, it } from 'vitest';
import { LINKED, MAIN, tempStore, type TempStore } from './temp-store.ts';

let t: TempStore;
afterEach(() => t.dispose());

const listing = (asset: string, extra: Record<string, unknown> = {}) => ({
  asset_id: asset, listing_id: `L${asset}`, sku: '5021;6', price: 100, promoted: 0 as const, game: '440', account: MAIN, ...extra,
});

describe('listings repo', () => {
  it('stores, reads back and updates listings across a reopen', () => {
    t = tempStore();
    t.repos.listings.upsertMany([listing('1'), listing('2', { account: LINKED, user_note: 'hi' })]);
    t.repos.listings.update('1', { price: 250, promoted: 1 });
    t.reopen();
    const { listings } = t.repos;
    expect(listings.count()).toBe(2);
    expect(listings.get('1')).toMatchObject({ price: 250, promoted: 1, listing_id: 'L1', id_unknown: false, state: 'active' });
    expect(listings.byListingId('L2')).toMatchObject({ asset_id: '2', account: LINKED, user_note: 'hi' });
  });

  it('flags a listing whose id is unknown, and clears the flag when the id is learnt', () => {
    t = tempStore();
    const { listings } = t.repos;
    listings.upsert(listing('9', { listing_id: null }));
    expect(listings.get('9')).toMatchObject({ listing_id: null, id_unknown: true });
    listings.update('9', { listing_id: 'L9' });
    expect(listings.get('9')).toMatchObject({ listing_id: 'L9', id_unknown: false });
  });

  it('removes by asset, or all / only the active ones for a delete-all', () => {
    t = tempStore();
    const { listings } = t.repos;
    listings.upsertMany([listing('1'), listing('2'), listing('3', { state: 'sold' }), listing('4', { state: 'inactive' })]);
    const version = t.store.ledgerVersion;
    expect(listings.remove(['1', 'nope'])).toBe(1);
    expect(t.store.ledgerVersion).toBeGreaterThan(version);
    expect(listings.count({ activeOnly: true })).toBe(1);
    expect(listings.removeAll(true)).toBe(1);
    expect(listings.all().map((l) => l.asset_id)).toEqual(['3', '4']);
    expect(listings.removeAll(false)).toBe(2);
    expect(listings.count()).toBe(0);
  });

  it('refuses a listing of an unknown account or with a price of 0', () => {
    t = tempStore();
    expect(() => t.repos.listings.upsert(listing('1', { account: '999' }))).toThrow(/FOREIGN KEY/);
    expect(() => t.repos.listings.upsert(listing('1', { price: 0 }))).toThrow();
  });
});
