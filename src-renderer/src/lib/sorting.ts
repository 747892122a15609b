/**
 * Sorting for the ledger tables. The key of every row is computed once, then
 * indices are sorted, so 50,000 rows sort without calling an accessor
 * 800,000 times. Equal keys keep their order (the sort is stable).
 */
export type SortDir = 'asc' | 'desc';

export interface SortSpec<K extends string> {
  readonly column: K;
  readonly dir: SortDir;
}

export function sortRows<T>(rows: readonly T[], key: (row: T) => string | number, dir: SortDir): T[] {
  return inOrder(rows, sortOrder(rows, key, dir));
}

/** The indices of `rows` in sorted order: kept, it can order a rebuilt list of the same rows again for free. */
export function sortOrder<T>(rows: readonly T[], key: (row: T) => string | number, dir: SortDir): number[] {
  const keys = rows.map(key);
  const order = rows.map((_, i) => i);
  const sign = dir === 'asc' ? 1 : -1;
  order.sort((a, b) => {
    const ka = keys[a] as string | number;
    const kb = keys[b] as string | number;
    return ka < kb ? -sign : ka > kb ? sign : 0;
  });
  return order;
}

export function inOrder<T>(rows: readonly T[], order: readonly number[]): T[] {
  return order.map((i) => rows[i] as T);
}

/** Clicking a header: a new column sorts ascending, the same column flips. */
export function nextSort<K extends string>(current: SortSpec<K> | null, column: K): SortSpec<K> {
  if (current?.column === column) return { column, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { column, dir: 'asc' };
}
