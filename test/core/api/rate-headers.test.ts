import { describe, expect, it } from 'vitest';
import { parseRetryAfterBody, parseRetryAfterHeader, readRateHeaders } from '../../../src-main/core/api/rate-headers.ts';

describe('rate-limit headers', () => {
  it('reads limit, remaining and reset (Unix seconds → ms)', () => {
    expect(
      readRateHeaders({ 'x-ratelimit-limit': '80', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1700000000' }),
    ).toEqual({ limit: 80, remaining: 0, resetAt: 1_700_000_000_000 });
  });

  it('leaves out absent and malformed values instead of guessing', () => {
    expect(readRateHeaders({ 'x-ratelimit-limit': 'eighty', 'x-ratelimit-remaining': '-1' })).toEqual({});
    expect(readRateHeaders({ 'x-ratelimit-limit': ['5', '80'] })).toEqual({ limit: 5 });
  });
});

describe('Retry-After', () => {
  const now = Date.UTC(2030, 5, 1, 0, 0, 0);
  it('reads delta seconds, including fractions', () => {
    expect(parseRetryAfterHeader({ 'retry-after': '12' }, now)).toBe(12_000);
    expect(parseRetryAfterHeader({ 'retry-after': '1.5' }, now)).toBe(1_500);
  });
  it('reads an HTTP-date relative to now, never negative', () => {
    expect(parseRetryAfterHeader({ 'retry-after': new Date(now + 30_000).toUTCString() }, now)).toBe(30_000);
    expect(parseRetryAfterHeader({ 'retry-after': new Date(now - 30_000).toUTCString() }, now)).toBe(0);
  });
  it('ignores garbage', () => {
    expect(parseRetryAfterHeader({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(parseRetryAfterHeader({ 'retry-after': '-5' }, now)).toBeUndefined();
    expect(parseRetryAfterHeader({}, now)).toBeUndefined();
  });
  it('reads retry_after (seconds) of the documented 429 body', () => {
    expect(parseRetryAfterBody({ error: 'Rate limit exceeded', retry_after: 60 })).toBe(60_000);
    expect(parseRetryAfterBody({ error: 'x' })).toBeUndefined();
    expect(parseRetryAfterBody('text')).toBeUndefined();
  });
});
