import { describe, expect, it } from 'vitest';
import { formatBadge, formatCount, plural } from '../../../src-renderer/src/lib/words.ts';

/** What Intl's English rules write: the words must read the same without them. */
const intl = new Intl.NumberFormat('en');
const rules = new Intl.PluralRules('en');

describe('counts and plurals', () => {
  const numbers = [0, 1, 2, 7, 12, 999, 1_000, 1_004, 9_999, 10_000, 47_000, 50_000, 123_456, 1_000_000, 12_345_678_901, Number.MAX_SAFE_INTEGER, -1, -1_000, -47_000, -0, 1.5, 0.25, 1234.5678, -2.5, NaN, Infinity];

  it.each(numbers)('writes %d as Intl.NumberFormat(\'en\') does', (n) => {
    expect(formatCount(n)).toBe(intl.format(n));
  });

  it.each(numbers)('puts %d with the word Intl.PluralRules(\'en\') picks', (n) => {
    expect(plural(n, 'listing')).toBe(`${intl.format(n)} ${rules.select(n) === 'one' ? 'listing' : 'listings'}`);
  });

  it('says "1 change" and "2 changes", and takes an irregular plural', () => {
    expect(plural(1, 'change')).toBe('1 change');
    expect(plural(2, 'change')).toBe('2 changes');
    expect(plural(50_000, 'buy order')).toBe('50,000 buy orders');
    expect(plural(3, 'entry', 'entries')).toBe('3 entries');
  });

  it('writes a badge as Intl’s English compact notation does, at every step of the rounding', () => {
    const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
    const edges = [10_000, 12_345, 12_350, 47_000, 99_949, 99_950, 99_999, 100_000, 999_949, 999_950, 999_999, 1_000_000, 1_049_999, 1_050_000, 1_150_000, 1_250_000,
      9_999_999, 999_949_999, 999_950_000, 1e9, 1_150_000_000, 999_950_000_000, 1.5e12, 123_456_789_012_345, 999_999_999_999_999, 1e15, 2 ** 53, 12_345.5, -47_000, NaN];
    let seed = 7;
    const random = Array.from({ length: 2_000 }, () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return Math.floor(10 ** (4 + (seed % 1_000) / 100) + (seed % 997));
    });
    for (const n of [...edges, ...random]) expect([n, formatBadge(n)]).toEqual([n, n < 10_000 ? intl.format(n) : compact.format(n)]);
  });

  it('shows badges exactly up to 9,999, then compact', () => {
    expect(formatBadge(9_999)).toBe('9,999');
    expect(formatBadge(12_000)).toBe('12K');
    expect(formatBadge(1_234_567)).toBe('1.2M');
  });
});
