import { describe, expect, it } from 'vitest';
import { offsetAndRound, repriceRow, type RowFacts } from '../../../src-main/core/pricing/reprice-price.ts';
import type { RepriceRule } from '../../../src-shared/pricing.ts';

const H = 3_600_000;
const NOW = 1_700_000_000_000;
const rule = (over: Partial<RepriceRule> = {}): RepriceRule => ({
  name: 'r', enabled: true, scope: { by: 'sku', sku: '200;11' }, intent: 'both', source: 'pricedb',
  sides: { listings: 'sell', buyOrders: 'buy' }, offset: { percent: 0, cents: 0 }, rounding: { mode: 'nearest', step: null },
  minCents: null, maxCents: null, floor: null, maxAgeHours: null, maxHeld: null, ...over,
});
const listing = (over: Partial<RowFacts> = {}): RowFacts => ({
  domain: 'listings', price: 1_500, source: { name: 'pricedb', buy: 1_100, sell: 1_240, pricedAt: NOW - H }, cost: 1_095, held: 1, now: NOW, ...over,
});

describe('a rule\'s price for one row', () => {
  it('takes the source\'s side, the offset and the floor, and says so', () => {
    expect(repriceRow(rule({ offset: { percent: -1, cents: 0 }, floor: { marginPercent: 5 } }), listing())).toEqual({
      outcome: 'change', price: 1_228, reason: 'pricedb sell 12.40, −1 %, floor 11.50 from cost 10.95 + 5 %',
    });
  });

  it('rounds onto the grid exactly, after a percent and cents offset, in the mode asked', () => {
    expect(offsetAndRound(1_240, -3, 0, 'nearest', { size: 100, offset: 99 })).toBe(1_199);
    expect(offsetAndRound(1_240, -3, 0, 'up', { size: 100, offset: 99 })).toBe(1_299);
    expect(offsetAndRound(1_240, 0, 5, 'down', { size: 10, offset: 9 })).toBe(1_239);
    expect(offsetAndRound(1_240, 0, -41, 'nearest', { size: 100, offset: 99 })).toBe(1_199);
    expect(offsetAndRound(1_001, 10, 0, 'nearest', null)).toBe(1_101);
  });

  it('raises a price under the floor to the floor (on the grid), and holds a row whose floor cannot be known or kept', () => {
    const r = rule({ offset: { percent: -30, cents: 0 }, rounding: { mode: 'nearest', step: { size: 100, offset: 99 } }, floor: { marginPercent: 5 } });
    expect(repriceRow(r, listing())).toEqual({ outcome: 'change', price: 1_199, reason: 'pricedb sell 12.40, −30 %, round to x.99, under its floor 11.50 from cost 10.95 + 5 %: 11.99' });
    expect(repriceRow(r, listing({ cost: null }))).toEqual({ outcome: 'held', reason: 'pricedb sell 12.40, −30 %, round to x.99; no cost known for its floor (cost + 5 %): set one' });
    expect(repriceRow({ ...r, maxCents: 1_000 }, listing()).outcome).toBe('held');
  });

  it('holds a row with no source price or a price older than the rule allows, and leaves a price already so', () => {
    expect(repriceRow(rule(), listing({ source: null }))).toEqual({ outcome: 'held', reason: 'pricedb has no sell price for it' });
    expect(repriceRow(rule(), listing({ source: { name: 'pricedb', buy: 1, sell: null, pricedAt: NOW } }))).toEqual({ outcome: 'held', reason: 'pricedb has no sell price for it' });
    expect(repriceRow(rule({ maxAgeHours: 2 }), listing({ source: { name: 'pricedb', buy: 1, sell: 1_240, pricedAt: NOW - 3 * H } })))
      .toEqual({ outcome: 'held', reason: 'pricedb priced it 3 h ago, older than the rule\'s 2 h: it stays' });
    expect(repriceRow(rule({ maxAgeHours: 1 }), listing({ source: { name: 'pricedb', buy: 1, sell: 1_240, pricedAt: NOW - 80 * 60_000 } })))
      .toEqual({ outcome: 'held', reason: 'pricedb priced it 1 h 20 min ago, older than the rule\'s 1 h: it stays' });
    expect(repriceRow(rule(), listing({ price: 1_240 }))).toEqual({ outcome: 'same', reason: 'pricedb sell 12.40' });
  });

  it('keeps to the rule\'s min and max', () => {
    expect(repriceRow(rule({ minCents: 1_300 }), listing())).toMatchObject({ price: 1_300, reason: 'pricedb sell 12.40, raised to the rule\'s min 13.00' });
    expect(repriceRow(rule({ maxCents: 1_000 }), listing())).toMatchObject({ price: 1_000, reason: 'pricedb sell 12.40, cut to the rule\'s max 10.00' });
  });

  it('prices a buy order from the buy side and stops buying at the stock limit', () => {
    const order = (held: number, quantity = 5, active: 0 | 1 = 1) => listing({ domain: 'buyOrders', price: 1_000, quantity, active, held });
    expect(repriceRow(rule({ maxHeld: 6 }), order(2))).toEqual({ outcome: 'change', price: 1_100, quantity: 4, reason: 'pricedb buy 11.00, holds 2, stop at 6: buys 4' });
    expect(repriceRow(rule({ maxHeld: 6 }), order(6))).toEqual({ outcome: 'change', price: 1_100, active: 0, reason: 'pricedb buy 11.00, holds 6, stop at 6: paused' });
    expect(repriceRow(rule({ maxHeld: 6 }), listing({ domain: 'buyOrders', price: 1_100, quantity: 5, active: 1, held: 0 }))).toMatchObject({ outcome: 'same' });
    // The floor is a listing's: a buy order's price may be under its cost.
    expect(repriceRow(rule({ floor: { marginPercent: 50 } }), order(0))).toMatchObject({ outcome: 'change', price: 1_100 });
  });
});
