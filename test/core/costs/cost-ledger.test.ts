import { afterEach, describe, expect, it } from 'vitest';
import { COST_PART, createCostLedger } from '../../../src-main/core/costs/cost-ledger.ts';
import { tempStore, type TempStore } from '../store/temp-store.ts';
import { tradeWriter } from './cost-support.ts';

const KEY = '5021;6';
const HAT = '30998;5;u13';
const stores: TempStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.dispose();
});
function setup(sourcePrice: (sku: string) => number | null = () => null) {
  const t = tempStore();
  stores.push(t);
  const turns = { n: 0 };
  const ledger = createCostLedger({ store: t.store, sourcePrice, turn: async () => void (turns.n += 1) });
  return { t, ledger, write: tradeWriter(t.store), turns };
}
const uses = (t: TempStore) => t.store.db.prepare('SELECT trade_id, part, quantity, unit_price, unit_cost, source_price FROM cost_uses ORDER BY sold_at, trade_id, position, part').all();

describe('the cost ledger: first in, first out per SKU', () => {
  it('makes each completed purchase line a lot, and a sale takes the oldest units first, the rest at a cost unknown', async () => {
    const { t, ledger, write } = setup((sku) => (sku === KEY ? 180 : null));
    write.trade({ id: 'p1', side: 'purchase', at: 1_000, items: [{ sku: KEY, quantity: 3, price: 100 }] });
    write.trade({ id: 'p2', side: 'purchase', at: 2_000, items: [{ sku: KEY, quantity: 2, price: 150 }, { sku: HAT, quantity: 1, price: 9_000 }] });
    write.trade({ id: 's1', side: 'sale', at: 3_000, items: [{ sku: KEY, quantity: 4, price: 200 }] });
    write.trade({ id: 's2', side: 'sale', at: 4_000, items: [{ sku: KEY, quantity: 2, price: 210 }] });
    // Declined and pending trades carry no cost.
    write.trade({ id: 'p3', side: 'purchase', at: 2_500, items: [{ sku: KEY, quantity: 9, price: 1 }], ending: 'vanished' });
    write.trade({ id: 'p4', side: 'purchase', at: 2_600, items: [{ sku: KEY, quantity: 9, price: 1 }], ending: 'pending' });
    expect(await ledger.sync()).toBe(4);
    expect(uses(t)).toEqual([
      { trade_id: 's1', part: 0, quantity: 3, unit_price: 200, unit_cost: 100, source_price: 180 },
      { trade_id: 's1', part: 1, quantity: 1, unit_price: 200, unit_cost: 150, source_price: 180 },
      { trade_id: 's2', part: 0, quantity: 1, unit_price: 210, unit_cost: 150, source_price: 180 },
      { trade_id: 's2', part: 1, quantity: 1, unit_price: 210, unit_cost: null, source_price: 180 },
    ]);
    expect(ledger.nextCosts([KEY, HAT])).toEqual(new Map([[HAT, { unitCost: 9_000, acquiredAt: 2_000, origin: 'purchase' }]]));
    expect(ledger.heldUnits([KEY, HAT])).toEqual(new Map([[KEY, 0], [HAT, 1]]));
    // Counted once: a second sync finds nothing new.
    expect(await ledger.sync()).toBe(0);
  });

  it('counts a SKU again when a trade of it is decided after later ones were counted', async () => {
    const { t, ledger, write } = setup();
    write.trade({ id: 'p2', side: 'purchase', at: 2_000, items: [{ sku: KEY, quantity: 1, price: 150 }] });
    write.trade({ id: 's1', side: 'sale', at: 3_000, items: [{ sku: KEY, quantity: 1, price: 200 }] });
    await ledger.sync();
    expect(uses(t)).toEqual([{ trade_id: 's1', part: 0, quantity: 1, unit_price: 200, unit_cost: 150, source_price: null }]);
    // An older purchase whose ending came late: the sale took from it (first in).
    write.trade({ id: 'p1', side: 'purchase', at: 1_000, items: [{ sku: KEY, quantity: 1, price: 90 }] });
    // And a sale between: it takes the next lot.
    write.trade({ id: 's0', side: 'sale', at: 2_500, items: [{ sku: KEY, quantity: 1, price: 120 }] });
    await ledger.sync();
    expect(uses(t)).toEqual([
      { trade_id: 's0', part: 0, quantity: 1, unit_price: 120, unit_cost: 90, source_price: null },
      { trade_id: 's1', part: 0, quantity: 1, unit_price: 200, unit_cost: 150, source_price: null },
    ]);
  });

  it('takes a purchase and a sale at the same moment in that order', async () => {
    const { t, ledger, write } = setup();
    write.trade({ id: 'z-sale', side: 'sale', at: 5_000, items: [{ sku: KEY, quantity: 1, price: 200 }] });
    write.trade({ id: 'a-purchase', side: 'purchase', at: 5_000, items: [{ sku: KEY, quantity: 1, price: 100 }] });
    await ledger.sync();
    expect(uses(t)).toEqual([{ trade_id: 'z-sale', part: 0, quantity: 1, unit_price: 200, unit_cost: 100, source_price: null }]);
  });

  it('sells the units given a cost by hand first (they were held before the desk\'s records), and counts again when it changes', async () => {
    const { t, ledger, write } = setup();
    write.trade({ id: 'p1', side: 'purchase', at: 1_000, items: [{ sku: HAT, quantity: 1, price: 9_000 }] });
    write.trade({ id: 's1', side: 'sale', at: 2_000, items: [{ sku: HAT, quantity: 1, price: 12_000 }] });
    await ledger.sync();
    expect(ledger.setManual([{ sku: HAT, unitCost: 7_000, quantity: 1 }])).toBe(1);
    expect(uses(t)).toEqual([{ trade_id: 's1', part: 0, quantity: 1, unit_price: 12_000, unit_cost: 7_000, source_price: null }]);
    expect(ledger.nextCosts([HAT]).get(HAT)).toEqual({ unitCost: 9_000, acquiredAt: 1_000, origin: 'purchase' });
    const before = ledger.version();
    ledger.setManual([{ sku: HAT, unitCost: 0, quantity: 0 }]);
    expect(ledger.version()).toBeGreaterThan(before);
    expect(uses(t)).toEqual([{ trade_id: 's1', part: 0, quantity: 1, unit_price: 12_000, unit_cost: 9_000, source_price: null }]);
  });

  it('counts many trades a part at a time, giving the event loop back between parts', async () => {
    const { ledger, write, turns, t } = setup();
    t.store.transaction(() => {
      for (let i = 0; i < 600; i++) write.trade({ id: `p${String(i).padStart(4, '0')}`, side: 'purchase', at: 1_000 + i, items: [{ sku: KEY, quantity: 1, price: 100 + i }] });
    });
    expect(await ledger.sync()).toBe(600);
    expect(turns.n).toBe(Math.floor(600 / COST_PART));
    expect(ledger.heldUnits([KEY]).get(KEY)).toBe(600);
    expect(ledger.nextCosts([KEY]).get(KEY)?.unitCost).toBe(100);
  });
});
