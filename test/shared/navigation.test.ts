import { describe, expect, it } from 'vitest';
import { navigationHash, tradeIdFromHash } from '../../src-shared/navigation.ts';

describe('where a page starts', () => {
  it('names the screen, and the trade to show when there is one', () => {
    expect(navigationHash({ view: 'listings' })).toBe('#/listings');
    expect(navigationHash({ view: 'trades', tradeId: '123' })).toBe('#/trades?trade=123');
    expect(tradeIdFromHash('#/trades?trade=123')).toBe('123');
  });

  it('carries only a trade ID of the service’s form', () => {
    expect(navigationHash({ view: 'trades', tradeId: '1&x=<b>' })).toBe('#/trades');
    expect(tradeIdFromHash('#/trades?trade=abc')).toBeNull();
    expect(tradeIdFromHash('#/trades')).toBeNull();
    expect(tradeIdFromHash('')).toBeNull();
  });
});
