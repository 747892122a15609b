import { describe, expect, it } from 'vitest';
import { formatCents, parseCents } from '../../src-shared/money.ts';

describe('formatCents', () => {
  it('prints whole cents as dollars and cents', () => {
    expect(formatCents(1234)).toBe('$12.34');
    expect(formatCents(5)).toBe('$0.05');
    expect(formatCents(0)).toBe('$0.00');
    expect(formatCents(100)).toBe('$1.00');
  });

  it('groups thousands and keeps the sign in front', () => {
    expect(formatCents(123456789)).toBe('$1,234,567.89');
    expect(formatCents(-1999)).toBe('-$19.99');
  });

  it('stays exact where a float would round', () => {
    expect(formatCents(Number.MAX_SAFE_INTEGER)).toBe('$90,071,992,547,409.91');
  });

  it('refuses anything but a whole number of cents', () => {
    expect(() => formatCents(12.5)).toThrow(RangeError);
    expect(() => formatCents(Number.NaN)).toThrow(RangeError);
  });
});

describe('parseCents', () => {
  it('reads typed amounts into whole cents', () => {
    expect(parseCents('12.34')).toBe(1234);
    expect(parseCents('$1,234.5')).toBe(123450);
    expect(parseCents('7')).toBe(700);
    expect(parseCents('.05')).toBe(5);
    expect(parseCents(' -0.10 ')).toBe(-10);
  });

  it('is the inverse of formatCents', () => {
    for (const cents of [0, 5, 99, 100, 1234, 123456789, -1999]) {
      expect(parseCents(formatCents(cents))).toBe(cents);
    }
  });

  it('refuses what is not an amount, or finer than a cent', () => {
    for (const text of ['', '.', 'abc', '1.234', '1,23.00', '12..3', '1e3', '$']) {
      expect(parseCents(text)).toBeNull();
    }
  });
});
