import { describe, expect, it } from 'vitest';
import { dayKeyOf, historyRangeOf, midnightOf } from '../../../src-renderer/src/lib/history-range.ts';

describe('History ranges', () => {
  const today = new Date(2026, 2, 16, 15, 30);
  const key = (ms: number) => dayKeyOf(new Date(ms));

  it('end with today, included, and start the preset\'s days before', () => {
    const r = historyRangeOf('7d', '', '', today);
    expect([key(r.from), key(r.to)]).toEqual(['2026-03-10', '2026-03-17']);
    expect(new Date(r.to).getHours()).toBe(0);
    const y = historyRangeOf('1y', '', '', today);
    expect(key(y.from)).toBe('2025-03-17');
  });

  it('runs a custom range from its first day to the midnight after its last, and falls back when it is not one', () => {
    const r = historyRangeOf('custom', '2026-01-05', '2026-01-05', today);
    expect([key(r.from), key(r.to)]).toEqual(['2026-01-05', '2026-01-06']);
    expect(historyRangeOf('custom', '2026-02-01', '2026-01-01', today)).toEqual(historyRangeOf('30d', '', '', today));
    expect(midnightOf('2026-02-30')).toBeNull();
    expect(midnightOf('yesterday')).toBeNull();
  });
});
