import { afterEach, describe, expect, it } from 'vitest';
import { createItemNames } from '../../../src-main/core/items/index.ts';
import { facetSql, itemTextSql, skuFacetSql } from '../../../src-main/core/store/item-match.ts';
import { schemaNameIndex } from '../../../src-main/core/store/name-index.ts';
import type { ItemFacets } from '../../../src-shared/item-facets.ts';
import { ledgerListing } from '../drafts/fixtures.ts';
import { tempStore, type TempStore } from './temp-store.ts';

let t: TempStore;
afterEach(() => t.dispose());

const names = createItemNames();

/** Listings of these SKUs (asset IDs 1, 2, ...), named in the store's tables. */
function ledgerOf(skus: readonly string[], notes: Record<number, string> = {}): TempStore {
  t = tempStore();
  t.repos.listings.upsertMany(skus.map((sku, i) => ledgerListing(String(i + 1), { sku, user_note: notes[i + 1] ?? '' })));
  schemaNameIndex(t.store, t.repos.settings, names, ['ledger']).sync();
  return t;
}

const SKUS = [
  '378;5;u13', // 1 Burning Flames Team Captain
  '378;6', // 2 Team Captain
  '378;5;u13;strange', // 3 Strange Burning Flames Team Captain
  '205;11;kt-3', // 4 Strange Professional Killstreak Rocket Launcher
  '205;6;kt-1', // 5 Killstreak Rocket Launcher
  '205;11;australium', // 6 Strange Australium Rocket Launcher
  '5021;6', // 7 Mann Co. Supply Crate Key
  '5021;6;uncraftable', // 8 Non-Craftable Mann Co. Supply Crate Key
  '37;6', // 9 Übersaw
  '15013;15;w3;pk0', // 10 Red Rock Roscoe Pistol (Field-Tested)
  '30911;5;u14', // 11 Scorching Flames Fat Man's Field Cap
];

/** The asset IDs of the listings a search finds. */
function found(text: string): number[] {
  const part = itemTextSql(text, { sku: 'sku', texts: ['fold(sku)', 'fold(user_note)', 'asset_id'] }, 'q');
  const sql = `SELECT asset_id FROM listings${part ? ` WHERE ${part.sql}` : ''} ORDER BY CAST(asset_id AS INTEGER)`;
  return (t.store.db.prepare(sql).all(part?.params ?? {}) as { asset_id: string }[]).map((r) => Number(r.asset_id));
}

describe('itemTextSql: one search over every table', () => {
  it('matches the words typed in any order, each the start of a word, in any case and without accents', () => {
    ledgerOf(SKUS);
    expect(found('team captain burning flames')).toEqual([1, 3]);
    expect(found('Burning Flames Team Captain')).toEqual([1, 3]);
    expect(found('CAPTAIN team')).toEqual([1, 2, 3]);
    expect(found('burn capt')).toEqual([1, 3]);
    expect(found('ubersaw')).toEqual([9]);
    expect(found('mann co supply crate key')).toEqual([7, 8]);
  });

  it('finds the quality a name does not print, and reads the short forms traders type', () => {
    ledgerOf(SKUS);
    expect(found('Unusual')).toEqual([1, 3, 11]);
    expect(found('unusual burning')).toEqual([1, 3]);
    expect(found('strange unusual')).toEqual([3]);
    expect(found('Pro KS')).toEqual([4]);
    expect(found('prof ks rocket launcher')).toEqual([4]);
    expect(found('ks rocket')).toEqual([4, 5]);
    expect(found('aussie')).toEqual([6]);
    expect(found('non-craft key')).toEqual([8]);
    expect(found('craftable key')).toEqual([7]);
    expect(found('unique')).toEqual([2, 5, 7, 8, 9]);
    expect(found('pistol ft')).toEqual([10]);
    expect(found('fieldtested')).toEqual([10]);
  });

  it('finds the text as typed in the row\'s own texts (SKU, asset ID, note), and matches nothing on punctuation alone', () => {
    ledgerOf(SKUS, { 4: 'Quick sale!' });
    expect(found('378;5')).toEqual([1, 3]);
    expect(found('quick sale')).toEqual([4]);
    expect(found('10')).toEqual([10]);
    expect(found('11')).toEqual([4, 6, 11]);
    expect(found('   ')).toEqual(SKUS.map((_, i) => i + 1));
    expect(found('?!')).toEqual([]);
  });
});

describe('facetSql and skuFacetSql: the item filters', () => {
  const filtered = (f: ItemFacets) => {
    const part = skuFacetSql(f, 'sku', 'f');
    if (part === null) return 'none';
    return (t.store.db.prepare(`SELECT asset_id FROM listings WHERE ${part.sql} ORDER BY CAST(asset_id AS INTEGER)`).all(part.params) as { asset_id: string }[])
      .map((r) => Number(r.asset_id));
  };

  it('filters by quality (Strange finds a Strange Unusual), effect, killstreak tier, craftability and wear', () => {
    ledgerOf(SKUS);
    expect(filtered({})).toBe('none');
    expect(filtered({ quality: 5 })).toEqual([1, 3, 11]);
    expect(filtered({ quality: 11 })).toEqual([3, 4, 6]);
    expect(filtered({ effect: 13 })).toEqual([1, 3]);
    expect(filtered({ killstreak: 'any' })).toEqual([4, 5]);
    expect(filtered({ killstreak: 'professional' })).toEqual([4]);
    expect(filtered({ killstreak: 'none', quality: 11 })).toEqual([3, 6]);
    expect(filtered({ craftable: false })).toEqual([8]);
    expect(filtered({ wear: 3 })).toEqual([10]);
  });

  it('is the same SQL over a table that keeps the parts itself (the inventory\'s columns)', () => {
    const part = facetSql({ quality: 11, killstreak: 'basic' }, { quality: 'q', strange: 's', effect: 'e', killstreak: 'k', craftable: 'c', wear: 'w' }, 'x');
    expect(part).toEqual({ sql: '(q = 11 OR s = 1) AND k = 1', params: {} });
  });
});

describe('name index', () => {
  it('names each SKU once, with its words and parts, and names afresh when the words are folded anew', () => {
    ledgerOf(['378;5;u13', '999999;6']);
    const rows = () => t.store.db.prepare('SELECT n.sku, n.quality, n.effect, n.craftable, w.words FROM item_names n LEFT JOIN item_words w ON w.sku = n.sku ORDER BY n.sku').all();
    expect(rows()).toEqual([
      { sku: '378;5;u13', quality: 5, effect: 13, craftable: 1, words: 'burning flames team captain unusual craftable' },
      { sku: '999999;6', quality: null, effect: null, craftable: 1, words: null },
    ]);
    // A version the store did not name with: everything is named again.
    t.repos.settings.set('items.nameIndexVersion', 'older');
    t.store.db.exec("UPDATE item_words SET words = 'stale'");
    schemaNameIndex(t.store, t.repos.settings, names, ['ledger']).sync();
    expect(rows()).toHaveLength(2);
    expect(found('stale')).toEqual([]);
    expect(found('team captain')).toEqual([1]);
  });
});
