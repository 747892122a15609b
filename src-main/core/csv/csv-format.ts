import Papa from 'papaparse';
import { CSV_BOM, EXPORT_DIALECTS, type CsvDecimal } from '../../../src-shared/csv-dialect.ts';
import { formatDecimal } from '../../../src-shared/money.ts';
import { printable } from '../safe-text.ts';

/**
 * The CSV shapes the ledgers and drafts share, and writing them through
 * papaparse (reading is csv-reader.ts). Every cell stays a string: asset IDs,
 * listing IDs and account IDs are 64-bit numbers that a float would corrupt,
 * so nothing here guesses types. Each import kind says which cells are
 * numbers and converts them, then validates with the shared field rules.
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

export type CellValue = string | number | boolean | null | undefined;

/** The most of a cell a refusal quotes: a line may run to 64k characters, and a reason is read in a line of the preview. */
const ECHO_CHARS = 80;

/** A cell (or a header name) as a refusal quotes it: an excerpt at most, with nothing in it that could break its line. */
export function echoed(cell: string): string {
  return printable(cell, ECHO_CHARS);
}

/** The shape an export is written in: a comma and a decimal point, or a semicolon and a decimal comma (src-shared/csv-dialect.ts). */
export interface FileShape {
  readonly separator: ',' | ';';
  readonly decimal: CsvDecimal;
}

/** What the desk writes unless the trader asks for the semicolon shape. */
export const COMMA_FILE: FileShape = EXPORT_DIALECTS.comma;

/** An amount in dollars as a file of this shape holds it: "1234.50", or "1234,50". */
export function dollarsIn(shape: FileShape, cents: number): string {
  const text = formatDecimal(cents);
  return shape.decimal === ',' ? text.replace('.', ',') : text;
}

/**
 * Writes rows under a header in a fixed column order, quoting only where
 * needed (the separator, quotes, line breaks, edge spaces). Booleans are
 * written 0/1 and integers in plain digits; a missing value is an empty
 * cell. The byte order mark goes in front of a whole file (`fileText`), not
 * of each part. `header`: the columns' names as the file says them, when
 * they are words for people rather than the names an import reads.
 */
export function writeCsv(
  columns: readonly string[], rows: Iterable<Readonly<Record<string, CellValue>>>, shape: FileShape = COMMA_FILE, header: readonly string[] = columns,
): string {
  const data: string[][] = [];
  for (const row of rows) data.push(columns.map((c) => cellText(row[c])));
  return `${Papa.unparse({ fields: header.map(neutralise), data }, { newline: '\r\n', quotes: false, delimiter: shape.separator })}\r\n`;
}

/** A whole file from its parts: the byte order mark first, so a spreadsheet reads it as UTF-8. */
export function fileText(parts: readonly string[]): string {
  return `${CSV_BOM}${parts.join('')}`;
}

/** The header's line is written once, with the first part: a later part leaves it out. */
export function withoutHeader(part: string): string {
  return part.slice(part.indexOf('\r\n') + 2);
}

function cellText(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? '1' : '0';
  // Numbers stay numbers in a spreadsheet: plain digits (and a sign) cannot carry a formula.
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new RangeError(`not a whole number for CSV: ${value}`);
    return String(value);
  }
  // A signed amount ("-12.50", "-12,50") is a number to a spreadsheet, as an integer is: it carries no formula.
  if (SIGNED_AMOUNT.test(value)) return value;
  return neutralise(value);
}

const SIGNED_AMOUNT = /^-\d+(?:[.,]\d+)?$/;

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
 * rows for one asset or SKU in one file are a mistake, not a merge. Returns
 * the earlier line, or null the first time.
 */
export type SeenKeys = (key: string, line: number) => number | null;

/** SeenKeys in memory, for a few rows (an import of a whole file keeps them in the store, see store/scratch-staging.ts). */
export function duplicateTracker(): SeenKeys {
  const first = new Map<string, number>();
  return (key, line) => {
    const seen = first.get(key);
    if (seen !== undefined) return seen;
    first.set(key, line);
    return null;
  };
}
