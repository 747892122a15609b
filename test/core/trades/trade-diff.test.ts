import { describe, expect, it } from 'vitest';
import { diffTrades, needsAction, tradeKey } from '../../../src-main/core/trades/trade-diff.ts';
import { buyOrderTrade, marketTrade } from './fixtures.ts';

describe('needsAction', () => {
  it('compares the status exactly, per trade type', () => {
    expect(needsAction({ trade_type: 'market', status: 'Action Required' })).toBe(true);
    expect(needsAction({ trade_type: 'market', status: 'Action required' })).toBe(false);
    expect(needsAction({ trade_type: 'market', status: 'Waiting for seller' })).toBe(false);
    expect(needsAction({ trade_type: 'buy_order', status: 'Action required' })).toBe(true);
    expect(needsAction({ trade_type: 'buy_order', status: 'confirmation_required' })).toBe(true);
    expect(needsAction({ trade_type: 'buy_order', status: 'Action Required' })).toBe(false);
    expect(needsAction({ trade_type: 'buy_order', status: 'Waiting for buyer' })).toBe(false);
    expect(needsAction({ trade_type: 'market', status: 'confirmation_required' })).toBe(false);
  });
});

describe('diffTrades', () => {
  it('finds new, changed and gone trades, and which of them need action', () => {
    const seen = new Map([
      ['market:1', 'Waiting for seller'],
      ['market:2', 'Action Required'],
      ['buy_order:1', 'Waiting for buyer'],
    ]);
    const current = [
      marketTrade('2', 'Action Required'), // unchanged: nothing to say
      marketTrade('3', 'Action Required'), // new, needs action
      buyOrderTrade('1', 'confirmation_required'), // changed, needs action
      buyOrderTrade('2', 'Waiting for seller'), // new
    ];
    const diff = diffTrades(seen, current, ['market', 'buy_order']);
    expect(diff.added.map(tradeKey)).toEqual(['market:3', 'buy_order:2']);
    expect(diff.changed.map((c) => [tradeKey(c.trade), c.previousStatus])).toEqual([['buy_order:1', 'Waiting for buyer']]);
    expect(diff.gone).toEqual([{ key: 'market:1', tradeType: 'market', tradeId: '1', lastStatus: 'Waiting for seller' }]);
    expect(diff.needsAction.map(tradeKey)).toEqual(['market:3', 'buy_order:1']);
    expect([...diff.seen]).toEqual([
      ['market:2', 'Action Required'],
      ['buy_order:1', 'confirmation_required'],
      ['market:3', 'Action Required'],
      ['buy_order:2', 'Waiting for seller'],
    ]);
  });

  it('keeps trades of a list that failed to load', () => {
    const seen = new Map([
      ['market:1', 'Action Required'],
      ['buy_order:9', 'Action required'],
    ]);
    const diff = diffTrades(seen, [], ['market']);
    expect(diff.gone.map((g) => g.key)).toEqual(['market:1']);
    expect(diff.seen.get('buy_order:9')).toBe('Action required');
  });

  it('keeps market and buy-order trades with the same id apart', () => {
    const diff = diffTrades(new Map([['market:7', 'Action Required']]), [buyOrderTrade('7', 'Action required')], ['buy_order']);
    expect(diff.added.map(tradeKey)).toEqual(['buy_order:7']);
    expect(diff.gone).toEqual([]);
  });
});
