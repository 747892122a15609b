import { describe, expect, it } from 'vitest';
import { formatAgo, formatCountdown, formatDuration } from '../../../src-renderer/src/lib/time.ts';

describe('time as read on the desk', () => {
  it('counts down in m:ss and h:mm:ss, never below zero', () => {
    expect(formatCountdown(272_000)).toBe('4:32');
    expect(formatCountdown(3_723_000)).toBe('1:02:03');
    expect(formatCountdown(-5)).toBe('0:00');
  });
  it('says how long ago', () => {
    expect(formatAgo(1000, 3000)).toBe('just now');
    expect(formatAgo(0, 45_000)).toBe('45 s ago');
    expect(formatAgo(0, 185_000)).toBe('3 min ago');
    expect(formatAgo(0, 7_300_000)).toBe('2 h ago');
  });
  it('words an ETA', () => {
    expect(formatDuration(0)).toBe('under a minute');
    expect(formatDuration(30_000)).toBe('under a minute');
    expect(formatDuration(20 * 60_000 + 1)).toBe('about 21 min');
    expect(formatDuration(125 * 60_000)).toBe('about 2 h 05 min');
  });
});
