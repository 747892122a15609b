import Papa from 'papaparse';
import type { ItemNames } from '../items/item-names.ts';
import { parseCents } from '../../../src-shared/money.ts';
import { printable } from '../safe-text.ts';

/**
 * A small CSV of items and amounts, as a trader keeps one in a spreadsheet:
 * a `sku` or `name` column, and amount columns each in dollars ("12.40",
 * "$1,234.5") or, named `<column>_cents`, in whole cents. Used for costs set
 * by CSV and for the trader's own price list. Every refused line says which
 * line and which cell; the good lines are read all the same.
 */

export interface AmountRow {
  readonly line: number;
  readonly sku: string;
  /** Each amount column asked for, in cents (absent when the cell is empty). */
  readonly amounts: Readonly<Record<string, number>>;
  /** Whole numbers of the other columns asked for (a quantity). */
  readonly counts: Readonly<Record<string, number>>;
  /** The line's cells as the file has them, for showing what was read. */
  readonly cells: Readonly<Record<string, string>>;
}

export interface AmountTable {
  readonly rows: readonly AmountRow[];
  readonly errors: readonly { readonly line: number; readonly reason: string }[];
}

export type NameToSku = (name: string) => { ok: true; sku: string } | { ok: false; message: string };

/** Names to SKUs by the game's item names, for a table that names its items; null without them. */
export function nameToSkuOf(names: Pick<ItemNames, 'skuForName'> | null): NameToSku | null {
  if (names === null) return null;
  return (name) => {
    const found = names.skuForName(name);
    return found.ok ? { ok: true, sku: found.sku } : { ok: false, message: found.message };
  };
}

/** Lines read at most: a price list of every item of the game fits many times over. */
export const MAX_LINES = 200_000;

export function readAmountTable(text: string, spec: { amounts: readonly string[]; counts?: readonly string[]; skuForName?: NameToSku | null }): AmountTable {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
    header: true, skipEmptyLines: 'greedy', transformHeader: (h) => h.trim().toLowerCase().replace(/\s+/g, '_'),
  });
  const fields = parsed.meta.fields ?? [];
  const errors: { line: number; reason: string }[] = [];
  const hasColumn = (c: string) => fields.includes(c) || fields.includes(`${c}_cents`);
  if (!fields.includes('sku') && !fields.includes('name')) return { rows: [], errors: [{ line: 1, reason: 'the header names no `sku` or `name` column' }] };
  const missing = spec.amounts.filter((c) => !hasColumn(c));
  if (missing.length === spec.amounts.length) return { rows: [], errors: [{ line: 1, reason: `the header names none of ${spec.amounts.map((c) => `\`${c}\``).join(', ')}` }] };
  const rows: AmountRow[] = [];
  parsed.data.slice(0, MAX_LINES).forEach((cells, i) => {
    const line = i + 2;
    const why: string[] = [];
    const sku = skuOf(cells, spec.skuForName ?? null, why);
    const amounts: Record<string, number> = {};
    for (const c of spec.amounts) {
      const cents = amountOf(cells, c, why);
      if (cents !== undefined) amounts[c] = cents;
    }
    const counts: Record<string, number> = {};
    for (const c of spec.counts ?? []) {
      const raw = cells[c]?.trim();
      if (raw === undefined || raw === '') continue;
      if (/^\d{1,7}$/.test(raw)) counts[c] = Number(raw);
      else why.push(`${c} “${printable(raw, 20)}” is not a whole number`);
    }
    if (why.length === 0 && Object.keys(amounts).length === 0) why.push(`no amount in ${spec.amounts.join(' or ')}`);
    if (why.length > 0 || sku === null) errors.push({ line, reason: why.join('; ') || 'no item' });
    else rows.push({ line, sku, amounts, counts, cells });
  });
  if (parsed.data.length > MAX_LINES) errors.push({ line: MAX_LINES + 2, reason: `only the first ${MAX_LINES} lines are read` });
  return { rows, errors };
}

function skuOf(cells: Readonly<Record<string, string>>, skuForName: NameToSku | null, why: string[]): string | null {
  const sku = cells.sku?.trim() ?? '';
  if (sku !== '') {
    if (/^\d{1,9};\d{1,4}(;[a-z0-9-]{1,24})*$/.test(sku)) return sku;
    why.push(`sku “${printable(sku, 40)}” is not a SKU`);
    return null;
  }
  const name = cells.name?.trim() ?? '';
  if (name === '') {
    why.push('no sku or name');
    return null;
  }
  if (skuForName === null) {
    why.push('names cannot be read here: give the sku');
    return null;
  }
  const found = skuForName(name);
  if (found.ok) return found.sku;
  why.push(`name “${printable(name, 60)}”: ${found.message}`);
  return null;
}

function amountOf(cells: Readonly<Record<string, string>>, column: string, why: string[]): number | undefined {
  const cents = cells[`${column}_cents`]?.trim();
  if (cents !== undefined && cents !== '') {
    if (/^\d{1,12}$/.test(cents)) return Number(cents);
    why.push(`${column}_cents “${printable(cents, 20)}” is not whole cents`);
    return undefined;
  }
  const dollars = cells[column]?.trim();
  if (dollars === undefined || dollars === '') return undefined;
  const value = parseCents(dollars);
  if (value === null || value < 0) {
    why.push(`${column} “${printable(dollars, 20)}” is not an amount`);
    return undefined;
  }
  return value;
}
