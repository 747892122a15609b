import { describe, expect, it } from 'vitest';
import { balanceRefusal, tradeRefusal } from '../../../src-main/core/history/trade-bounds.ts';
import { marketTrade } from '../trades/fixtures.ts';

/** The bounds History holds the service's numbers and times to, field by field. */

const NOW = Date.UTC(2025, 0, 6, 9);
const trade = marketTrade('1', 'Action Required');
const item = (changes: Record<string, number>) => ({ ...trade, items: [{ ...trade.items[0], ...changes } as (typeof trade.items)[number]] });

describe('the bounds on a trade', () => {
  it('keeps a trade whose every number and time is in them', () => {
    expect(tradeRefusal(trade, NOW)).toBeNull();
    expect(tradeRefusal({ ...trade, total: 0, items: [] }, NOW)).toBeNull();
  });

  it('refuses a total that is negative, beyond $10,000,000 or beyond what a figure can hold, naming the field', () => {
    expect(tradeRefusal({ ...trade, total: -700 }, NOW)).toEqual({ field: 'total', value: '-700', reason: 'is negative' });
    expect(tradeRefusal({ ...trade, total: 1_000_000_001 }, NOW)).toMatchObject({ field: 'total', reason: 'is beyond $10,000,000' });
    expect(tradeRefusal({ ...trade, total: Number.MAX_SAFE_INTEGER }, NOW)).toMatchObject({ field: 'total', value: '9007199254740991' });
    expect(tradeRefusal({ ...trade, total: 2 ** 53 + 2 }, NOW)).toMatchObject({ field: 'total', reason: expect.stringContaining('whole number') });
  });

  it('refuses a timestamp before 2003, or more than a day ahead of the service\'s clock', () => {
    expect(tradeRefusal({ ...trade, timestamp: Date.UTC(2002, 11, 31) / 1000 }, NOW)).toMatchObject({ field: 'timestamp', reason: 'is before 2003' });
    expect(tradeRefusal({ ...trade, timestamp: Number.MAX_SAFE_INTEGER }, NOW)).toMatchObject({ field: 'timestamp', value: '9007199254740991' });
    const ahead = Math.floor((NOW + 86_400_000) / 1000);
    expect(tradeRefusal({ ...trade, timestamp: ahead }, NOW)).toBeNull();
    expect(tradeRefusal({ ...trade, timestamp: ahead + 60 }, NOW)).toMatchObject({ field: 'timestamp', reason: expect.stringContaining('ahead') });
    // The service's clock, not the desk's: a desk clock a day behind still keeps the service's own trades.
    expect(tradeRefusal({ ...trade, timestamp: ahead + 60 }, NOW + 3_600_000)).toBeNull();
  });

  it('refuses an item\'s price or quantity out of bounds, or a line worth more than $10,000,000', () => {
    expect(tradeRefusal(item({ price: -1 }), NOW)).toMatchObject({ field: 'items.0.price', reason: 'is negative' });
    expect(tradeRefusal(item({ price: Number.MAX_SAFE_INTEGER }), NOW)).toMatchObject({ field: 'items.0.price' });
    expect(tradeRefusal(item({ quantity: 0 }), NOW)).toMatchObject({ field: 'items.0.quantity' });
    expect(tradeRefusal(item({ quantity: Number.MAX_SAFE_INTEGER }), NOW)).toMatchObject({ field: 'items.0.quantity' });
    expect(tradeRefusal(item({ quantity: 1_000, price: 1_000_001 }), NOW)).toMatchObject({ field: 'items.0', value: '1000 × 1000001' });
  });
});

describe('the bounds on a balance reading', () => {
  it('keeps any balance within ±$10,000,000, refuses one beyond', () => {
    expect(balanceRefusal({ balance: 0, pending_balance: -500 })).toBeNull();
    expect(balanceRefusal({ balance: Number.MAX_SAFE_INTEGER, pending_balance: 0 })).toMatchObject({ field: 'balance' });
    expect(balanceRefusal({ balance: 5, pending_balance: -1_000_000_001 })).toMatchObject({ field: 'pending_balance' });
  });
});
