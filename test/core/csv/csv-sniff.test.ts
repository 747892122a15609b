import { afterEach, describe, expect, it } from 'vitest';
import type { CsvDialectChoice } from '../../../src-shared/csv-dialect.ts';
import { textParts } from '../../../src-shared/csv-parts.ts';
import { ledgerListing, MAIN } from '../drafts/fixtures.ts';
import { csvFixture, preview, type CsvFixture } from './csv-support.ts';

/** Spreadsheets as they are: a file saved by Excel in a European language, and files written for it. */

let f: CsvFixture | undefined;
let g: CsvFixture | undefined;
afterEach(() => {
  f?.dispose();
  g?.dispose();
  f = g = undefined;
});

/** A file as European Excel saves "CSV UTF-8": a byte order mark, semicolons, decimal commas, CRLF. */
const EUROPEAN = '\uFEFFasset_id;price;user_note\r\n11;1,50;Übersaw, fast\r\n12;"1.234,50";café\r\n13;12;\r\n14;0,05;\r\n';

/** Previews `text` with the trader's choice of separator and decimal mark. */
async function previewAs(fx: CsvFixture, text: string, draftId: string, dialect: CsvDialectChoice) {
  const upload = fx.csv.startImport('listings', { draftId, dialect });
  let p = null;
  for (const part of textParts(text)) p = await fx.csv.importPart(upload, part);
  if (p === null) throw new Error('no preview');
  return p;
}

describe('a CSV file saved by a spreadsheet in a European language', () => {
  it('imports every row at the right cents, and the preview says what it detected', async () => {
    f = csvFixture();
    const { id } = f.drafts.create('from Excel');
    const p = await preview(f, 'listings', EUROPEAN, id);
    expect(p).toMatchObject({ validCount: 4, errors: [], errorCount: 0 });
    expect(p.dialect).toEqual({ separator: ';', separatorFrom: 'detected', decimal: ',', decimalFrom: 'prices', bom: true, lineEnd: 'CRLF' });
    expect(await f.csv.commitImport(p.token)).toMatchObject({ imported: 4, errorCount: 0 });
    const created = f.drafts.entries(id).map((e) => e.change).map((c) => (c.kind === 'listing.create' ? [c.asset_id, c.price, c.user_note] : []));
    expect(created).toEqual([['11', 150, 'Übersaw, fast'], ['12', 123_450, 'café'], ['13', 1_200, undefined], ['14', 5, undefined]]);
  });

  it('reads a semicolon file whose prices do not show their mark by its separator, and a tab file’s only when told', async () => {
    f = csvFixture();
    const { id } = f.drafts.create('d');
    const semicolons = await preview(f, 'listings', 'asset_id;price\r\n21;1.234\r\n22;7\r\n', id);
    expect(semicolons.dialect).toMatchObject({ separator: ';', decimal: ',', decimalFrom: 'separator', bom: false });
    // 1.234 with a decimal comma is a point between thousands.
    expect(semicolons).toMatchObject({ validCount: 2, errors: [] });
    const tabs = await preview(f, 'listings', 'asset_id\tprice\n31\t1,234\n', id);
    expect(tabs.dialect).toMatchObject({ separator: '\t', decimal: null, decimalFrom: 'none', lineEnd: 'LF' });
    expect(tabs.errors).toEqual([{ line: 2, reason: expect.stringMatching(/^price: “1,234” could be 1,234\.00 or 1\.234 dollars: the file does not say whether “,” is its decimal mark/) }]);
    const told = await previewAs(f, 'asset_id\tprice\n31\t1,234\n', id, { decimal: '.' });
    expect(told).toMatchObject({ validCount: 1, errors: [], dialect: { decimal: '.', decimalFrom: 'chosen' } });
    await f.csv.commitImport(told.token);
    expect(f.drafts.entries(id).map((e) => e.change)).toEqual([expect.objectContaining({ asset_id: '31', price: 123_400 })]);
  });

  it('reads the file again with the separator the trader chose, and says so when it splits the header into one column', async () => {
    f = csvFixture();
    const { id } = f.drafts.create('d');
    const wrong = await previewAs(f, EUROPEAN, id, { separator: ',' });
    expect(wrong.dialect).toMatchObject({ separator: ',', separatorFrom: 'chosen' });
    expect(wrong.errors[0]?.reason).toMatch(/the header reads as one column: its cells seem separated by semicolons; choose that separator/);
    const right = await previewAs(f, EUROPEAN, id, { separator: ';', decimal: ',' });
    expect(right).toMatchObject({ validCount: 4, dialect: { separatorFrom: 'chosen', decimalFrom: 'chosen' } });
    // The commit reads the file as the preview did.
    expect(await f.csv.commitImport(right.token)).toMatchObject({ imported: 4 });
  });
});

describe('files written for a spreadsheet', () => {
  it('start with the byte order mark, and a semicolon file with decimal commas round-trips', async () => {
    f = csvFixture();
    f.t.repos.listings.upsertMany([
      ledgerListing('41', { price: 150, user_note: 'Übersaw; fast' }),
      ledgerListing('42', { price: 123_456, user_note: 'café' }),
    ]);
    const text = await f.csv.exportListings('semicolon');
    expect([...Buffer.from(text, 'utf8').subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(text.split('\r\n').slice(0, 2)).toEqual([
      '\uFEFFlisting_id;asset_id;sku;name;price;promoted;game;user_note;account;state',
      `L41;41;5021;6;;1,50;0;440;"Übersaw; fast";${MAIN};active`.replace('5021;6', '"5021;6"'),
    ]);
    const comma = await f.csv.exportListings();
    expect(comma.startsWith('\uFEFFlisting_id,asset_id')).toBe(true);

    g = csvFixture();
    const p = await preview(g, 'listings', text);
    expect(p).toMatchObject({ validCount: 2, errors: [], dialect: { separator: ';', decimal: ',', bom: true } });
    await g.csv.commitImport(p.token);
    const rows = (fx: CsvFixture) => fx.t.repos.listings.all().map((r) => [r.asset_id, r.price, r.user_note, r.sku]);
    expect(rows(g)).toEqual(rows(f));
    expect(await g.csv.exportListings('semicolon')).toBe(text);
  });

  it('writes a draft in the shape asked for', async () => {
    f = csvFixture();
    const { id } = f.drafts.create('d');
    f.t.repos.listings.upsert(ledgerListing('51'));
    f.drafts.addChanges(id, [{ kind: 'listing.edit', asset_id: '51', price: 1_234 }]);
    const text = await f.csv.exportDraft(id, 'semicolon');
    expect(text.split('\r\n')[1]).toBe(`listing.edit;${MAIN};51;L51;;;12,34;0;;;;;;`);
  });
});
