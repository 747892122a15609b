import type { CsvDecimal, CsvSeparator } from '../../../src-shared/csv-dialect.ts';
import { markShown } from './csv-amounts.ts';

/**
 * What an import tells of a file before reading its rows: the separator from
 * the header (the one that splits it into the most columns the import knows;
 * a semicolon file read with commas is one unknown column), and the decimal
 * mark from the prices' own shape, else from the separator (a semicolon file
 * comes from a spreadsheet whose language writes a decimal comma).
 */

const SEPARATORS: readonly CsvSeparator[] = [',', ';', '\t'];

/** The header's cells split on `separator`, quoted parts kept whole. */
function cellsOf(header: string, separator: CsvSeparator): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (const ch of header) {
    if (ch === '"') quoted = !quoted;
    else if (ch === separator && !quoted) {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  cells.push(cell);
  return cells.map((c) => c.trim().toLowerCase());
}

/**
 * The separator of a file whose header is `header` (its first line): the one
 * that names the most columns `known` accepts, then the one that splits it
 * most; a comma when none splits it (a file of one column).
 */
export function detectSeparator(header: string, known: (name: string) => boolean): CsvSeparator {
  let best: CsvSeparator = ',';
  let score = [-1, -1];
  for (const separator of SEPARATORS) {
    const cells = cellsOf(header, separator);
    const next = [cells.filter(known).length, cells.length];
    if ((next[0] ?? 0) > (score[0] ?? 0) || (next[0] === score[0] && (next[1] ?? 0) > (score[1] ?? 0))) {
      best = separator;
      score = next;
    }
  }
  return best;
}

/**
 * The decimal mark the prices show by their shape ("4,50", "1.234,50"),
 * most of them when they disagree; null when none shows one ("4", "1,234").
 */
export function decimalOfPrices(prices: Iterable<string>): CsvDecimal | null {
  let points = 0;
  let commas = 0;
  for (const price of prices) {
    const mark = markShown(price);
    if (mark === '.') points += 1;
    else if (mark === ',') commas += 1;
  }
  if (points === commas) return null;
  return points > commas ? '.' : ',';
}

/** The decimal mark a file's separator goes with: spreadsheets that write a decimal comma separate cells with semicolons. */
export function decimalOfSeparator(separator: CsvSeparator): CsvDecimal | null {
  return separator === ';' ? ',' : separator === ',' ? '.' : null;
}
