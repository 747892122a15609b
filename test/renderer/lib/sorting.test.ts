import { describe, expect, it } from 'vitest';
import { nextSort, sortRows } from '../../../src-renderer/src/lib/sorting.ts';

describe('sorting', () => {
  const rows = [
    { id: 'a', price: 300 },
    { id: 'b', price: 100 },
    { id: 'c', price: 300 },
    { id: 'd', price: 200 },
  ];

  it('sorts by a key both ways and keeps equal rows in their order', () => {
    expect(sortRows(rows, (r) => r.price, 'asc').map((r) => r.id)).toEqual(['b', 'd', 'a', 'c']);
    expect(sortRows(rows, (r) => r.price, 'desc').map((r) => r.id)).toEqual(['a', 'c', 'd', 'b']);
  });

  it('leaves the input untouched', () => {
    sortRows(rows, (r) => r.price, 'asc');
    expect(rows.map((r) => r.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('a header click sorts ascending, a second flips it', () => {
    const first = nextSort(null, 'price');
    expect(first).toEqual({ column: 'price', dir: 'asc' });
    expect(nextSort(first, 'price')).toEqual({ column: 'price', dir: 'desc' });
    expect(nextSort(first, 'sku')).toEqual({ column: 'sku', dir: 'asc' });
  });

  it('sorts 50,000 rows quickly', () => {
    const many = Array.from({ length: 50_000 }, (_, i) => ({ id: String(i), price: (i * 7919) % 100_000 }));
    const start = performance.now();
    const sorted = sortRows(many, (r) => r.price, 'asc');
    expect(performance.now() - start).toBeLessThan(1000);
    expect(sorted[0]?.price).toBe(0);
  });
});
