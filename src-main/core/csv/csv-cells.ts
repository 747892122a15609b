import type { z } from 'zod';
import type { CsvDecimal } from '../../../src-shared/csv-dialect.ts';
import { readAmount } from './csv-amounts.ts';

/**
 * Reading the cells of an import row. Each reader returns undefined for an
 * absent cell, the converted value when the text has the right shape, and the
 * text itself otherwise, so the field rule (not this file) words the refusal.
 */

/** Which column a file gives prices in: dollars (`price`, "4.50", what every screen shows) or the previous version's `price_cents`. */
export type PriceColumn = 'price' | 'price_cents';

/** How a file gives its prices: the column, and the decimal mark of its dollars where it is known (csv-amounts.ts). */
export interface PriceFormat {
  readonly column: PriceColumn;
  readonly decimal: CsvDecimal | null;
}

/** Dollars with a decimal point, as the desk writes them. */
export const DOLLARS: PriceFormat = { column: 'price', decimal: '.' };

/** Whole or decimal digits become a number ("12.5" is then refused as not whole); anything else stays text. */
export function numberCell(raw: string | undefined): number | string | undefined {
  const v = raw?.trim();
  if (v === undefined || v === '') return undefined;
  return /^[+-]?\d+(?:\.\d+)?$/.test(v) ? Number(v) : v;
}

/**
 * A row's price in cents: a dollar amount from `price` ("4.50", "4,50",
 * "$1,234.5", "1.234,50": csv-amounts.ts), or whole cents from `price_cents`.
 * Text that is not an amount stays text, for the rule to refuse (and
 * `issueReasons` to say why).
 */
export function priceCell(cells: Readonly<Record<string, string>>, prices: PriceFormat): number | string | undefined {
  if (prices.column === 'price_cents') return numberCell(cells.price_cents);
  const v = cells.price?.trim();
  if (v === undefined || v === '') return undefined;
  const read = readAmount(v, prices.decimal);
  return 'cents' in read ? read.cents : v;
}

/** "0"/"1" become 0/1; anything else stays text for the rule to refuse. */
export function flagCell(raw: string | undefined): 0 | 1 | string | undefined {
  const v = raw?.trim();
  if (v === undefined || v === '') return undefined;
  return v === '0' ? 0 : v === '1' ? 1 : v;
}

/** IDs, SKUs, game and account: trimmed text, never a number. */
export function idCell(raw: string | undefined): string | undefined {
  const v = raw?.trim();
  return v === undefined || v === '' ? undefined : v;
}

/** Notes are kept exactly as written (spaces included). */
export function textCell(raw: string | undefined): string | undefined {
  return raw === undefined || raw === '' ? undefined : raw;
}

/** The CSV column a field of a change or ledger row is read from. */
export function columnOf(field: string, priceColumn: PriceColumn = 'price'): string {
  if (field === 'price') return priceColumn;
  if (field === 'change' || field === '') return 'kind';
  return field;
}

const SCIENTIFIC = /^\d(?:[.,]\d+)?e\+?\d+$/i;

/** The cents rule's words, as a trader reads a price given in dollars. */
const DOLLAR_WORDS: Readonly<Record<string, string>> = {
  'must be a number of cents': 'must be an amount in dollars, e.g. 4.50 (or 4,50 with a decimal comma)',
  'must be a whole number of cents': 'must be an amount in dollars with at most 2 decimals, e.g. 4.50',
  'must be more than 0 cents': 'must be more than 0.00',
};

/**
 * "column: rule" for each issue of a failed parse. An ID a spreadsheet turned
 * into 7.65612E+16 gets a hint, since that is the usual way it happens.
 */
export function issueReasons(issues: readonly z.core.$ZodIssue[], cells: Readonly<Record<string, string>>, prices: PriceFormat = DOLLARS): string[] {
  // One reason per column, the last: 1e20 fails both "whole" (not a safe integer) and "too large", and only the second helps.
  const last = new Map<string, z.core.$ZodIssue>();
  for (const issue of issues) last.set(columnOf(String(issue.path[0] ?? ''), prices.column), issue);
  return [...last.entries()].map(([column, issue]) => {
    const raw = cells[column]?.trim() ?? '';
    if (issue.code === 'invalid_type' && cells[column] === undefined) return `${column}: is required`;
    const hint = SCIENTIFIC.test(raw) ? ' (a spreadsheet turned it into a number; format the column as text)' : '';
    return `${column}: ${column === 'price' ? priceWords(raw, issue.message, prices) : issue.message}${hint}`;
  });
}

/** Why a dollar price was refused: what is wrong with the amount as written, else the rule's words for it. */
function priceWords(raw: string, message: string, prices: PriceFormat): string {
  const read = readAmount(raw, prices.decimal);
  return 'problem' in read ? read.problem : (DOLLAR_WORDS[message] ?? message);
}
