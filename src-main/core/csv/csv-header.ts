import type { PriceColumn } from './csv-cells.ts';
import { echoed, type CsvColumns } from './csv-format.ts';

/** Prices in whole cents, as the previous version exported them: still read, never written. */
export const LEGACY_PRICE = 'price_cents';

/** Header names a trader may use for a column, and the column they mean. */
export const HEADER_ALIASES: Readonly<Record<string, string>> = { item: 'name' };

const SEPARATOR_NAMES: Readonly<Record<string, string>> = { ',': 'commas', ';': 'semicolons', '\t': 'tabs' };

/** A header row's cells as the columns they name, and the column its prices are in; or what is wrong with it. */
export function readHeader(cells: readonly string[], columns: CsvColumns): { names: string[]; priceColumn: PriceColumn } | { names: string[]; problem: string } {
  const names = cells.map((c) => c.trim().toLowerCase()).map((name) => HEADER_ALIASES[name] ?? name);
  const problems = headerProblems(names, columns);
  if (problems === null) return { names, priceColumn: names.includes(LEGACY_PRICE) ? 'price_cents' : 'price' };
  // A header of one column holding another separator: the file is read with the wrong one.
  const other = names.length === 1 ? [',', ';', '\t'].find((c) => (names[0] ?? '').includes(c)) : undefined;
  const hint = other === undefined ? '' : ` (the header reads as one column: its cells seem separated by ${SEPARATOR_NAMES[other] ?? other}; choose that separator)`;
  return { names, problem: problems + hint };
}

/** Whether a header's (lower-cased) name is a column of `columns`, under its own name or one of `aliases`. */
export function knownColumn(columns: CsvColumns, aliases: Readonly<Record<string, string>> = {}): (name: string) => boolean {
  return (raw) => {
    const name = aliases[raw] ?? raw;
    return columns.all.includes(name) || (name === LEGACY_PRICE && columns.all.includes('price'));
  };
}

/** What is wrong with a header, then the columns the file should have; null when nothing is. */
export function headerProblems(header: readonly string[], columns: CsvColumns): string | null {
  const known = knownColumn(columns);
  const problems: string[] = [];
  const seen = new Set<string>();
  const unknown: string[] = [];
  header.forEach((name, i) => {
    if (name === '') problems.push(`column ${i + 1} has no name`);
    else if (seen.has(name)) problems.push(`column ${echoed(name)} appears twice`);
    else if (!known(name)) unknown.push(name);
    seen.add(name);
  });
  if (unknown.length > 0) problems.unshift(`unknown ${unknown.length === 1 ? 'column' : 'columns'} ${unknown.slice(0, 5).map(echoed).join(', ')}${unknown.length > 5 ? '…' : ''}`);
  if (seen.has('price') && seen.has(LEGACY_PRICE)) problems.push('give price or price_cents, not both');
  for (const name of columns.required) {
    if (!seen.has(name) && !(name === 'price' && seen.has(LEGACY_PRICE))) problems.push(`missing column ${name}`);
  }
  return problems.length === 0 ? null : `${problems.join(', ')} — ${expectedColumns(columns)}`;
}

/** "expected asset_id, price (dollars, e.g. 4.50), and optionally listing_id, sku, …" */
function expectedColumns(columns: CsvColumns): string {
  const say = (name: string) => (name === 'price' ? 'price (dollars, e.g. 4.50)' : name === 'name' ? 'name (or item)' : name);
  const optional = columns.all.filter((c) => !columns.required.includes(c));
  const required = columns.required.map(say).join(', ');
  return `expected ${required}${optional.length > 0 ? `, and optionally ${optional.map(say).join(', ')}` : ''}`;
}
