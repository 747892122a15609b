import { describe, expect, it } from 'vitest';
import { formatBadge, formatCount, plural } from '../../../src-renderer/src/lib/words.ts';

// The desk writes its numbers out by hand (no Intl on the way to a first screen); each must read
// exactly as Intl's English formatting would.
const counts = new Intl.NumberFormat('en');
const badges = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
const rules = new Intl.PluralRules('en');

/** Whole numbers across every magnitude, with the edges where grouping and rounding turn. */
function samples(): number[] {
  const out = new Set<number>([0, 1, 2, 999, 1000, 1001, 9_999, 10_000, 10_049, 10_050, 99_949, 99_950, 99_999, 100_000, 999_949, 999_950, 999_999, 1_000_000, 1_049_999, 1_050_000, 999_949_999, 999_950_000, 1e9, 1e12, 1.5e12, 999_999_999_999, Number.MAX_SAFE_INTEGER]);
  let seed = 7;
  for (let i = 0; i < 2_000; i++) {
    seed = (seed * 48_271) % 2_147_483_647;
    out.add(Math.floor((seed / 2_147_483_647) * 10 ** (i % 14)));
  }
  return [...out];
}

describe('numbers as the desk prints them', () => {
  it('groups counts as Intl does in English, negatives and fractions included', () => {
    for (const n of [...samples(), -1, -1234, -1_234_567, 1.5, 1234.5678, NaN]) expect(formatCount(n), String(n)).toBe(counts.format(n));
  });

  it('says "1 change" and "2 changes" where Intl\'s English plural rules do', () => {
    for (const n of [0, 1, 2, 1.5, 21, 1000]) {
      expect(plural(n, 'change'), String(n)).toBe(`${counts.format(n)} ${rules.select(n) === 'one' ? 'change' : 'changes'}`);
    }
    expect(plural(2, 'match', 'matches')).toBe('2 matches');
  });

  it('shortens a badge from 10,000 as Intl\'s compact English does, carrying 999,950 to "1M"', () => {
    for (const n of samples()) {
      if (n < 1e15) expect(formatBadge(n), String(n)).toBe(n < 10_000 ? counts.format(n) : badges.format(n));
    }
    expect(formatBadge(47_000)).toBe('47K');
    expect(formatBadge(999_950)).toBe('1M');
  });
});
