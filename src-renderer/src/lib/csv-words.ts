import type { CsvDialect } from '../../../src-shared/csv-dialect.ts';

/**
 * How an import read a CSV file, as the preview says it: "Read as
 * semicolon-separated (detected), decimal comma "1,50" (from the prices), with
 * a byte order mark, Windows line ends (CRLF)."
 */
const SEPARATORS: Record<CsvDialect['separator'], string> = { ',': 'comma-separated', ';': 'semicolon-separated', '\t': 'tab-separated' };
const DECIMAL_FROM: Record<CsvDialect['decimalFrom'], string> = {
  chosen: 'as you chose', prices: 'from the prices', separator: 'usual with that separator', none: '',
};
const LINE_ENDS: Record<CsvDialect['lineEnd'], string | null> = {
  CRLF: 'Windows line ends (CRLF)', LF: 'line ends LF', CR: 'old Mac line ends (CR)', none: null,
};

export function dialectWords(d: CsvDialect): string {
  const parts = [`${SEPARATORS[d.separator]} (${d.separatorFrom === 'chosen' ? 'as you chose' : 'detected'})`];
  if (d.decimal !== null) {
    const mark = d.decimal === ',' ? 'decimal comma “1,50”' : 'decimal point “1.50”';
    parts.push(d.decimalFrom === 'none' ? mark : `${mark} (${DECIMAL_FROM[d.decimalFrom]})`);
  }
  parts.push(d.bom ? 'with a byte order mark' : 'no byte order mark');
  const ends = LINE_ENDS[d.lineEnd];
  if (ends !== null) parts.push(ends);
  return `Read as ${parts.join(', ')}.`;
}
