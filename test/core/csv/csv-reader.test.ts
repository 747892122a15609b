import { describe, expect, it } from 'vitest';
import { csvReader, type CsvSlice } from '../../../src-main/core/csv/csv-reader.ts';
import { LISTING_COLUMNS } from '../../../src-main/core/csv/csv-listings.ts';
import { textParts } from '../../../src-shared/csv-parts.ts';

/**
 * The CSV reader over a file that arrives in parts: wherever the parts are
 * cut (inside a quoted note, between the CR and LF of a line break, right
 * after a byte-order mark), it reads the same rows, refuses the same lines
 * and numbers them the same as over the whole text at once; and it holds a
 * part and a bounded tail, never the file.
 */

/** Everything the reader yields over `parts`, flattened (how the slices are grouped is its own business). */
function readParts(parts: readonly string[]) {
  const reader = csvReader(LISTING_COLUMNS);
  const slices: CsvSlice[] = [];
  for (const part of parts) slices.push(...reader.read(part));
  slices.push(...reader.end());
  return { records: slices.flatMap((s) => s.records), errors: slices.flatMap((s) => s.errors), priceColumn: reader.priceColumn() };
}

const whole = (text: string) => readParts([text]);

/** The text cut at each of `cuts` (offsets, in order). */
function cutAt(text: string, cuts: readonly number[]): string[] {
  const parts: string[] = [];
  let from = 0;
  for (const at of cuts) {
    parts.push(text.slice(from, at));
    from = at;
  }
  parts.push(text.slice(from));
  return parts;
}

/** Every way to cut `text` in two, and in three parts at every pair of offsets `step` apart, and into parts of a few fixed sizes. */
function* cuttings(text: string, step = 1): Generator<string[]> {
  for (let a = 0; a <= text.length; a++) yield cutAt(text, [a]);
  for (let a = 0; a <= text.length; a += step) for (let b = a; b <= text.length; b += step) yield cutAt(text, [a, b]);
  for (const size of [1, 2, 3, 5, 8, 13]) yield [...textParts(text, size)].map((p) => p.text);
}

/** Asserts every cutting of `text` reads as the whole text does; answers that reading. */
function sameInParts(text: string, step = 1) {
  const expected = whole(text);
  for (const parts of cuttings(text, step)) {
    expect(readParts(parts), `cut at ${JSON.stringify(parts.map((p) => p.length))}`).toEqual(expected);
  }
  return expected;
}

const UNCLOSED = expect.stringContaining('a quoted field is never closed');

describe('the CSV reader over parts', () => {
  it('reads text with no quote in it (split by the reader itself) as papaparse reads the same cells quoted', () => {
    for (const newline of ['\n', '\r\n']) {
      const rows = [['asset_id', 'price', 'user_note'], ['1', '4.50', ' spaced '], [''], ['2', '5.00'], ['3', '', ''], [' ', ' ', ' '], ['4', '1', "'=x"]];
      const plain = rows.map((r) => r.join(',')).join(newline);
      const quoted = rows.map((r) => r.map((c) => `"${c}"`).join(',')).join(newline);
      for (const end of ['', newline]) {
        const r = sameInParts(plain + end, 7);
        expect(r).toEqual(whole(quoted + end));
        expect(r.records.map((rec) => rec.line)).toEqual([2, 5, 7]);
        expect(r.errors).toEqual([{ line: 4, reason: 'the row has 2 fields, the header has 3' }]);
      }
    }
  });

  it('reads a quoted note with a line break in it across a part boundary, CRLF cut between CR and LF, with the lines an editor shows', () => {
    const text = 'asset_id,price,user_note\r\n1,4.50,"line one\r\nline two"\r\n2,5.00,plain\r\n3,6.00,"say ""hi"""\r\n';
    const r = sameInParts(text);
    expect(r.records).toEqual([
      { line: 2, cells: { asset_id: '1', price: '4.50', user_note: 'line one\r\nline two' } },
      { line: 4, cells: { asset_id: '2', price: '5.00', user_note: 'plain' } },
      { line: 5, cells: { asset_id: '3', price: '6.00', user_note: 'say "hi"' } },
    ]);
    expect(r.errors).toEqual([]);
  });

  it('drops a byte-order mark at the start only: one that starts a later part is text of the file', () => {
    const atStart = sameInParts('\uFEFFasset_id,price_cents\n1,450\n');
    expect(atStart).toEqual({ records: [{ line: 2, cells: { asset_id: '1', price_cents: '450' } }], errors: [], priceColumn: 'price_cents' });
    const inside = sameInParts('asset_id,price\n\uFEFF7,4.50\n');
    expect(inside.records).toEqual([{ line: 2, cells: { asset_id: '\uFEFF7', price: '4.50' } }]);
    // A part of nothing before the mark: the mark still starts the file.
    expect(readParts(['', '\uFEFF', 'asset_id,price\n1,4.50\n'])).toEqual(whole('asset_id,price\n1,4.50\n'));
  });

  it('reports a quote never closed at its line and reads the lines after it on their own, however the parts fall', () => {
    const text = 'asset_id,price,user_note\n1,4.50,ok\n2,5.00,"never closed\n3,6.00,after\n4,7.00,"stray"x\n5,8.00,last';
    const r = sameInParts(text);
    expect(r.records.map((rec) => rec.line)).toEqual([2, 4, 6]);
    // A stray quote swallows the line break after it: the same sentence, and the next line read on its own.
    expect(r.errors).toEqual([{ line: 3, reason: UNCLOSED }, { line: 5, reason: UNCLOSED }]);
  });

  it('takes the newline from the file’s first line break (CR only here), wherever the parts are cut', () => {
    const r = sameInParts('asset_id,price,user_note\r1,4.50,"two\rlines"\r2,5.00,x\r');
    expect(r.records.map((rec) => [rec.line, rec.cells.user_note])).toEqual([[2, 'two\rlines'], [4, 'x']]);
  });

  it('says the file is empty for no text, white space only, or a mark only, and has no header for rows it could not read', () => {
    for (const text of ['', ' \r\n\t\n', '\uFEFF']) {
      expect(sameInParts(text)).toEqual({ records: [], errors: [{ line: 1, reason: 'the file is empty' }], priceColumn: 'price' });
    }
    expect(readParts([])).toEqual(whole(''));
    expect(readParts(['', '', ''])).toEqual(whole(''));
    expect(sameInParts('\n\n"never closed\n').errors).toEqual([
      { line: 3, reason: UNCLOSED },
      { line: 1, reason: 'the file has no header row' },
    ]);
    // The last slice is read before the end is known: the missing header is still reported.
    expect(sameInParts('x,"a"b\n\n\n').errors).toEqual([{ line: 1, reason: UNCLOSED }, { line: 1, reason: 'the file has no header row' }]);
  });

  it('refuses each line holding bytes that are not UTF-8 at the line they are on (a quoted note\'s second line), however the parts fall', () => {
    // A note typed as Latin-1 ("café", é is the byte E9), one quoted over two lines with a stray FF in its second, and
    // characters that are UTF-8 (é, ✓, an emoji), decoded as the renderer decodes a file: each bad byte is U+FFFD.
    const bytes = Buffer.concat([
      Buffer.from('asset_id,listing_id,price,user_note\r\n1,a,4.50,café ✓ 🎩\r\n2,b,4.50,caf', 'utf8'), Buffer.from([0xe9]),
      Buffer.from('\r\n3,c,4.50,"two\r\nlin', 'utf8'), Buffer.from([0xff]), Buffer.from('es"\r\n4,d,4.50,fine\r\n', 'utf8'),
    ]);
    const read = sameInParts(new TextDecoder().decode(bytes), 5);
    const NOT_UTF8 = 'the line holds bytes that are not UTF-8 text (shown as \uFFFD); save the file as UTF-8 (in Excel: CSV UTF-8) and check it again';
    expect(read.errors).toEqual([{ line: 3, reason: NOT_UTF8 }, { line: 5, reason: NOT_UTF8 }]);
    expect(read.records.map((r) => [r.line, r.cells.user_note])).toEqual([[2, 'café ✓ 🎩'], [6, 'fine']]);
    // In the header, it refuses the file: its columns cannot be told.
    expect(whole(`asset_id,listing_id,pr\uFFFDce\r\n1,a,4.50\r\n`)).toEqual({ records: [], errors: [{ line: 1, reason: `${NOT_UTF8} (it is the header, so the file was not read further)` }], priceColumn: 'price' });
  });

  it('reads a header with no line break after it, and refuses a header with an unknown column, reading no further', () => {
    expect(sameInParts('asset_id,price')).toEqual({ records: [], errors: [], priceColumn: 'price' });
    const refused = sameInParts('asset_id,cost\n1,4.50\n');
    expect(refused.records).toEqual([]);
    expect(refused.errors).toEqual([{ line: 1, reason: expect.stringMatching(/^unknown column cost, missing column price — expected/) }]);
  });

  it('reads a quoted note longer than a slice across parts, and stops an unclosed one after its bounded span', () => {
    const long = 'n'.repeat(20_000);
    const rows = Array.from({ length: 300 }, (_, i) => `${i + 10},1.00,row ${i}`);
    const text = ['asset_id,price,user_note', `1,4.50,"${long}\n${long}"`, ...rows, '2,5.00,"never closed', ...rows, ''].join('\n');
    const expected = whole(text);
    expect(expected.records[0]).toEqual({ line: 2, cells: { asset_id: '1', price: '4.50', user_note: `${long}\n${long}` } });
    expect(expected.errors).toEqual([{ line: 304, reason: UNCLOSED }]);
    expect(expected.records).toHaveLength(601);
    expect(expected.records.at(-1)?.line).toBe(604);
    for (const size of [1_000, 4_096, 8_191, 65_536, 100_000]) expect(readParts([...textParts(text, size)].map((p) => p.text)), `parts of ${size}`).toEqual(expected);
    for (let at = 19_990; at < 20_020; at++) expect(readParts(cutAt(text, [at, at + 20_001]))).toEqual(expected);
  });

  it('refuses a line too long to be a CSV row where it starts, and reads no further, without holding it', () => {
    // Longer than the limit from where the slice looks for its end (a line of up to a slice more is read whole).
    const long = 'x'.repeat(80_000);
    const afterHeader = `asset_id,price\n1,4.50\n${long}\n2,5.00\n`;
    const r = whole(afterHeader);
    expect(r.records).toEqual([{ line: 2, cells: { asset_id: '1', price: '4.50' } }]);
    expect(r.errors).toEqual([{ line: 3, reason: expect.stringMatching(/^the line is longer than 65,536 characters, so the rest of the file was not read/) }]);
    const noBreak = whole(long);
    expect(noBreak.errors).toEqual([{ line: 1, reason: expect.stringMatching(/^the line is longer than 65,536/) }]);
    for (const size of [1_000, 8_192, 65_536]) {
      expect(readParts([...textParts(afterHeader, size)].map((p) => p.text))).toEqual(r);
      expect(readParts([...textParts(long, size)].map((p) => p.text))).toEqual(noBreak);
    }
  });

  it('holds a part and a bounded tail, not the file, and numbers lines on across parts', () => {
    const lines = ['asset_id,price,user_note'];
    for (let i = 0; i < 200_000; i++) lines.push(i % 1_000 === 0 ? `${i},1.00,"two\nlines"` : `${i},1.00,note ${i}`);
    const text = `${lines.join('\n')}\n`;
    const reader = csvReader(LISTING_COLUMNS);
    let held = 0;
    const seen: number[] = [];
    for (const part of textParts(text, 100_000)) {
      for (const slice of reader.read(part.text)) for (const rec of slice.records) if (rec.cells.user_note === 'two\nlines') seen.push(rec.line);
      held = Math.max(held, reader.held());
    }
    for (const slice of reader.end()) expect(slice.errors).toEqual([]);
    expect(text.length).toBeGreaterThan(3_000_000);
    // A part, and the rows it cut: a slice, its last row's quoted span at most.
    expect(held).toBeLessThan(100_000 + 80 * 1024);
    // Row i starts on line i + 2 plus one for each two-line note before it.
    expect(seen).toEqual(Array.from({ length: 200 }, (_, k) => k * 1_000 + 2 + k));
  });
});
