import Papa from 'papaparse';
import type { PriceColumn } from './csv-cells.ts';

/**
 * Reading and writing CSV for the ledgers and drafts, through papaparse.
 * Every cell stays a string (`dynamicTyping: false`): asset IDs, listing IDs
 * and account IDs are 64-bit numbers that a float would corrupt, so nothing
 * here guesses types. Each import kind says which cells are numbers and
 * converts them with the helpers below, then validates with the shared field
 * rules. Rows keep the line of the file they start on, so a refusal can say
 * "line 7" even when a quoted note spans several lines.
 *
 * Exports are opened in spreadsheets: a text cell that would run there as a
 * formula is written with a leading `'` and read back without it (see
 * `neutralise`), so the file is safe to open and a round trip is lossless.
 */

/** A refused line: 1-based line in the file (the header is line 1 when it comes first). */
export interface CsvLineError {
  readonly line: number;
  readonly reason: string;
}

/** One data row: its cells by (normalised) column name, empty cells left out. */
export interface CsvRecord {
  readonly line: number;
  readonly cells: Readonly<Record<string, string>>;
}

export interface CsvColumns {
  /** Every column the kind knows, in export order. */
  readonly all: readonly string[];
  /** Columns the header must name (`price` may be named `price_cents`, as the previous version wrote it). */
  readonly required: readonly string[];
}

export interface CsvTable {
  readonly records: CsvRecord[];
  readonly errors: CsvLineError[];
  /** The column prices are read from: dollars, or the whole cents of a file exported by the previous version. */
  readonly priceColumn: PriceColumn;
}

/** Prices in whole cents, as the previous version exported them: still read, never written. */
const LEGACY_PRICE = 'price_cents';

const BOM = '\uFEFF';

/**
 * Parses `text` whose first non-blank row is a header. A header that misses a
 * required column or names an unknown one refuses the whole file, saying
 * which columns the file should have: a column named "cost" instead of
 * "price" must not import rows without prices.
 */
export function readCsv(text: string, columns: CsvColumns): CsvTable {
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  if (body.trim() === '') return { records: [], errors: [{ line: 1, reason: 'the file is empty' }], priceColumn: 'price' };
  const records: CsvRecord[] = [];
  const errors: CsvLineError[] = [];
  const lines = lineCounter(body);
  let header: string[] | null = null;
  let headerRefused = false;
  let rowStart = 0;
  Papa.parse<string[]>(body, {
    delimiter: ',',
    header: false,
    dynamicTyping: false,
    skipEmptyLines: false,
    step: (result) => {
      const line = lines.lineAt(rowStart, result.meta.linebreak);
      rowStart = result.meta.cursor;
      const cells = result.data;
      if (headerRefused || cells.every((c) => c.trim() === '')) return;
      if (result.errors.length > 0) {
        for (const e of result.errors) errors.push({ line, reason: parserReason(e) });
        return;
      }
      if (header === null) {
        header = cells.map((c) => c.trim().toLowerCase());
        const problems = headerProblems(header, columns);
        if (problems.length > 0) errors.push({ line, reason: problems.join('; ') });
        headerRefused = problems.length > 0;
        return;
      }
      if (cells.length !== header.length) {
        errors.push({ line, reason: `the row has ${cells.length} fields, the header has ${header.length}` });
        return;
      }
      const named: Record<string, string> = {};
      header.forEach((name, i) => {
        const value = restore(cells[i] as string);
        if (value !== '') named[name] = value;
      });
      records.push({ line, cells: named });
    },
  });
  if (header === null && errors.length === 0) errors.push({ line: 1, reason: 'the file has no header row' });
  const priceColumn: PriceColumn = (header as string[] | null)?.includes(LEGACY_PRICE) === true ? 'price_cents' : 'price';
  return { records: headerRefused ? [] : records, errors, priceColumn };
}

/** What is wrong with a header, in a few words, then the columns the file should have; empty when nothing is. */
function headerProblems(header: readonly string[], columns: CsvColumns): string[] {
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
  if (problems.length === 0) return [];
  return [`${problems.join(', ')} — ${expectedColumns(columns)}`];
}

/** "expected asset_id, price (dollars, e.g. 4.50), and optionally listing_id, sku, …" */
function expectedColumns(columns: CsvColumns): string {
  const say = (name: string) => (name === 'price' ? 'price (dollars, e.g. 4.50)' : name);
  const optional = columns.all.filter((c) => !columns.required.includes(c));
  const required = columns.required.map(say).join(', ');
  return `expected ${required}${optional.length > 0 ? `, and optionally ${optional.map(say).join(', ')}` : ''}`;
}

function parserReason(e: Papa.ParseError): string {
  if (e.code === 'MissingQuotes') return 'a quoted field is never closed (the rest of the file was read into it)';
  if (e.code === 'InvalidQuotes') return 'a field has a stray quote; quote the whole field and double quotes inside it';
  return e.message;
}

/**
 * Counts line breaks incrementally: rows arrive in order, so the whole file is
 * scanned once. Counted as an editor shows them: every LF (so a bare LF inside
 * a quoted note of a CRLF file counts too), or every CR in a CR-only file.
 */
function lineCounter(text: string) {
  let at = 0;
  let line = 1;
  return {
    lineAt(offset: number, linebreak: string): number {
      const br = linebreak === '\r' ? '\r' : '\n';
      for (let i = text.indexOf(br, at); i !== -1 && i < offset; i = text.indexOf(br, i + 1)) line += 1;
      at = Math.max(at, offset);
      return line;
    },
  };
}

export type CellValue = string | number | boolean | null | undefined;

/**
 * Writes rows under a header in a fixed column order, quoting only where
 * needed (commas, quotes, line breaks, edge spaces). Booleans are written
 * 0/1 and integers in plain digits; a missing value is an empty cell.
 */
export function writeCsv(columns: readonly string[], rows: Iterable<Readonly<Record<string, CellValue>>>): string {
  const data: string[][] = [];
  for (const row of rows) data.push(columns.map((c) => cellText(row[c])));
  return `${Papa.unparse({ fields: [...columns], data }, { newline: '\r\n', quotes: false })}\r\n`;
}

function cellText(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? '1' : '0';
  // Numbers stay numbers in a spreadsheet: plain digits (and a sign) cannot carry a formula.
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new RangeError(`not a whole number for CSV: ${value}`);
    return String(value);
  }
  return neutralise(value);
}

/**
 * Text a spreadsheet would run as a formula: it starts with `=`, `+`, `-`,
 * `@`, a tab or a carriage return (OWASP's CSV injection list), possibly
 * behind quotes already, which is how a trader writes such text by hand.
 */
const RUNS_AS_FORMULA = /^'*[=+\-@\t\r]/;

/**
 * A text cell as export writes it: with a `'` in front when a spreadsheet
 * would otherwise run it, so it shows as text. Quotes already in front count
 * (`'=x` becomes `''=x`), so `restore` can always take exactly one off.
 */
export function neutralise(text: string): string {
  return RUNS_AS_FORMULA.test(text) ? `'${text}` : text;
}

/**
 * A cell as import reads it: the `'` that export (or a trader typing `'=`)
 * put in front of formula text is taken off; any other leading quote stays.
 */
export function restore(cell: string): string {
  return cell.startsWith("'") && RUNS_AS_FORMULA.test(cell) ? cell.slice(1) : cell;
}

/** One error per line, reasons joined, in line order: the import screen lists lines. */
export function byLine(errors: readonly CsvLineError[]): CsvLineError[] {
  const lines = new Map<number, string[]>();
  for (const e of errors) {
    const list = lines.get(e.line);
    if (list) list.push(e.reason);
    else lines.set(e.line, [e.reason]);
  }
  return [...lines.entries()].sort((a, b) => a[0] - b[0]).map(([line, reasons]) => ({ line, reason: reasons.join('; ') }));
}

/**
 * Remembers the first line each key was seen on and reports later ones: two
 * rows for one asset or SKU in one file are a mistake, not a merge.
 */
export function duplicateTracker() {
  const first = new Map<string, number>();
  return (key: string, line: number): number | null => {
    const seen = first.get(key);
    if (seen !== undefined) return seen;
    first.set(key, line);
    return null;
  };
}
