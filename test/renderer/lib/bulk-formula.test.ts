import { describe, expect, it } from 'vitest';
import { scalePrice } from '../../../src-shared/price-formula.ts';
import { allowedQuantity, describeOp, multiplyCents, PRICE_GRIDS, previewBulk, priceAfter } from '../../../src-renderer/src/lib/bulk-formula.ts';

describe('bulk formula preview', () => {
  it('multiplies exactly where a float would not', () => {
    // 115 * 1.15 is 132.24999… in floating point; the exact value is 132.25.
    expect(multiplyCents(115, 115, 'nearest')).toBe(132);
    expect(multiplyCents(1000, 10.1, 'up')).toBe(101);
    expect(multiplyCents(1000, 10.1, 'down')).toBe(101);
    expect(multiplyCents(1999, 95, 'nearest')).toBe(1899);
    expect(multiplyCents(1999, 95, 'up')).toBe(1900);
    expect(multiplyCents(1999, 95, 'down')).toBe(1899);
    expect(multiplyCents(10, 95, 'nearest')).toBe(10); // 9.5 rounds half up
  });

  it('rounds onto a price grid the way the draft does', () => {
    const nine = { size: 10, offset: 9 };
    expect(multiplyCents(1000, 95, 'nearest', nine)).toBe(949);
    expect(multiplyCents(1000, 95, 'up', nine)).toBe(959);
    expect(multiplyCents(1000, 95, 'down', nine)).toBe(949);
    expect(multiplyCents(1234, 100, 'up', { size: 100, offset: 99 })).toBe(1299);
    expect(multiplyCents(1234, 100, 'down', { size: 100, offset: 0 })).toBe(1200);
  });

  it('agrees with the draft’s own rule on every grid and rounding, small prices and huge ones', () => {
    // A seeded walk over prices (1 cent to past 2^53 / 10^8, where doubles stop being exact) and percentages with four decimals.
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let i = 0; i < 3_000; i++) {
      const price = i % 10 === 0 ? Math.floor(next() * 2 ** 48) : Math.floor(next() * 10 ** (1 + Math.floor(next() * 8))) + 1;
      const percent = Math.round(next() * 10_000 * 10_000) / 10_000 || 0.0001;
      for (const grid of PRICE_GRIDS) {
        for (const rounding of ['nearest', 'up', 'down'] as const) {
          expect(multiplyCents(price, percent, rounding, grid.step), `${price} × ${percent}% ${rounding} ${grid.id}`).toBe(scalePrice(price, percent, rounding, grid.step));
        }
      }
    }
  });

  it('gives each operation’s new price, or null when prices are untouched', () => {
    expect(priceAfter(500, { op: 'setPrice', cents: 123 })).toBe(123);
    expect(priceAfter(500, { op: 'addCents', cents: -50 })).toBe(450);
    expect(priceAfter(500, { op: 'multiply', percent: 110, rounding: 'nearest' })).toBe(550);
    expect(priceAfter(500, { op: 'setPromoted', value: 1 })).toBeNull();
  });

  it('previews a selection with samples, range and rows the service would refuse', () => {
    const rows = [
      { key: 'a', price: 100 },
      { key: 'b', price: 30 },
      { key: 'c', price: 900 },
    ];
    const p = previewBulk(rows, { op: 'addCents', cents: -50 }, 2);
    expect(p.count).toBe(3);
    expect(p.refused).toBe(1);
    expect(p.samples).toEqual([
      { key: 'a', before: 100, after: 50 },
      { key: 'b', before: 30, after: -20 },
    ]);
    expect([p.minAfter, p.maxAfter]).toEqual([-20, 850]);
  });

  it('reads back each operation in words, money through the one formatter', () => {
    expect(describeOp({ op: 'addCents', cents: -150 })).toBe('Lower price by $1.50');
    expect(describeOp({ op: 'setPrice', cents: 1234 })).toBe('Set price to $12.34');
    expect(describeOp({ op: 'multiply', percent: 95, rounding: 'down' })).toBe('Price × 95% (rounded down to the cent)');
    expect(describeOp({ op: 'multiply', percent: 95, rounding: 'nearest', step: { size: 100, offset: 99 } })).toBe('Price × 95% (to the nearest price ending in .99)');
    expect(describeOp({ op: 'setActive', value: 0 })).toBe('Pause');
  });

  it('applies the service’s balance rule: floor(balance / price)', () => {
    expect(allowedQuantity(1000, 300)).toBe(3);
    expect(allowedQuantity(299, 300)).toBe(0);
    expect(allowedQuantity(-5, 300)).toBe(0);
    expect(allowedQuantity(1000, 0)).toBe(0);
  });
});
