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

  it('settles a created order\'s quantity only while the row is still that create, and an edit clears its bounds', () => {
    t = tempStore();
    const { buyOrders } = t.repos;
    buyOrders.upsert({ sku: 'a;1', account: MAIN, price: 100, quantity: 50, quantity_may_be_cut: true });
    const version = t.store.ledgerVersion;
    expect(buyOrders.settleQuantity('a;1', { price: 100, quantity: 50 }, { quantity: 10, mayBeCut: true, atLeast: 6 })).toBe(true);
    expect(buyOrders.get('a;1')).toMatchObject({ quantity: 10, quantity_may_be_cut: true, quantity_at_least: 6 });
    expect(t.store.ledgerVersion).toBeGreaterThan(version);
    // No longer the create as recorded (its quantity was settled, or the trader edited it since): left alone.
    expect(buyOrders.settleQuantity('a;1', { price: 100, quantity: 50 }, { quantity: 3, mayBeCut: false, atLeast: null })).toBe(false);
    buyOrders.update('a;1', { price: 100, quantity: 8, active: 1 });
    expect(buyOrders.get('a;1')).toMatchObject({ quantity: 8, quantity_may_be_cut: false, quantity_at_least: null });
    expect(buyOrders.settleQuantity('a;1', { price: 100, quantity: 8 }, { quantity: 3, mayBeCut: false, atLeast: null })).toBe(false);
    expect(buyOrders.settleQuantity('none;1', { price: 100, quantity: 8 }, { quantity: 3, mayBeCut: false, atLeast: null })).toBe(false);
    // A bound above the quantity is refused by the database.
    buyOrders.upsert({ sku: 'a;2', account: MAIN, price: 100, quantity: 5, quantity_may_be_cut: true });
    expect(() => buyOrders.settleQuantity('a;2', { price: 100, quantity: 5 }, { quantity: 4, mayBeCut: true, atLeast: 5 })).toThrow(/CHECK/);
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
