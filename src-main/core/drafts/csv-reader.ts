import Papa from 'papaparse';
import type { PriceColumn } from './csv-cells.ts';
import { restore, type CsvColumns, type CsvLineError, type CsvRecord } from './csv-format.ts';

/**
 * Reads a CSV file a slice at a time: each slice is parsed on its own (a
 * few tens of kilobytes, a thousand rows or so), so an import can check and
 * store one slice, let the heartbeat and the screens run, and go on, with
 * memory bounded by the slice. Every cell stays a string (asset IDs are
 * 64-bit numbers a float would corrupt); rows keep the line they start on,
 * counted as an editor counts them.
 *
 * A quoted field may run over line breaks (a note written on two lines), so
 * a row cut by a slice's end is read again with more of the file; but a
 * quote that is never closed, which would swallow the rest of the file into
 * one field, is reported at its line, and reading goes on at the next line:
 * the rows after it are still read and checked.
 */

/** Rows of one slice, and the lines it refused. */
export interface CsvSlice {
  readonly records: CsvRecord[];
  readonly errors: CsvLineError[];
}

/** Where a slice ends: about this many characters in, at a line break. */
const SLICE_CHARS = 8 * 1024;

/**
 * The longest a quoted field may run: far beyond any note or name the
 * service takes (180 characters), short enough that an unclosed quote costs
 * a bounded read before it is reported.
 */
const MAX_QUOTED_SPAN = 64 * 1024;

/** Prices in whole cents, as the previous version exported them: still read, never written. */
const LEGACY_PRICE = 'price_cents';

/** Header names a trader may use for a column, and the column they mean. */
const ALIASES: Readonly<Record<string, string>> = { item: 'name' };

const BOM = '\uFEFF';

export interface CsvReading {
  /** The file's rows, a slice at a time, in order. */
  readonly slices: Iterable<CsvSlice>;
  /** The column the file's prices are in (known once the header is read). */
  priceColumn(): PriceColumn;
}

/**
 * Reads `text` whose first non-blank row is a header. A header that misses a
 * required column or names an unknown one refuses the whole file, saying
 * which columns the file should have: a column named "cost" instead of
 * "price" must not import rows without prices.
 */
export function readCsvSlices(text: string, columns: CsvColumns): CsvReading {
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  const newline = lineBreakOf(body);
  let header: string[] | null = null;
  let priceColumn: PriceColumn = 'price';

  function* slices(): Iterable<CsvSlice> {
    if (body.trim() === '') {
      yield { records: [], errors: [{ line: 1, reason: 'the file is empty' }] };
      return;
    }
    const lines = lineCounter(body, newline);
    let pos = 0;
    let refused = false;
    while (pos < body.length && !refused) {
      let end = boundary(body, pos + SLICE_CHARS, newline);
      let rows = parseSlice(body, pos, end, newline);
      // A quoted field still open where the slice ends may close further on: read the row again with more of the file.
      let last = rows.at(-1);
      while (last?.unclosed && end < body.length && end - last.start < MAX_QUOTED_SPAN) {
        end = boundary(body, Math.min(body.length, end + SLICE_CHARS), newline);
        rows = parseSlice(body, pos, end, newline);
        last = rows.at(-1);
      }
      const records: CsvRecord[] = [];
      const errors: CsvLineError[] = [];
      let next = end;
      for (const row of rows) {
        const line = lines.lineAt(row.start);
        // A stray quote that swallowed line breaks: the row's own line is reported, and the lines it swallowed are read on their own.
        const swallowed = row.quoteTrouble && spansLines(body, row, newline);
        if (row.unclosed || swallowed) {
          errors.push({ line, reason: 'a quoted field is never closed; close the quote or remove it (the lines after it were read on their own)' });
          // The row's own line is skipped; the next line starts afresh.
          next = boundary(body, row.start + 1, newline);
          break;
        }
        if (row.cells.every((c) => c.trim() === '')) continue;
        if (row.errors.length > 0) {
          errors.push({ line, reason: row.errors.join('; ') });
          continue;
        }
        if (header === null) {
          header = row.cells.map((c) => c.trim().toLowerCase()).map((name) => ALIASES[name] ?? name);
          const problems = headerProblems(header, columns);
          if (problems !== null) {
            errors.push({ line, reason: problems });
            refused = true;
            break;
          }
          priceColumn = header.includes(LEGACY_PRICE) ? 'price_cents' : 'price';
          continue;
        }
        if (row.cells.length !== header.length) {
          errors.push({ line, reason: `the row has ${row.cells.length} fields, the header has ${header.length}` });
          continue;
        }
        const named: Record<string, string> = {};
        header.forEach((name, i) => {
          const value = restore(row.cells[i] as string);
          if (value !== '') named[name] = value;
        });
        records.push({ line, cells: named });
      }
      if (!refused && header === null && next >= body.length) errors.push({ line: 1, reason: 'the file has no header row' });
      yield { records, errors };
      pos = next;
    }
  }

  return { slices: { [Symbol.iterator]: () => slices()[Symbol.iterator]() }, priceColumn: () => priceColumn };
}

interface ParsedRow {
  readonly cells: string[];
  /** Offsets in the file where the row starts and ends. */
  readonly start: number;
  readonly end: number;
  readonly errors: string[];
  /** A quote the parser could not pair up (never closed, or stray). */
  readonly quoteTrouble: boolean;
  /** A quoted field runs to the end of what was parsed. */
  readonly unclosed: boolean;
}

function parseSlice(body: string, from: number, to: number, newline: string): ParsedRow[] {
  const rows: ParsedRow[] = [];
  let rowStart = 0;
  Papa.parse<string[]>(body.slice(from, to), {
    delimiter: ',',
    newline: newline as '\n',
    header: false,
    dynamicTyping: false,
    skipEmptyLines: false,
    step: (result) => {
      const start = from + rowStart;
      rowStart = result.meta.cursor;
      const end = from + rowStart;
      const unclosed = result.errors.some((e) => e.code === 'MissingQuotes');
      const quoteTrouble = unclosed || result.errors.some((e) => e.code === 'InvalidQuotes');
      rows.push({ cells: result.data, start, end, errors: [...new Set(result.errors.map(parserReason))], quoteTrouble, unclosed: unclosed || (quoteTrouble && end >= to) });
    },
  });
  return rows;
}

/** Whether a line break falls inside a row (not counting the one that ends it). */
function spansLines(body: string, row: ParsedRow, newline: string): boolean {
  const i = body.indexOf(newline, row.start);
  return i >= 0 && i + newline.length < row.end;
}

/** The offset just after the first line break at or after `at` (the file's end when there is none). */
function boundary(body: string, at: number, newline: string): number {
  if (at >= body.length) return body.length;
  const i = body.indexOf(newline, at);
  return i < 0 ? body.length : i + newline.length;
}

/** The file's line break, as the first one written says (CRLF, LF or CR). */
function lineBreakOf(body: string): string {
  const i = body.search(/\r\n|\n|\r/);
  if (i < 0) return '\n';
  return body.startsWith('\r\n', i) ? '\r\n' : body[i] === '\r' ? '\r' : '\n';
}

function parserReason(e: Papa.ParseError): string {
  if (e.code === 'InvalidQuotes') return 'a field has a stray quote; quote the whole field and double quotes inside it';
  return e.message;
}

/**
 * Counts line breaks incrementally: rows arrive in order, so the file is
 * scanned once. Counted as an editor shows them: every LF (so a bare LF inside
 * a quoted note of a CRLF file counts too), or every CR in a CR-only file.
 */
function lineCounter(text: string, newline: string) {
  const br = newline === '\r' ? '\r' : '\n';
  let at = 0;
  let line = 1;
  return {
    lineAt(offset: number): number {
      for (let i = text.indexOf(br, at); i !== -1 && i < offset; i = text.indexOf(br, i + 1)) line += 1;
      at = Math.max(at, offset);
      return line;
    },
  };
}

/** What is wrong with a header, then the columns the file should have; null when nothing is. */
function headerProblems(header: readonly string[], columns: CsvColumns): string | null {
  const known = (name: string) => columns.all.includes(name) || (name === LEGACY_PRICE && columns.all.includes('price'));
  const problems: string[] = [];
  const seen = new Set<string>();
  const unknown: string[] = [];
  header.forEach((name, i) => {
    if (name === '') problems.push(`column ${i + 1} has no name`);
    else if (seen.has(name)) problems.push(`column ${name} appears twice`);
    else if (!known(name)) unknown.push(name);
    seen.add(name);
  });
  if (unknown.length > 0) problems.unshift(`unknown ${unknown.length === 1 ? 'column' : 'columns'} ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? '…' : ''}`);
  if (seen.has('price') && seen.has(LEGACY_PRICE)) problems.push('give price or price_cents, not both');
  for (const name of columns.required) {
    if (!seen.has(name) && !(name === 'price' && seen.has(LEGACY_PRICE))) problems.push(`missing column ${name}`);
  }
  return problems.length === 0 ? null : `${problems.join(', ')} — ${expectedColumns(columns)}`;
}

/** "expected asset_id, price (dollars, e.g. 4.50), and optionally listing_id, sku, …" */
function expectedColumns(columns: CsvColumns): string {
  const say = (name: string) => (name === 'price' ? 'price (dollars, e.g. 4.50)' : name === 'name' ? 'name (or item)' : name);
  const optional = columns.all.filter((c) => !columns.required.includes(c));
  const required = columns.required.map(say).join(', ');
  return `expected ${required}${optional.length > 0 ? `, and optionally ${optional.map(say).join(', ')}` : ''}`;
}
