import { afterEach, describe, expect, it } from 'vitest';
import { MAIN, tempStore, type TempStore } from './temp-store.ts';

let t: TempStore;
afterEach(() => t.dispose());

describe('buy orders repo', () => {
  it('keeps "quantity may be cut" after a create until an edit confirms the quantity', () => {
    t = tempStore();
    const { buyOrders } = t.repos;
    buyOrders.upsert({ sku: '5021;6', account: MAIN, price: 180, quantity: 10, quantity_may_be_cut: true });
    expect(buyOrders.get('5021;6')).toMatchObject({ quantity: 10, quantity_may_be_cut: true, active: 1, fills_seen: 0 });
    buyOrders.update('5021;6', { price: 190, quantity: 4, active: 0 });
    buyOrders.addFills('5021;6', 2);
    t.reopen();
    expect(t.repos.buyOrders.get('5021;6')).toMatchObject({ price: 190, quantity: 4, active: 0, quantity_may_be_cut: false, fills_seen: 2 });
  });

  it('removes by SKU and all at once', () => {
    t = tempStore();
    const { buyOrders } = t.repos;
    buyOrders.upsertMany([
      { sku: 'a;1', account: MAIN, price: 1, quantity: 1 },
      { sku: 'a;2', account: MAIN, price: 1, quantity: 1 },
      { sku: 'a;3', account: MAIN, price: 1, quantity: 1 },
    ]);
    expect(buyOrders.remove(['a;1'])).toBe(1);
    expect(buyOrders.count()).toBe(2);
    expect(buyOrders.removeAll()).toBe(2);
    expect(buyOrders.all()).toEqual([]);
  });
});
