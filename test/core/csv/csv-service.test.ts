import { afterEach, describe, expect, it } from 'vitest';
import { ledgerListing, LINKED, MAIN } from '../drafts/fixtures.ts';
import { CSV_BOM } from '../../../src-shared/csv-dialect.ts';
import { csvFixture, csvOf, manualClock, preview, type CsvFixture } from './csv-support.ts';

let f: CsvFixture | undefined;
let g: CsvFixture | undefined;
afterEach(() => {
  f?.dispose();
  g?.dispose();
  f = g = undefined;
});

/** Ledger rows without the stamps the store adds. */
const listingsOf = (fx: CsvFixture) => fx.t.repos.listings.all().map(({ updated_at: _u, ...rest }) => rest);
const buyOrdersOf = (fx: CsvFixture) => fx.t.repos.buyOrders.all().map(({ updated_at: _u, ...rest }) => rest);

// Notes a hand-written parser gets wrong: commas, quotes, line breaks, edge spaces, formulas, non-ASCII.
const NOTES = ['', 'fast, friendly', 'say "hi"', 'line one\nline two', '  padded  ', '=SUM(A1)', 'übergroß ✓', 'x'.repeat(180)];

describe('CSV export and import of the listings ledger', () => {
  it('round-trips: export, import into an empty profile, the same rows and the same file', async () => {
    f = csvFixture();
    f.t.repos.listings.upsertMany(NOTES.map((note, i) => ledgerListing(String(76561198000000000000n + BigInt(i)).slice(0, 20), {
      listing_id: `lst_${i}-X`, user_note: note, price: 1 + i * 999_999_999, promoted: (i % 2) as 0 | 1,
      account: i % 3 === 0 ? LINKED : MAIN, state: (['active', 'inactive', 'sold', 'cancelled'] as const)[i % 4], sku: `50${i};6;uncraftable`,
    })));
    const text = await f.csv.exportListings();
    expect(text.split('\r\n')[0]).toBe('\uFEFFlisting_id,asset_id,sku,name,price,promoted,game,user_note,account,state');
    // IDs stay digits (no 7.6E+19), money is in dollars as the screens show it, exactly.
    expect(text).toContain('\r\nlst_0-X,76561198000000000000,500;6;uncraftable,,0.01,0,440,,76561198000000002,active\r\n');
    expect(text).toContain(',69999999.94,');

    g = csvFixture();
    const p = await preview(g, 'listings', text);
    expect(p).toMatchObject({ kind: 'listings', validCount: NOTES.length, errors: [] });
    expect(g.t.repos.listings.count()).toBe(0);
    expect(await g.csv.commitImport(p.token)).toEqual({ imported: NOTES.length, errors: [], errorCount: 0, changedSince: 0 });
    expect(listingsOf(g)).toEqual(listingsOf(f));
    expect(await g.csv.exportListings()).toBe(text);
  });

  it('adopts listings made elsewhere (with listing_id) and turns rows without one into creates in the draft', async () => {
    f = csvFixture();
    f.t.repos.listings.upsert(ledgerListing('10', { listing_id: 'old10', price: 700 }));
    const { id } = f.drafts.create('import');
    const text = csvOf(
      'asset_id,listing_id,price_cents,user_note,account',
      '10,old10,750,now adopted,',          // already in the ledger: updated from the file
      '11,web11,300,,' + LINKED,             // made on the website for the linked account
      '12,,450,to list,',                    // no listing_id: a create in the draft
    );
    const p = await preview(f, 'listings', text, id);
    expect(p).toMatchObject({ validCount: 3, errors: [] });
    // Nothing is stored before the trader accepts.
    expect(f.t.repos.listings.get('11')).toBeNull();
    expect(f.t.repos.listings.get('10')?.price).toBe(700);
    expect(f.drafts.entries(id)).toEqual([]);

    expect(await f.csv.commitImport(p.token)).toEqual({ imported: 3, errors: [], errorCount: 0, changedSince: 0 });
    expect(f.t.repos.listings.get('11')).toMatchObject({ listing_id: 'web11', price: 300, account: LINKED, state: 'active', promoted: 0, game: '440' });
    expect(f.t.repos.listings.get('10')).toMatchObject({ listing_id: 'old10', price: 750, user_note: 'now adopted' });
    expect(f.drafts.entries(id).map((e) => e.change)).toEqual([
      { kind: 'listing.create', account: MAIN, asset_id: '12', price: 450, promoted: 0, game: '440', user_note: 'to list' },
    ]);
    // Adopted listings are editable through drafts, by listing ID.
    expect(f.drafts.addChanges(id, [{ kind: 'listing.edit', listing_id: 'web11', price: 310 }]).errors).toEqual([]);
  });

  it('a token is used once, expires, and only the latest few previews are kept', async () => {
    const clock = manualClock();
    f = csvFixture({ clock, maxPreviews: 2 });
    const text = csvOf('asset_id,listing_id,price_cents', '1,a,100');
    const used = await preview(f, 'listings', text);
    expect((await f.csv.commitImport(used.token)).imported).toBe(1);
    await expect(f.csv.commitImport(used.token)).rejects.toThrow(/preview the file again/);

    const stale = await preview(f, 'listings', text);
    clock.advance(15 * 60_000);
    await expect(f.csv.commitImport(stale.token)).rejects.toThrow(/expired/);

    const first = await preview(f, 'listings', text);
    const second = await preview(f, 'listings', text);
    const third = await preview(f, 'listings', text);
    await expect(f.csv.commitImport(first.token)).rejects.toThrow(/preview the file again/);
    expect((await f.csv.commitImport(second.token)).imported).toBe(1);
    expect((await f.csv.commitImport(third.token)).imported).toBe(1);
  });

  it('checks rows again at commit: what changed since the preview is refused, the rest imported', async () => {
    f = csvFixture();
    const p = await preview(f, 'listings', csvOf('asset_id,listing_id,price_cents', '1,a,100', '2,b,100'));
    expect(p.validCount).toBe(2);
    f.t.repos.listings.upsert(ledgerListing('9', { listing_id: 'b' }));
    expect(await f.csv.commitImport(p.token)).toEqual({ imported: 1, errors: [{ line: 3, reason: 'listing_id: the ledger has b for asset 9' }], errorCount: 1, changedSince: 1 });
    expect(f.t.repos.listings.get('2')).toBeNull();
  });

  it('does not adopt a listing while a change to it is being applied', async () => {
    f = csvFixture();
    f.t.repos.listings.upsert(ledgerListing('10'));
    const { id } = f.drafts.create('d');
    f.drafts.addChanges(id, [{ kind: 'listing.edit', asset_id: '10', price: 5 }]);
    f.t.repos.drafts.setStatus(id, ['L:10'], 'sent');
    f.drafts.refresh(id, ['L:10']);
    const p = await preview(f, 'listings', csvOf('asset_id,listing_id,price_cents', '10,L10,100', '11,L11,100'));
    expect(p.validCount).toBe(1);
    expect(p.errors).toEqual([{ line: 2, reason: expect.stringMatching(/^asset_id: a change to this listing is being applied/) }]);
  });
});

describe('CSV export and import of the buy orders ledger', () => {
  it('round-trips and keeps the fills already counted for an order it re-adopts', async () => {
    f = csvFixture();
    f.t.repos.buyOrders.upsertMany(NOTES.map((note, i) => ({
      sku: `${100 + i};${i}`, account: i % 2 ? LINKED : MAIN, price: 10 + i, quantity: 1 + i * 1000, active: (i % 2) as 0 | 1, user_note: note,
    })));
    const text = await f.csv.exportBuyOrders();
    expect(text.split('\r\n')[0]).toBe('\uFEFFsku,name,account,price,quantity,active,user_note');
    g = csvFixture();
    const p = await preview(g, 'buyOrders', text);
    expect(p).toMatchObject({ kind: 'buyOrders', validCount: NOTES.length, errors: [] });
    expect(g.t.repos.buyOrders.count()).toBe(0);
    await g.csv.commitImport(p.token);
    expect(buyOrdersOf(g)).toEqual(buyOrdersOf(f));
    expect(await g.csv.exportBuyOrders()).toBe(text);

    // Re-adopting confirms the quantity and keeps the fills seen.
    f.t.repos.buyOrders.upsert({ sku: 'z;1', account: MAIN, price: 5, quantity: 9, quantity_may_be_cut: true });
    f.t.repos.buyOrders.addFills('z;1', 2);
    const again = await preview(f, 'buyOrders', csvOf('sku,price_cents,quantity', 'z;1,6,7'));
    await f.csv.commitImport(again.token);
    expect(f.t.repos.buyOrders.get('z;1')).toMatchObject({ price: 6, quantity: 7, quantity_may_be_cut: false, fills_seen: 2, active: 1, account: MAIN });
  });

  it('refuses a SKU the ledger holds on another account (a SKU is one buy order)', async () => {
    f = csvFixture();
    f.t.repos.buyOrders.upsert({ sku: 'a;1', account: MAIN, price: 5, quantity: 1 });
    const p = await preview(f, 'buyOrders', csvOf('sku,account,price_cents,quantity', `a;1,${LINKED},5,1`, `b;1,${LINKED},5,1`));
    expect(p.validCount).toBe(1);
    expect(p.errors).toEqual([{ line: 2, reason: `account: the ledger has the buy order for a;1 on account ${MAIN}; delete it there first` }]);
  });
});

describe('CSV export and import of a draft', () => {
  it('round-trips every kind of change, in order, into another draft', async () => {
    f = csvFixture();
    f.t.repos.listings.upsertMany([
      ledgerListing('1', { user_note: 'old note' }), ledgerListing('2'), ledgerListing('3', { state: 'sold' }), ledgerListing('4'),
    ]);
    f.t.repos.buyOrders.upsertMany([{ sku: 'a;1', account: MAIN, price: 100, quantity: 2 }, { sku: 'a;2', account: MAIN, price: 100, quantity: 2 }]);
    const a = f.drafts.create('a').id;
    const made = f.drafts.addChanges(a, [
      { kind: 'listing.edit', asset_id: '1', price: 900, user_note: '' },
      { kind: 'listing.edit', asset_id: '4', promoted: 1, user_note: 'a, "new"\nnote' },
      { kind: 'listing.delete', asset_id: '2' },
      { kind: 'listing.create', asset_id: '2', price: 500, promoted: 1, account: LINKED, sku: '5021;6' },
      { kind: 'listing.create', asset_id: '99999999999999999999', price: 1, promoted: 0, game: '730' },
      { kind: 'buyOrder.edit', sku: 'a;1', active: 0, quantity: 5 },
      { kind: 'buyOrder.delete', sku: 'a;2' },
      { kind: 'buyOrder.create', sku: 'b;1', price: 10, quantity: 3, user_note: 'hi', account: LINKED },
      { kind: 'listing.deleteAll', active_only: true },
    ]);
    expect(made.errors).toEqual([]);
    const text = await f.csv.exportDraft(a);
    expect(text.split('\r\n')[0]).toBe('\uFEFFkind,account,asset_id,listing_id,sku,name,price,promoted,game,quantity,active,user_note,clear_note,active_only');

    const b = f.drafts.create('b').id;
    const p = await preview(f, 'draft', text, b);
    expect(p).toMatchObject({ kind: 'draft', validCount: f.drafts.entries(a).length, errors: [] });
    expect(f.drafts.entries(b)).toEqual([]);
    expect(await f.csv.commitImport(p.token)).toEqual({ imported: f.drafts.entries(a).length, errors: [], errorCount: 0, changedSince: 0 });
    // What the changes do; how many edits a delete-all replaced is the history of the draft it was made in.
    const content = ({ replaced: _history, ...change }: Record<string, unknown>) => change;
    const byTarget = (id: string) => f?.drafts.entries(id).map((e) => [e.target, content(e.change)]).sort((x, y) => String(x[0]).localeCompare(String(y[0])));
    expect(byTarget(b)).toEqual(byTarget(a));
    // The relist of asset 2 was made before the delete-all that allows it; the file puts the delete-all first.
    expect(text.split('\r\n')[1]).toBe('listing.deleteAll,,,,,,,,,,,,,1');
    expect(await f.csv.exportDraft(b)).toBe(text);
  });

  it('exports only what the next apply would send, bulk operations included', async () => {
    f = csvFixture();
    f.t.repos.listings.upsertMany([ledgerListing('1'), ledgerListing('2')]);
    const { id } = f.drafts.create('d');
    await f.bulk(id, 'listings', { ids: ['1', '2'] }, { op: 'setPrice', cents: 1234 });
    f.t.repos.drafts.setStatus(id, ['L:2'], 'done');
    f.drafts.refresh(id, ['L:2']);
    expect(await f.csv.exportDraft(id)).toBe(CSV_BOM + csvOf(
      'kind,account,asset_id,listing_id,sku,name,price,promoted,game,quantity,active,user_note,clear_note,active_only',
      `listing.edit,${MAIN},1,L1,,,12.34,0,,,,,,`,
    ));
  });
});
