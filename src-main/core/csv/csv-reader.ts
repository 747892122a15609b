import type { CsvDialect, CsvSeparator } from '../../../src-shared/csv-dialect.ts';
import type { PriceColumn } from './csv-cells.ts';
import { restore, type CsvColumns, type CsvLineError, type CsvRecord } from './csv-format.ts';
import { HEADER_ALIASES, knownColumn, readHeader } from './csv-header.ts';
import { BOM, MAX_LINE_CHARS, MAX_QUOTED_SPAN, NOT_UTF8, parseSlice, REPLACEMENT, spansLines, TOO_LONG, UNCLOSED, type ParsedRow } from './csv-rows.ts';
import { detectSeparator } from './csv-sniff.ts';

/**
 * Reads a CSV file as it arrives, a part at a time (a megabyte from the
 * renderer, or what a caller has), and hands its rows on a slice at a time:
 * each slice is parsed on its own (a few tens of kilobytes, a thousand rows
 * or so), so an import can check and store one slice, let the heartbeat and
 * the screens run, and go on. The reader holds the part it was given and
 * the unfinished tail of the one before (a row cut by the part's end), never
 * the file: memory is bounded by a part, whatever the file's size. Where the
 * parts are cut changes nothing: the rows, the refusals and their line
 * numbers are those of the whole text read at once. Every cell stays a string
 * (asset IDs are 64-bit numbers a float would corrupt); rows keep the line
 * they start on, counted as an editor counts them. The separator is the
 * trader's choice, or what splits the header into the columns the import
 * knows (csv-sniff.ts); a byte order mark in front is read past and noted.
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

export interface CsvReader {
  /**
   * Takes the next part of the file and yields the slices it completes; a
   * row cut by the part's end waits for the next part. Read every slice
   * before giving the next part.
   */
  read(part: string): Iterable<CsvSlice>;
  /** The file has ended: yields the slices of what is left. */
  end(): Iterable<CsvSlice>;
  /** The column the file's prices are in (known once the header is read). */
  priceColumn(): PriceColumn;
  /** How the file is written, as far as read: its separator (and whose), byte order mark and line ends. */
  dialect(): Pick<CsvDialect, 'separator' | 'separatorFrom' | 'bom' | 'lineEnd'>;
  /** Characters held now (the unread tail and the last part): what bounds the reader's memory, for its tests. */
  held(): number;
}

/** What a boundary needs: a line break found (the offset after it), more of the file, or a line too long to read. */
type Cut = number | 'more' | 'long';

/**
 * Reads a file whose first non-blank row is a header. A header that misses a
 * required column or names an unknown one refuses the whole file, saying
 * which columns the file should have: a column named "cost" instead of
 * "price" must not import rows without prices.
 */
export function csvReader(columns: CsvColumns, chosenSeparator?: CsvSeparator): CsvReader {
  /** The file from offset `base` on, as far as it has arrived (`base` is where the last part found the next slice). */
  let text = '';
  let base = 0;
  /** Where the next slice starts, and the line it is on. */
  let pos = 0;
  let line = 1;
  let newline: string | null = null;
  let separator: CsvSeparator | null = chosenSeparator ?? null;
  let bom = false;
  let lineEnd: CsvDialect['lineEnd'] = 'none';
  let started = false;
  /** Nothing but white space so far. */
  let blank = true;
  let ended = false;
  /** The header was refused, a line was too long, or the file is read to its end: nothing more is read. */
  let stopped = false;
  let header: string[] | null = null;
  let priceColumn: PriceColumn = 'price';

  const total = () => base + text.length;

  /** The offset just after the first line break at or after `at` (the file's end when there is none). */
  function boundary(at: number): Cut {
    const br = newline as string;
    if (ended && at >= total()) return total();
    const i = text.indexOf(br, Math.max(0, at - base));
    if ((i < 0 ? total() : base + i) - at >= MAX_LINE_CHARS) return 'long';
    if (i >= 0) return base + i + br.length;
    return ended ? total() : 'more';
  }

  /** The file's line break, as the first one written says (CRLF, LF or CR). */
  function lineBreak(): string | 'more' | 'long' {
    const i = text.search(/\r\n|\n|\r/);
    if ((i < 0 ? text.length : i) >= MAX_LINE_CHARS) return 'long';
    if (i < 0) return ended ? '\n' : 'more';
    if (text[i] === '\r' && i === text.length - 1 && !ended) return 'more';
    lineEnd = text.startsWith('\r\n', i) ? 'CRLF' : text[i] === '\r' ? 'CR' : 'LF';
    return text.startsWith('\r\n', i) ? '\r\n' : text[i] === '\r' ? '\r' : '\n';
  }

  /**
   * Counts line breaks from `pos` on: rows arrive in order, so the text is
   * scanned once. Counted as an editor shows them: every LF (so a bare LF
   * inside a quoted note of a CRLF file counts too), or every CR in a CR-only
   * file.
   */
  function lineCounter() {
    const br = newline === '\r' ? '\r' : '\n';
    let at = pos;
    let n = line;
    return (offset: number): number => {
      for (let i = text.indexOf(br, at - base); i !== -1 && base + i < offset; i = text.indexOf(br, i + 1)) n += 1;
      at = Math.max(at, offset);
      return n;
    };
  }

  /** The rest is not read: a line too long to hold. */
  function tooLong(at: number, records: CsvRecord[] = [], errors: CsvLineError[] = []): CsvSlice {
    stopped = true;
    errors.push({ line: lineCounter()(at), reason: TOO_LONG });
    return { records, errors };
  }

  /** The file's separator, told by its first line that is not blank; 'more' until that line has arrived whole. */
  function sniffSeparator(br: string): CsvSeparator | 'more' {
    for (let at = 0; ;) {
      const i = text.indexOf(br, at);
      if (i < 0 && !ended) return 'more';
      const first = text.slice(at, i < 0 ? text.length : i);
      if (first.trim() !== '' || i < 0) return detectSeparator(first, knownColumn(columns, HEADER_ALIASES));
      at = i + br.length;
    }
  }

  /** The next slice, or 'more' when it needs more of the file than has arrived. */
  function nextSlice(): CsvSlice | 'more' {
    if (newline === null) {
      const found = lineBreak();
      if (found === 'more') return 'more';
      if (found === 'long') return tooLong(0);
      newline = found;
    }
    if (separator === null) {
      const found = sniffSeparator(newline);
      if (found === 'more') return 'more';
      separator = found;
    }
    const sep = separator;
    let first = boundary(pos + SLICE_CHARS);
    if (first === 'more') return 'more';
    if (first === 'long') {
      // The rows before the long line are read; the next slice starts at it, and is refused there.
      const before = text.lastIndexOf(newline, pos + SLICE_CHARS - base);
      if (before < pos - base) return tooLong(pos);
      first = base + before + newline.length;
    }
    let end = first;
    let rows = parseSlice(text, base, pos, end, newline, sep);
    // A quoted field still open where the slice ends may close further on: read the row again with more of the file.
    let last = rows.at(-1);
    while (last?.unclosed && !(ended && end >= total()) && end - last.start < MAX_QUOTED_SPAN) {
      const further = boundary(end + SLICE_CHARS);
      if (typeof further !== 'number') return further === 'more' ? 'more' : tooLong(end + SLICE_CHARS);
      end = further;
      rows = parseSlice(text, base, pos, end, newline, sep);
      last = rows.at(-1);
    }
    // A stray quote that swallowed line breaks: the row's own line is reported and skipped, and the lines it swallowed
    // are read on their own. Where they start is found before any row is taken, so a slice that must wait for more of
    // the file is read again whole.
    const br = newline;
    const trouble = rows.findIndex((row) => row.unclosed || (row.quoteTrouble && spansLines(text, base, row, br)));
    let next = end;
    let skipTo: Cut = end;
    if (trouble >= 0) {
      skipTo = boundary((rows[trouble] as ParsedRow).start + 1);
      if (skipTo === 'more') return 'more';
    }
    const lineAt = lineCounter();
    const records: CsvRecord[] = [];
    const errors: CsvLineError[] = [];
    const undecodable = text.slice(pos - base, end - base).includes(REPLACEMENT);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] as ParsedRow;
      const at = lineAt(row.start);
      const lost = undecodable ? text.slice(row.start - base, row.end - base).indexOf(REPLACEMENT) : -1;
      if (i === trouble) {
        errors.push({ line: at, reason: UNCLOSED });
        if (skipTo === 'long') return tooLong(row.start + 1, records, errors);
        next = skipTo;
        break;
      }
      if (row.cells.every((c) => c.trim() === '')) continue;
      if (lost >= 0) {
        // The line it is on, which in a note quoted over lines is not the row's first.
        errors.push({ line: lineAt(row.start + lost), reason: header === null ? `${NOT_UTF8} (it is the header, so the file was not read further)` : NOT_UTF8 });
        if (header !== null) continue;
        stopped = true;
        return { records, errors };
      }
      if (row.errors.length > 0) {
        errors.push({ line: at, reason: row.errors.join('; ') });
        continue;
      }
      if (header === null) {
        const read = readHeader(row.cells, columns);
        header = read.names;
        if ('problem' in read) {
          errors.push({ line: at, reason: read.problem });
          stopped = true;
          return { records, errors };
        }
        priceColumn = read.priceColumn;
        continue;
      }
      if (row.cells.length !== header.length) {
        errors.push({ line: at, reason: `the row has ${row.cells.length} fields, the header has ${header.length}` });
        continue;
      }
      const named: Record<string, string> = {};
      header.forEach((name, k) => {
        const value = restore(row.cells[k] as string);
        if (value !== '') named[name] = value;
      });
      records.push({ line: at, cells: named });
    }
    line = lineAt(next);
    pos = next;
    if (ended && pos >= total()) {
      stopped = true;
      if (header === null) errors.push({ line: 1, reason: 'the file has no header row' });
    }
    return { records, errors };
  }

  function* slices(): Generator<CsvSlice> {
    while (!stopped) {
      if (ended && blank) {
        stopped = true;
        yield { records: [], errors: [{ line: 1, reason: 'the file is empty' }] };
        return;
      }
      // The last slice was read before the file was known to end there.
      if (ended && pos >= total()) {
        stopped = true;
        if (header === null) yield { records: [], errors: [{ line: 1, reason: 'the file has no header row' }] };
        return;
      }
      const slice = nextSlice();
      if (slice === 'more') return;
      yield slice;
    }
  }

  return {
    read(part) {
      if (ended) throw new Error('the file has already ended');
      let added = part;
      if (!started && added.length > 0) {
        started = true;
        if (added.startsWith(BOM)) {
          added = added.slice(1);
          bom = true;
        }
      }
      if (blank && /\S/.test(added)) blank = false;
      if (!stopped) {
        // What the slices so far have read is let go: the text kept starts where the next slice does.
        text = text.slice(pos - base) + added;
        base = pos;
      }
      return slices();
    },
    end() {
      ended = true;
      return slices();
    },
    priceColumn: () => priceColumn,
    dialect: () => ({
      separator: separator ?? ',',
      separatorFrom: chosenSeparator === undefined ? 'detected' : 'chosen',
      bom,
      lineEnd,
    }),
    held: () => text.length,
  };
}
