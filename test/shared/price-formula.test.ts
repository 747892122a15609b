import { describe, expect, it } from 'vitest';
import { scalePrice } from '../../src-shared/price-formula.ts';

/** The rule as written, in BigInt only: what the fast path must always agree with. */
function reference(price: number, percent: number, mode: 'nearest' | 'up' | 'down', size = 1, offset = 0): number {
  const num = BigInt(Math.round(percent * 10_000)) * BigInt(price);
  const big = BigInt(size) * 1_000_000n;
  const y = num - BigInt(offset) * 1_000_000n;
  let k = y / big;
  if (y % big !== 0n && y < 0n) k -= 1n;
  const rem = y - k * big;
  const down = k * BigInt(size) + BigInt(offset);
  const up = rem === 0n ? down : down + BigInt(size);
  return Number(mode === 'down' ? down : mode === 'up' ? up : 2n * rem >= big ? up : down);
}

describe('the bulk price formula', () => {
  it('agrees with exact BigInt arithmetic on 200,000 random prices, percentages, roundings and grids', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const grids = [[1, 0], [10, 9], [100, 99], [100, 0], [25, 5]] as const;
    for (let i = 0; i < 200_000; i++) {
      const price = 1 + Math.floor(rand() * (i % 10 === 0 ? 9e12 : 2_000_000));
      const percent = Math.round(rand() * 30_000_000) / 10_000;
      const mode = (['nearest', 'up', 'down'] as const)[i % 3] as 'nearest' | 'up' | 'down';
      const [size, offset] = grids[i % grids.length] as readonly [number, number];
      expect(scalePrice(price, percent, mode, { size, offset })).toBe(reference(price, percent, mode, size, offset));
    }
  });

  it('stays exact where doubles would not: 1.15 × $1.00 is $1.15, and prices past 2^53 / 1,000,000', () => {
    expect(scalePrice(100, 115, 'nearest')).toBe(115);
    const huge = 9_000_000_000_000;
    expect(scalePrice(huge, 100.0001, 'down')).toBe(reference(huge, 100.0001, 'down'));
  });
});
