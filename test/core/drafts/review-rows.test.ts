import { afterEach, describe, expect, it } from 'vitest';
import { createItemNames } from '../../../src-main/core/items/index.ts';
import { createInventoryRepo } from '../../../src-main/core/store/inventory-repo.ts';
import type { InventoryRow } from '../../../src-main/core/store/inventory-row.ts';
import { csvFixture, csvOf, preview, type CsvFixture } from '../csv/csv-support.ts';
import { ledgerListing, MAIN } from './fixtures.ts';

/** New listings in the review: named from the inventory as last read, flagged where it does not hold them, held against what the item fetches. */

const names = createItemNames();
let f: CsvFixture;
afterEach(() => f.dispose());

const item = (asset_id: string, sku: string): InventoryRow => ({
  asset_id, sku, name: names.name(sku), quality: 6, qualityName: 'Unique', strange: false, effect: null, killstreak: 0, wear: null,
  australium: false, festivized: false, craftable: true, tradable: true,
});

/** The account's inventory as a finished read holding `items`. */
function keepInventory(fx: CsvFixture, account: string, items: readonly InventoryRow[]): void {
  const repo = createInventoryRepo(fx.t.store);
  const generation = repo.beginRead(account);
  repo.writePage(account, generation, 0, items);
  repo.finishRead(account, generation, fx.t.store.clock.now(), items.length);
}

const page = (fx: CsvFixture, id: string) => fx.drafts.reviewPage(id, { show: 'open', offset: 0, limit: 100 }).rows;

describe('new listings from a CSV file in the review', () => {
  it('are named from the inventory as last read, and one it does not hold is drafted and said', async () => {
    f = csvFixture({ names });
    keepInventory(f, MAIN, [item('101', '378;6'), item('102', '5021;6')]);
    const { id } = f.drafts.create('from a file');
    const p = await preview(f, 'listings', csvOf('asset_id,price', '101,12.00', '102,2.10', '999,1.00'), id);
    expect(p).toMatchObject({ validCount: 3, errors: [], notInInventory: { count: 1, sample: [{ line: 4, assetId: '999' }] } });
    await f.csv.commitImport(p.token);
    const rows = page(f, id);
    expect(rows.map((r) => [r.target, r.sku])).toEqual([['101', '378;6'], ['102', '5021;6'], ['999', null]]);
    expect(rows.find((r) => r.target === '999')?.note).toMatch(/^not in this account’s inventory as last read/);
    expect(rows.find((r) => r.target === '101')?.note).toBeNull();
  });

  it('says nothing of an account whose inventory was never read, and names a create drafted without a SKU when the inventory knows it', async () => {
    f = csvFixture({ names });
    const { id } = f.drafts.create('d');
    f.drafts.addChanges(id, [{ kind: 'listing.create', asset_id: '201', price: 500, promoted: 0, game: '440' }]);
    expect(page(f, id)[0]).toMatchObject({ sku: null, note: null });
    keepInventory(f, MAIN, [item('201', '378;6')]);
    expect(page(f, id)[0]).toMatchObject({ sku: '378;6', note: null });
  });
});

describe('the price guard on new listings', () => {
  it('holds a create against the item’s lowest standing listing and its last sale, and marks one priced far under', async () => {
    f = csvFixture({ names });
    f.t.repos.listings.upsertMany([ledgerListing('301', { sku: '378;6', price: 1_500 }), ledgerListing('302', { sku: '378;6', price: 1_000 })]);
    // The last sale of a Mann Co. Supply Crate Key was at $2.50 an item.
    const db = f.t.store.db;
    db.prepare(`INSERT INTO trade_history (trade_type, trade_id, side, account, partner, status, total, created_at, first_seen_at, last_seen_at, ending, at)
      VALUES ('market', '9', 'sale', ?, '76561198000000009', 'Action Required', 500, 1, 1, 1, 'balance_moved', 1)`).run(MAIN);
    db.prepare("INSERT INTO trade_history_items (trade_type, trade_id, position, sku, name, quantity, price) VALUES ('market', '9', 0, '5021;6', 'Key', 2, 250)").run();
    const { id } = f.drafts.create('d');
    f.drafts.addChanges(id, [
      { kind: 'listing.create', asset_id: '310', sku: '378;6', price: 200, promoted: 0, game: '440' },
      { kind: 'listing.create', asset_id: '311', sku: '378;6', price: 900, promoted: 0, game: '440' },
      { kind: 'listing.create', asset_id: '312', sku: '5021;6', price: 100, promoted: 0, game: '440' },
    ]);
    const review = await f.drafts.review(id);
    expect(review.guard.undercuts).toEqual({ count: 2, worst: { key: '310', sku: '378;6', price: 200, reference: { source: 'listing', cents: 1_000 } } });
    expect(page(f, id).map((r) => [r.target, r.concern, r.reference])).toEqual([
      ['310', 'under', { source: 'listing', cents: 1_000 }],
      ['311', null, null],
      ['312', 'under', { source: 'sale', cents: 250 }],
    ]);
  });
});
