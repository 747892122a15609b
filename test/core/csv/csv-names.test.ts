import { afterEach, describe, expect, it } from 'vitest';
import { CSV_BOM } from '../../../src-shared/csv-dialect.ts';
import { createItemNames } from '../../../src-main/core/items/index.ts';
import { ledgerListing, MAIN } from '../drafts/fixtures.ts';
import { csvFixture, csvOf, preview, type CsvFixture } from './csv-support.ts';

/** One schema for the file: loading it is the slow part. */
const names = createItemNames();

let f: CsvFixture;
afterEach(() => f.dispose());

describe('CSV in dollars, as every screen shows prices', () => {
  it('exports prices in dollars and imports them back exactly', async () => {
    f = csvFixture({ names });
    f.t.repos.buyOrders.upsertMany([
      { sku: '5021;6', account: MAIN, price: 450, quantity: 2 },
      { sku: '5002;6', account: MAIN, price: 123_456_789, quantity: 1 },
    ]);
    const text = await f.csv.exportBuyOrders();
    expect(text).toBe(CSV_BOM + csvOf(
      'sku,name,account,price,quantity,active,user_note',
      `5021;6,Mann Co. Supply Crate Key,${MAIN},4.50,2,1,`,
      `5002;6,Refined Metal,${MAIN},1234567.89,1,1,`,
    ));
    const again = await preview(f, 'buyOrders', text);
    expect(again).toMatchObject({ validCount: 2, errors: [] });
  });

  it('reads dollars as a trader writes them, and says what is wrong with one that is not an amount', async () => {
    f = csvFixture({ names });
    const p = await preview(f, 'buyOrders', csvOf(
      'sku,price,quantity',
      '1;6,4.50,1',        // 2
      '2;6,$4.5,1',        // 3
      '3;6,"1,234.00",1',  // 4
      '4;6,7,1',           // 5
      '5;6,4.505,1',       // 6: a tenth of a cent
      '6;6,four,1',        // 7
      '7;6,0.00,1',        // 8
    ));
    expect(p.errors).toEqual([
      { line: 6, reason: 'price: “4.505” has 3 digits after the decimal point; a price has at most 2 (if “.” groups thousands in this file, choose a decimal comma)' },
      { line: 7, reason: 'price: must be an amount in dollars, e.g. 4.50 (or 4,50 with a decimal comma)' },
      { line: 8, reason: 'price: must be more than 0.00' },
    ]);
    await f.csv.commitImport(p.token);
    expect(f.t.repos.buyOrders.all().map((b) => [b.sku, b.price])).toEqual([['1;6', 450], ['2;6', 450], ['3;6', 123_400], ['4;6', 700]]);
  });

  it('imports a file exported by the previous version, in price_cents', async () => {
    f = csvFixture({ names });
    const { id } = f.drafts.create('old file');
    const old = csvOf(
      'listing_id,asset_id,sku,price_cents,promoted,game,user_note,account,state',
      `L1,11,5021;6,450,0,440,,${MAIN},active`,
    );
    const p = await preview(f, 'listings', old, id);
    expect(p).toMatchObject({ validCount: 1, errors: [] });
    await f.csv.commitImport(p.token);
    expect(f.t.repos.listings.get('11')).toMatchObject({ price: 450, sku: '5021;6' });
    const draft = await preview(f, 'draft', csvOf('kind,asset_id,price_cents', 'listing.edit,11,12.5'), id);
    expect(draft.errors).toEqual([{ line: 2, reason: 'price_cents: must be a whole number of cents' }]);
  });
});

describe('CSV with item names', () => {
  it('writes the name backpack.tf shows beside each SKU; an unknown SKU is named by itself', async () => {
    f = csvFixture({ names });
    f.t.repos.listings.upsertMany([
      ledgerListing('1', { sku: '205;11;kt-2', price: 2500 }),
      ledgerListing('2', { sku: '99999;6', price: 100 }),
      ledgerListing('3', { sku: '', price: 100 }),
    ]);
    const rows = (await f.csv.exportListings()).split('\r\n');
    expect(rows[1]).toContain(',205;11;kt-2,Strange Specialized Killstreak Rocket Launcher,25.00,');
    expect(rows[2]).toContain(',99999;6,99999;6,1.00,');
    expect(rows[3]).toContain(',,,1.00,');
  });

  it('takes an item name instead of a SKU where it names one item, and says why where it cannot', async () => {
    f = csvFixture({ names });
    // Two SKUs the trader holds that read alike: the name alone cannot say which.
    f.t.repos.listings.upsertMany([ledgerListing('1', { sku: '209;11;w2;pk0' }), ledgerListing('2', { sku: '15013;11;w2;pk0' })]);
    const p = await preview(f, 'buyOrders', csvOf(
      'name,price,quantity',
      'Mann Co. Supply Crate Key,2.50,1',                     // 2
      'Burning Flames Team Captain,900,1',                    // 3
      'Strange Professional Killstreak Australium Medi Gun,40,1', // 4
      'Non-Craftable Tour of Duty Ticket,1,1',                // 5
      'Team Kaptain,5,1',                                     // 6: no such item
      `${names.name('209;11;w2;pk0')},5,1`,                  // 7: two of the trader's items
      ',5,1',                                                 // 8: neither sku nor name
    ));
    expect(p.errors.map((e) => e.line)).toEqual([6, 7, 8]);
    expect(p.errors[0]?.reason).toMatch(/^name: No item in the game's schema is called "Team Kaptain"/);
    expect(p.errors[1]?.reason).toMatch(/^name: ".*" matches 2 of your items \(209;11;w2;pk0, 15013;11;w2;pk0\): give the SKU instead\.$/);
    expect(p.errors[2]?.reason).toBe('sku: is required (or an item name in the name column)');
    await f.csv.commitImport(p.token);
    expect(f.t.repos.buyOrders.all().map((b) => b.sku).sort()).toEqual(['211;11;australium;kt-3', '378;5;u13', '5021;6', '725;6;uncraftable'].sort());
  });

  it('refuses a row whose name and SKU are two different items, and accepts the name a spreadsheet retyped', async () => {
    f = csvFixture({ names });
    const p = await preview(f, 'buyOrders', csvOf(
      'sku,name,price,quantity',
      '5021;6,Refined Metal,1,1',                 // 2: the SKU is a key
      '5002;6,refined  metal,1,1',                // 3: case and spaces do not matter
    ));
    expect(p.errors).toEqual([{ line: 2, reason: 'name: “Refined Metal” is not the item of sku 5021;6 (Mann Co. Supply Crate Key); correct one of them, or leave name empty' }]);
    expect(p.validCount).toBe(1);
  });

  it('round-trips a draft with names, and creates a buy order named in a draft file', async () => {
    f = csvFixture({ names });
    f.t.repos.listings.upsert(ledgerListing('1', { sku: '5021;6' }));
    const a = f.drafts.create('a').id;
    f.drafts.addChanges(a, [
      { kind: 'listing.edit', asset_id: '1', price: 999 },
      { kind: 'buyOrder.create', sku: '378;5;u13', price: 90_000, quantity: 1 },
    ]);
    const text = await f.csv.exportDraft(a);
    expect(text).toContain(`listing.edit,${MAIN},1,L1,,Mann Co. Supply Crate Key,9.99,`);
    expect(text).toContain(`buyOrder.create,${MAIN},,,378;5;u13,Burning Flames Team Captain,900.00,`);
    const b = f.drafts.create('b').id;
    expect(await preview(f, 'draft', text, b)).toMatchObject({ validCount: 2, errors: [] });

    const named = await preview(f, 'draft', csvOf('kind,name,price,quantity', 'buyOrder.create,Strange Australium Rocket Launcher,55,2'), b);
    expect(named).toMatchObject({ validCount: 1, errors: [] });
    await f.csv.commitImport(named.token);
    expect(f.drafts.entries(b).map((e) => e.change)).toContainEqual(expect.objectContaining({ kind: 'buyOrder.create', sku: '205;11;australium', price: 5500 }));
  });
});
