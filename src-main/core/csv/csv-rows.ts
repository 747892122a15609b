import Papa from 'papaparse';
import { CSV_BOM, type CsvSeparator } from '../../../src-shared/csv-dialect.ts';
import { groupThousands } from '../../../src-shared/money.ts';

/**
 * The rows of a slice of a CSV file, cells and offsets, as csv-reader.ts
 * reads them: through papaparse, or split on line breaks and the separator
 * where the text holds no quote.
 */

/** The byte order mark a file may start with. */
export const BOM = CSV_BOM;

/**
 * The longest a quoted field may run: far beyond any note or name the
 * service takes (180 characters), short enough that an unclosed quote costs
 * a bounded read before it is reported.
 */
export const MAX_QUOTED_SPAN = 64 * 1024;

/**
 * The longest line read: a row of this file is a few hundred characters, and
 * a file with no line break for this long is not a CSV file (a spreadsheet's
 * own format, a database); reading it to the next break would hold all of it.
 */
export const MAX_LINE_CHARS = 64 * 1024;

/**
 * What a decoder puts where bytes are not UTF-8 (the renderer decodes a file
 * leniently, file-parts.ts says why): a line holding it is refused at the
 * line it is on, never stored with the character lost.
 */
export const REPLACEMENT = '\uFFFD';
export const NOT_UTF8 = 'the line holds bytes that are not UTF-8 text (shown as \uFFFD); save the file as UTF-8 (in Excel: CSV UTF-8) and check it again';

export const UNCLOSED = 'a quoted field is never closed; close the quote or remove it (the lines after it were read on their own)';
export const TOO_LONG = `the line is longer than ${groupThousands(MAX_LINE_CHARS)} characters, so the rest of the file was not read; is it a CSV file?`;

export interface ParsedRow {
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

/** A row without parser errors: shared, as most rows are. */
const NO_ERRORS: string[] = [];

/** Rows of the file from `from` to `to`, both offsets in the file; `text` holds it from `base` on. */
export function parseSlice(text: string, base: number, from: number, to: number, newline: string, separator: CsvSeparator = ','): ParsedRow[] {
  const input = text.slice(from - base, to - base);
  if (!input.includes('"') && !input.startsWith(BOM)) return splitSlice(input, from, newline, separator);
  const rows: ParsedRow[] = [];
  let rowStart = 0;
  Papa.parse<string[]>(input, {
    delimiter: separator,
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
      const errors = result.errors.length === 0 ? NO_ERRORS : [...new Set(result.errors.map(parserReason))];
      rows.push({ cells: result.data, start, end, errors, quoteTrouble, unclosed: unclosed || (quoteTrouble && end >= to) });
    },
  });
  return rows;
}

/**
 * The rows of a slice with no quote in it, split on line breaks and the separator:
 * what papaparse does itself for such text (its "fast mode"), rows, offsets
 * and all. Done here because the rows papaparse hands over, kept to the
 * slice's end, were carried through V8's young-generation collections into
 * the old generation: reading a million rows moved some 180 MB there that
 * way, 12 MB this way, and that garbage was most of a preview's heap peak.
 */
function splitSlice(input: string, from: number, newline: string, separator: CsvSeparator): ParsedRow[] {
  const rows: ParsedRow[] = [];
  if (input === '') return rows;
  let start = from;
  const lines = input.split(newline);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const end = start + line.length + (i < lines.length - 1 ? newline.length : 0);
    rows.push({ cells: line.split(separator), start, end, errors: NO_ERRORS, quoteTrouble: false, unclosed: false });
    start = end;
  }
  return rows;
}

/** Whether a line break falls inside a row (not counting the one that ends it). */
export function spansLines(text: string, base: number, row: ParsedRow, newline: string): boolean {
  const i = text.indexOf(newline, row.start - base);
  return i >= 0 && base + i + newline.length < row.end;
}

function parserReason(e: Papa.ParseError): string {
  if (e.code === 'InvalidQuotes') return 'a field has a stray quote; quote the whole field and double quotes inside it';
  return e.message;
}
