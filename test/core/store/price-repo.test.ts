import { afterEach, describe, expect, it } from 'vitest';
import { createPriceRepo, type PriceInput } from '../../../src-main/core/store/price-repo.ts';
import { tempStore, type TempStore } from './temp-store.ts';

let t: TempStore;
afterEach(() => t.dispose());

const CONFIG = { kind: 'list', name: 'Mine', url: null, path: 'prices.csv', refreshMinutes: 60, enabled: true } as const;
const price = (sku: string, buy: number | null, sell: number | null): PriceInput => ({ sku, buy, sell, original: '{}', pricedAt: 0 });

describe('price repo: a source price\'s steady level', () => {
  it('follows the source\'s drift, stays while the source stands a jump away however often it is read, and follows again once it is back', () => {
    t = tempStore();
    const repo = createPriceRepo(t.store);
    repo.putSource('mine', CONFIG, 0);
    const read = (at: number, sell: number | null, buy: number | null = 50) => {
      repo.replacePrices('mine', [price('1;6', buy, sell)], at);
      const row = repo.price('mine', '1;6');
      return [row?.sell, row?.steady_sell, row?.buy, row?.steady_buy];
    };
    // First read: the price is its level; a drift moves both.
    expect(read(1, 100)).toEqual([100, 100, 50, 50]);
    expect(read(2, 104)).toEqual([104, 104, 50, 50]);
    // A ×10 jump, then the jumped price drifting read after read: the level stays where the market was.
    expect(read(3, 1_040)).toEqual([1_040, 104, 50, 50]);
    expect(read(4, 1_052)).toEqual([1_052, 104, 50, 50]);
    expect(read(5, 1_031)).toEqual([1_031, 104, 50, 50]);
    // Just under ×5 is a drift; a side the source stops pricing keeps its level.
    expect(read(6, 519, null)).toEqual([519, 519, null, 50]);
    // A fall to a fifth is a jump down.
    expect(read(7, 103)).toEqual([103, 519, 50, 50]);
    expect(read(8, 520)).toEqual([520, 520, 50, 50]);
    // The level is kept on disk across a restart.
    t.reopen();
    expect(createPriceRepo(t.store).price('mine', '1;6')).toMatchObject({ sell: 520, steady_sell: 520 });
  });
});
