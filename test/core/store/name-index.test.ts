import { afterEach, describe, expect, it } from 'vitest';
import { createItemNames } from '../../../src-main/core/items/index.ts';
import { schemaNameIndex } from '../../../src-main/core/store/name-index.ts';
import { skusOf } from '../../../src-main/core/store/typed-rows.ts';
import { draftFixture, ledgerListing, type DraftFixture } from '../drafts/fixtures.ts';

let f: DraftFixture;
afterEach(() => f.dispose());

const names = createItemNames();

describe('name index', () => {
  it('reads the ledger rows\' SKUs again only once rows may have come, and names the SKUs written after', () => {
    f = draftFixture();
    const { t } = f;
    t.repos.listings.upsertMany([ledgerListing('1', { sku: '5021;6' })]);
    const index = schemaNameIndex(t.store, t.repos.settings, names, ['ledger']);
    const named = () => skusOf('item_names', t.store.db.prepare('SELECT sku FROM item_names ORDER BY sku').all());
    index.sync();
    expect(named()).toEqual(['5021;6']);

    // A SKU put in behind the store's back (the desk writes one only with rows that may have come): as far as the
    // index can tell no row came, so it does not read the ledger again, nor after a price written.
    t.store.db.prepare("UPDATE listings SET sku = '378;6' WHERE asset_id = '1'").run();
    index.sync();
    t.store.markLedgerChanged('values');
    index.sync();
    expect(named()).toEqual(['5021;6']);
    // Once rows may have come, it reads them again.
    t.store.markLedgerChanged();
    index.sync();
    expect(named()).toEqual(['378;6', '5021;6']);

    // Written through the ledger and the draft: named at the next sync.
    t.repos.listings.upsertMany([ledgerListing('3', { sku: '37;6' })]);
    index.sync();
    expect(named()).toEqual(['378;6', '37;6', '5021;6']);
    const { id } = f.drafts.create('d');
    f.drafts.addChanges(id, [{ kind: 'listing.edit', asset_id: '1', price: 5 }, { kind: 'buyOrder.create', sku: '205;6', price: 100, quantity: 2 }]);
    index.sync();
    expect(named()).toEqual(['205;6', '378;6', '37;6', '5021;6']);
  });

  it('finds the draft\'s SKUs through their index (migration 24), not by reading every entry', () => {
    f = draftFixture();
    const plan = f.t.store.db.prepare("EXPLAIN QUERY PLAN SELECT DISTINCT sku FROM draft_entries WHERE sku IS NOT NULL AND sku != ''").all().map((r) => String(r.detail));
    expect(plan.join('\n')).toContain('COVERING INDEX draft_entries_sku');
  });
});
