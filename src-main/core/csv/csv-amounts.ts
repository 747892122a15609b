import { groupThousands } from '../../../src-shared/money.ts';
import type { CsvDecimal } from '../../../src-shared/csv-dialect.ts';

/**
 * Prices in a spreadsheet's file, in dollars, as spreadsheets write them in
 * any language: a decimal point or a decimal comma ("4.50", "4,50"), digits
 * grouped by thousands with the other mark, a space or an apostrophe
 * ("1,234.50", "1.234,50", "1 234,50", "1'234.50"), a dollar sign before or
 * after. Most amounts say by their shape which mark is the decimal one; a
 * single mark before exactly three digits ("1,234", "1.234") does not, and
 * is read by the file's decimal mark, or refused with why when the file's
 * mark is not known. Read from the digits as text: no float stands between
 * the cell and its cents.
 */

/** An amount read: whole cents, or why it is not one (a sentence that follows "price: "). */
export type AmountReading = { readonly cents: number } | { readonly problem: string };

/** Characters that group thousands besides the mark that is not the decimal one: spaces as Excel writes them in French, an apostrophe in Swiss German. */
const SPACES = / |\u00A0|\u202F|'/g;

const MARK_NAMES: Readonly<Record<CsvDecimal, string>> = { '.': 'decimal point', ',': 'decimal comma' };

/** The digits of an amount, its sign and dollar sign taken off; null when it holds anything but digits and marks. */
function bodyOf(cell: string): { body: string; sign: 1 | -1 } | null {
  const text = cell.trim().replace(/^\$\s*/, '').replace(/\s*\$$/, '');
  const sign = text.startsWith('-') ? -1 : 1;
  const body = text.replace(/^-\s*/, '');
  return /^[\d., \u00A0\u202F']+$/.test(body) && /\d/.test(body) ? { body, sign } : null;
}

/**
 * The decimal mark an amount's own shape shows: the last of two different
 * marks ("1.234,50"), or a lone mark not followed by exactly three digits
 * ("4,50", "1234,567"); 'open' for a lone mark before three digits after at
 * most three ("1,234": thousands, or three decimals); null for none ("4",
 * "1,234,567").
 */
function shownMark(body: string): CsvDecimal | 'open' | null {
  const dot = body.lastIndexOf('.');
  const comma = body.lastIndexOf(',');
  if (dot >= 0 && comma >= 0) return dot > comma ? '.' : ',';
  const only = dot >= 0 ? '.' : comma >= 0 ? ',' : null;
  if (only === null || body.split(only).length > 2) return null;
  const after = body.length - body.lastIndexOf(only) - 1;
  const head = body.slice(0, body.indexOf(only)).replace(SPACES, '');
  return after === 3 && head !== '' && head.length <= 3 ? 'open' : only;
}

/**
 * Reads a price cell (not empty) in dollars. `decimal` is the file's decimal
 * mark where it is known (chosen by the trader, or told by its other prices
 * or its separator); it decides only what the amount's own shape leaves open.
 */
export function readAmount(cell: string, decimal: CsvDecimal | null): AmountReading {
  const read = bodyOf(cell);
  if (read === null) return { problem: 'must be an amount in dollars, e.g. 4.50 (or 4,50 with a decimal comma)' };
  const { body, sign } = read;
  const shown = shownMark(body);
  const lone = body.includes('.') ? '.' : ',';
  if (shown === 'open' && decimal === null) {
    const whole = body.replace(/[.,]/g, '').replace(SPACES, '');
    const [head, tail] = [whole.slice(0, -3), whole.slice(-3)];
    return {
      problem: `“${body}” could be ${groupThousands(Number(whole))}.00 or ${head}.${tail} dollars: the file does not say whether “${lone}” is its decimal mark or groups thousands; choose the decimal mark, or write the cents too (${whole}.00)`,
    };
  }
  const mark = shown === 'open' ? (decimal === lone ? lone : null) : shown;
  const wholePart = mark === null ? body : body.slice(0, body.lastIndexOf(mark));
  const fraction = mark === null ? '' : body.slice(body.lastIndexOf(mark) + 1);
  if (fraction.length > 2) {
    const other = mark === ',' ? 'a decimal point' : 'a decimal comma';
    return { problem: `“${body}” has ${fraction.length} digits after the ${MARK_NAMES[mark ?? '.']}; a price has at most 2 (if “${mark ?? '.'}” groups thousands in this file, choose ${other})` };
  }
  // What groups thousands: the mark that is not the decimal one (either, when there is none), a space, an apostrophe.
  const groupBy = mark === null ? /[.,]| |\u00A0|\u202F|'/ : new RegExp(`\\${mark === ',' ? '.' : ','}| |\u00A0|\u202F|'`);
  const groups = wholePart.split(groupBy);
  if (!/^\d*$/.test(fraction) || (groups.length > 1 && (!/^\d{1,3}$/.test(groups[0] ?? '') || groups.slice(1).some((g) => !/^\d{3}$/.test(g))))) {
    return { problem: `“${body}” groups its digits oddly; thousands go in groups of three (e.g. 1,234.50 or 1.234,50)` };
  }
  const whole = groups.join('');
  if (!/^\d*$/.test(whole) || (whole === '' && fraction === '')) return { problem: 'must be an amount in dollars, e.g. 4.50 (or 4,50 with a decimal comma)' };
  const cents = Number(whole === '' ? '0' : whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) return { problem: 'is too large' };
  return { cents: sign * cents };
}

/**
 * The decimal mark a price's own shape shows ("4,50", "1.234,50"), or null
 * when it shows none ("4", "1,234", "1.234"): what tells a file's decimal
 * mark from its prices.
 */
export function markShown(cell: string): CsvDecimal | null {
  const read = bodyOf(cell);
  const shown = read === null ? null : shownMark(read.body);
  return shown === 'open' ? null : shown;
}
