import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';

/**
 * How a spreadsheet wrote a CSV file. Excel writes what the computer's
 * language says: in most of Europe a semicolon between cells and a decimal
 * comma ("1,50"), a byte order mark in front when saved as "CSV UTF-8", and
 * CRLF line ends. An import detects each and says what it read; the trader
 * may choose the separator and the decimal mark instead. An export is
 * written for the spreadsheet the trader names: a comma and a decimal point,
 * or a semicolon and a decimal comma; both start with the byte order mark,
 * which tells Excel the file is UTF-8 (without it, Excel on Windows reads
 * "Übersaw" as "Ãœbersaw").
 */

/** The separators an import reads. */
export const csvSeparator = z.enum([',', ';', '\t']);
export type CsvSeparator = z.infer<typeof csvSeparator>;

/** The decimal marks a price may use. */
export const csvDecimal = z.enum(['.', ',']);
export type CsvDecimal = z.infer<typeof csvDecimal>;

/** What the trader chose for a file, overriding what was detected. */
export const csvDialectChoice = lazySchema(() => z.strictObject({ separator: csvSeparator.optional(), decimal: csvDecimal.optional() }));
export type CsvDialectChoice = z.infer<typeof csvDialectChoice>;

/** How an import read a file, for the preview to say. */
export const csvDialect = lazySchema(() => z.object({
  separator: csvSeparator,
  /** `chosen`: the trader's; `detected`: from the header's columns. */
  separatorFrom: z.enum(['chosen', 'detected']),
  /** Null: the file's prices do not say, and no price needed it. */
  decimal: csvDecimal.nullable(),
  /** `chosen`: the trader's; `prices`: what the first prices' shape shows; `separator`: a semicolon file's (a comma one's) usual mark; `none`: nothing told. */
  decimalFrom: z.enum(['chosen', 'prices', 'separator', 'none']),
  /** The file starts with a UTF-8 byte order mark. */
  bom: z.boolean(),
  lineEnd: z.enum(['CRLF', 'LF', 'CR', 'none']),
}));
export type CsvDialect = z.infer<typeof csvDialect>;

/** The two shapes an export is written in. */
export const csvExportFormat = z.enum(['comma', 'semicolon']);
export type CsvExportFormat = z.infer<typeof csvExportFormat>;

/** The byte order mark every export starts with. */
export const CSV_BOM = '\uFEFF';

/** The separator and decimal mark of an export format. */
export const EXPORT_DIALECTS: Readonly<Record<CsvExportFormat, { separator: ',' | ';'; decimal: CsvDecimal }>> = {
  comma: { separator: ',', decimal: '.' },
  semicolon: { separator: ';', decimal: ',' },
};
