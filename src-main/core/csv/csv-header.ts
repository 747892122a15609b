import { echoed, type CsvColumns } from './csv-format.ts';

/** Prices in whole cents, as the previous version exported them: still read, never written. */
export const LEGACY_PRICE = 'price_cents';

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
