import { afterEach, describe, expect, it } from 'vitest';
import { ledgerListing, MAIN } from '../drafts/fixtures.ts';
import { csvFixture, csvOf, preview, type CsvFixture } from './csv-support.ts';

let f: CsvFixture;
afterEach(() => f.dispose());

describe('CSV import: every bad row reported with its line', () => {
  it('names the line, the column and the rule for each bad row of a listings file, and stores nothing', async () => {
    f = csvFixture();
    const text = csvOf(
      'listing_id,asset_id,price_cents,promoted,user_note,account', // 1
      'L1,100,12.50,0,,',                                           // 2
      'L2,7.65612E+16,100,0,,',                                     // 3
      'L3,101,abc,2,,',                                             // 4
      'L4,102,100,0,"a note, over',                                 // 5
      'two lines",',                                                // 6: still the row of line 5
      'L5,100,100,0,,',                                             // 7
      'L6,103,100,0,,999',                                          // 8
      'L7,104,0,0,,',                                               // 9
      `L8,105,100,0,${'x'.repeat(181)},`,                           // 10
      'L9,106,100',                                                 // 11
      ',107,100,0,,',                                               // 12
      'L1,108,99999999999999999999,0,,',                            // 13
      '',                                                           // 14: blank, skipped
      'L10,109,100,,,',                                             // 15
    );
    const p = await preview(f, 'listings', text);
    expect(p.errors).toEqual([
      { line: 2, reason: 'price_cents: must be a whole number of cents' },
      { line: 3, reason: 'asset_id: must be an asset ID of digits only (a spreadsheet turned it into a number; format the column as text)' },
      { line: 4, reason: 'price_cents: must be a number of cents; promoted: must be 0 or 1' },
      { line: 7, reason: 'asset_id: 100 is on line 2 already' },
      { line: 8, reason: 'account: 999 is not the main or a linked account' },
      { line: 9, reason: 'price_cents: must be more than 0 cents' },
      { line: 10, reason: 'user_note: must be at most 180 characters' },
      { line: 11, reason: 'the row has 3 fields, the header has 6' },
      { line: 12, reason: 'listing_id: is required to adopt a listing already on the market; to list this asset, import into a draft' },
      { line: 13, reason: 'listing_id: L1 is on line 2 already; price_cents: is too large' },
    ]);
    expect(p.validCount).toBe(2);
    expect(f.t.repos.listings.count()).toBe(0);
    expect((await f.csv.commitImport(p.token)).imported).toBe(2);
    expect(f.t.repos.listings.get('102')?.user_note).toBe('a note, over\r\ntwo lines');
    expect(f.t.repos.listings.get('109')).toMatchObject({ listing_id: 'L10', promoted: 0, account: MAIN });
  });

  it('refuses the whole file for a header that misses or misnames a column, in a few words naming the columns expected', async () => {
    f = csvFixture();
    const p = await preview(f, 'listings', csvOf('listing_id,asset_id,cost,Price_Cents,price_cents,', 'L1,1,100,100,100,'));
    expect(p.validCount).toBe(0);
    expect(p.errors).toEqual([{
      line: 1,
      reason: 'unknown column cost, column price_cents appears twice, column 6 has no name — expected asset_id, price (dollars, e.g. 4.50), '
        + 'and optionally listing_id, sku, name (or item), promoted, game, user_note, account, state',
    }]);
    expect((await preview(f, 'buyOrders', csvOf('sku,price', 'a;1,5'))).errors).toEqual([{
      line: 1, reason: 'missing column quantity — expected price (dollars, e.g. 4.50), quantity, and optionally sku, name (or item), account, active, user_note',
    }]);
    expect((await preview(f, 'buyOrders', csvOf('sku,price,price_cents,quantity', 'a;1,5,500,1'))).errors[0]?.reason).toMatch(/^give price or price_cents, not both — /);
  });

  it('handles an empty file, a byte-order mark, blank lines before the header and LF or CRLF endings', async () => {
    f = csvFixture();
    for (const empty of ['', '\uFEFF', ' \r\n\r\n']) {
      expect(await preview(f, 'listings', empty)).toMatchObject({ validCount: 0, errors: [{ line: 1, reason: 'the file is empty' }] });
    }
    const bom = await preview(f, 'listings', '\uFEFFasset_id,listing_id,price_cents\n1,a,100\n2,b,x\n');
    expect(bom).toMatchObject({ validCount: 1, errors: [{ line: 3, reason: 'price_cents: must be a number of cents' }] });
    const late = await preview(f, 'listings', '\r\n\r\nasset_id,listing_id,price_cents\r\n1,a,100\r\n2,b,x\r\n');
    expect(late).toMatchObject({ validCount: 1, errors: [{ line: 5, reason: 'price_cents: must be a number of cents' }] });
    expect((await preview(f, 'listings', 'asset_id,listing_id,price_cents\r\n')).validCount).toBe(0);
    // A note with a bare LF inside a CRLF file, and a CR-only file: lines as an editor counts them.
    const mixed = await preview(f, 'listings', 'asset_id,listing_id,price_cents,user_note\r\n1,a,100,"x\ny"\r\n2,b,x,\r\n');
    expect(mixed.errors).toEqual([{ line: 4, reason: 'price_cents: must be a number of cents' }]);
    const cr = await preview(f, 'listings', 'asset_id,listing_id,price_cents\r1,a,100\r2,b,x\r');
    expect(cr.errors).toEqual([{ line: 3, reason: 'price_cents: must be a number of cents' }]);
  });

  it('reports a quote left open on the line it starts, and still reads and checks every line after it', async () => {
    f = csvFixture();
    const p = await preview(f, 'listings', csvOf(
      'asset_id,listing_id,price_cents,user_note',
      '1,a,100,ok',
      '2,b,100,"=HYPERLINK("http://evil","x")',
      '3,c,100,x',
      '4,d,,y',
      '5,e,100,"two',
      'lines"',
    ));
    expect(p.validCount).toBe(3);
    expect(p.errors).toEqual([
      { line: 3, reason: expect.stringContaining('quoted field is never closed') },
      { line: 5, reason: 'price_cents: is required' },
    ]);
    expect(p.errorCount).toBe(2);
  });

  it('takes a column headed item as the item\'s name', async () => {
    f = csvFixture();
    const { id } = f.drafts.create('d');
    const p = await preview(f, 'listings', csvOf('asset_id,item,price', '77,,1.00'), id);
    expect(p.errors).toEqual([]);
    expect(p.validCount).toBe(1);
  });

  it('reports duplicate SKUs and bad buy order values', async () => {
    f = csvFixture();
    const p = await preview(f, 'buyOrders', csvOf(
      'sku,price_cents,quantity,active',
      'a;1,10,1,1',
      'a;1,11,1,1',
      'no-semicolon,10,0,x',
      'b;1,10,2.5,',
    ));
    expect(p.errors).toEqual([
      { line: 3, reason: 'sku: a;1 is on line 2 already' },
      { line: 4, reason: 'sku: must have the shape <part>;<part> (more ;parts allowed); quantity: must be at least 1; active: must be 0 or 1' },
      { line: 5, reason: 'quantity: must be a whole number' },
    ]);
    expect(p.validCount).toBe(1);
  });

  it('checks a draft file with the draft rules at preview time, naming the lines', async () => {
    f = csvFixture();
    f.t.repos.listings.upsertMany([ledgerListing('10'), ledgerListing('15')]);
    const { id } = f.drafts.create('d');
    const text = csvOf(
      'kind,asset_id,listing_id,sku,price_cents,promoted,quantity,user_note,clear_note,active_only',
      'listing.create,10,,,100,0,,,,',              // 2: already listed (merge rule)
      'listing.create,11,,,100,0,,,,',              // 3: fine
      'listing.edit,15,L15,,150,,,,,',              // 4: fine
      'listing.edit,15,,,160,,,,,',                 // 5: a second change to asset 15
      'listing.update,12,,,1,0,,,,',                // 6: unknown kind
      'buyOrder.create,,,c;1,5,,1,,,',              // 7: fine
      'buyOrder.create,13,,c;2,5,0,1,,,',           // 8: columns the kind does not use
      'listing.edit,14,,,,,,note,1,',               // 9: clear_note with a note; no ledger listing
      'listing.deleteAll,,,,,,,,,',                 // 10: active_only required
      'listing.edit,,L99,,5,,,,,',                  // 11: unknown listing ID (merge rule)
    );
    const p = await preview(f, 'draft', text, id);
    expect(p.errors).toEqual([
      { line: 2, reason: 'asset_id: asset 10 is already listed (listing L10); edit it, or delete it first to list it again' },
      { line: 5, reason: 'asset_id: 15 has a change on line 4 already' },
      { line: 6, reason: expect.stringMatching(/^kind: must be one of listing\.create, listing\.edit, /) },
      { line: 8, reason: 'asset_id: not used by buyOrder.create; leave it empty; promoted: not used by buyOrder.create; leave it empty' },
      { line: 9, reason: 'clear_note: 1 removes the note; leave user_note empty' },
      { line: 10, reason: 'active_only: is required (1: active listings only, 0: all)' },
      { line: 11, reason: 'listing_id: no listing L99 in the ledger' },
    ]);
    expect(p.validCount).toBe(3);
    expect(f.drafts.entries(id)).toEqual([]);
    expect((await f.csv.commitImport(p.token)).imported).toBe(3);
    expect(f.drafts.entries(id).map((e) => e.target)).toEqual(['L:11', 'L:15', 'B:c;1']);
  });

  it('asks for a draft when a draft file has none to go into', async () => {
    f = csvFixture();
    expect(await preview(f, 'draft', csvOf('kind', 'buyOrder.deleteAll'))).toMatchObject({ validCount: 0, errors: [{ line: 1 }] });
  });
});
