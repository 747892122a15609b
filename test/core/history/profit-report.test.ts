import Papa from 'papaparse';
import { afterEach, describe, expect, it } from 'vitest';
import { createCostLedger } from '../../../src-main/core/costs/cost-ledger.ts';
import { createProfitReport, type ProfitSettings } from '../../../src-main/core/history/profit-report.ts';
import { createPriceRepo } from '../../../src-main/core/store/price-repo.ts';
import { createProfitReads } from '../../../src-main/core/store/profit-reads.ts';
import { tradeWriter } from '../costs/cost-support.ts';
import { tempStore, type TempStore } from '../store/temp-store.ts';

/**
 * The profit report over a real store: what first-in, first-out counted,
 * less the fee per unit (to the nearest cent, halves up), units of unknown
 * cost apart, held units at the source's prices, and one SKU's sales
 * against the source and how long their listings stood.
 */

const KEY = '5021;6';
const HAT = '30998;5;u13';
const MIN = 60_000;
/** Noon of a local day, far from any midnight. */
const T0 = new Date(2026, 2, 10, 12).getTime();
const DAY = 86_400_000;
const range = { from: new Date(2026, 2, 9).getTime(), to: new Date(2026, 2, 16).getTime(), account: null };

const stores: TempStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.dispose();
});

async function setup(settings: ProfitSettings) {
  const t = tempStore();
  stores.push(t);
  const write = tradeWriter(t.store);
  const ledger = createCostLedger({ store: t.store, sourcePrice: (sku) => (sku === KEY ? 200 : null) });
  const report = createProfitReport(createProfitReads(t.store.db), () => settings);
  return { t, write, ledger, report };
}

describe('the profit report', () => {
  it('takes off the first-in, first-out cost and the fee per unit, rounded halves up, and keeps units of unknown cost apart', async () => {
    const { write, ledger, report } = await setup({ feePercent: 2.5, valueSource: null });
    write.trade({ id: 'p1', side: 'purchase', at: T0, items: [{ sku: KEY, quantity: 2, price: 150 }] });
    // 2.5 % of 190 is 4.75: 5 cents a unit. Of 210, 5.25: 5 cents. Of 1 000, 25.
    write.trade({ id: 's1', side: 'sale', at: T0 + MIN, items: [{ sku: KEY, quantity: 1, price: 190 }] });
    write.trade({ id: 's2', side: 'sale', at: T0 + DAY, items: [{ sku: KEY, quantity: 2, price: 210 }, { sku: HAT, quantity: 1, price: 1_000 }] });
    await ledger.sync();

    const days = report.report(range, 'day');
    expect(days.rows.map((r) => r.key)).toEqual(['2026-03-09', '2026-03-10', '2026-03-11', '2026-03-12', '2026-03-13', '2026-03-14', '2026-03-15']);
    expect(days.rows[1]).toMatchObject({ units: 1, revenue: 190, cost: 150, fee: 5, profit: 35, unknownUnits: 0, unknownRevenue: 0 });
    // One key of known cost, one key and the hat at a cost unknown: their revenue is in no profit.
    expect(days.rows[2]).toMatchObject({ units: 1, revenue: 210, cost: 150, fee: 5, profit: 55, unknownUnits: 2, unknownRevenue: 1_210 });
    expect(days.totals).toEqual({ units: 2, revenue: 400, cost: 300, fee: 10, profit: 90, unknownUnits: 2, unknownRevenue: 1_210 });

    // The most sold for first, whether its cost is known or not.
    const items = report.report(range, 'item');
    expect(items.rows.map((r) => [r.key, r.label, r.profit, r.unknownUnits])).toEqual([[HAT, HAT, 0, 1], [KEY, KEY, 90, 1]]);
    expect(report.report(range, 'week').rows.reduce((s, r) => s + r.profit, 0)).toBe(90);
    // One account's sales only.
    expect(report.report({ ...range, account: '76561198000000001' }, 'day').rows[2]?.profit).toBe(55);
    const other = report.report({ ...range, account: '76561198000000002' }, 'day');
    expect(other.rows.every((r) => r.units + r.unknownUnits === 0)).toBe(true);
    expect(other.totals.unknownUnits).toBe(0);
  });

  it('writes a loss in the CSV as a number a spreadsheet reads, not as text', async () => {
    const { write, ledger, report } = await setup({ feePercent: 0, valueSource: null });
    write.trade({ id: 'p1', side: 'purchase', at: T0, items: [{ sku: KEY, quantity: 1, price: 250 }] });
    write.trade({ id: 's1', side: 'sale', at: T0 + MIN, items: [{ sku: KEY, quantity: 1, price: 200 }] });
    await ledger.sync();
    const file = report.csv(range, 'day', 'semicolon');
    const rows = Papa.parse<Record<string, string>>(file.csv.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
    expect(rows.find((r) => r.day === '2026-03-10')).toMatchObject({ profit: '-0,50', revenue: '2,00', 'units (known cost)': '1' });
    expect(file.rows).toBe(7);
  });

  it('values what is held at the source\'s sell prices, counting apart the units it has no price for', async () => {
    const { t, write, ledger, report } = await setup({ feePercent: 0, valueSource: 'list' });
    write.trade({ id: 'p1', side: 'purchase', at: T0, items: [{ sku: KEY, quantity: 3, price: 150 }, { sku: HAT, quantity: 1, price: 9_000 }] });
    write.trade({ id: 's1', side: 'sale', at: T0 + MIN, items: [{ sku: KEY, quantity: 1, price: 190 }] });
    await ledger.sync();
    const prices = createPriceRepo(t.store);
    prices.putSource('list', { kind: 'list', name: 'My list', url: null, path: '/prices.csv', refreshMinutes: 60, enabled: true }, T0);
    prices.replacePrices('list', [{ sku: KEY, buy: 170, sell: 210, original: '2.10', pricedAt: T0 - DAY }], T0 + 2 * MIN);
    expect(report.report(range, 'day').held).toEqual({
      sourceId: 'list', units: 3, pricedUnits: 2, value: 420, unpricedUnits: 1, cost: 9_300, oldestPricedAt: T0 - DAY, readAt: T0 + 2 * MIN,
    });
  });

  it('lists a SKU\'s sales against the source\'s price and how long their listings stood, the fast ones under it apart', async () => {
    const { write, ledger, report } = await setup({ feePercent: 0, valueSource: null });
    write.trade({ id: 's1', side: 'sale', at: T0, items: [{ sku: KEY, quantity: 1, price: 180 }] });
    write.trade({ id: 's2', side: 'sale', at: T0 + MIN, items: [{ sku: KEY, quantity: 2, price: 220 }] });
    write.trade({ id: 's3', side: 'sale', at: T0 + 2 * MIN, items: [{ sku: KEY, quantity: 1, price: 200 }] });
    // The desk made the listings of two of them: an hour and a day before their trades were made.
    write.repo.soldListings('market', 's1', [], T0 - MIN - 3_600_000);
    write.repo.soldListings('market', 's2', [], T0 - DAY);
    await ledger.sync();
    const sku = report.sku(range, KEY);
    expect(sku.sales.map((s) => [s.tradeId, s.quantity, s.price, s.sourcePrice, s.vsSourcePercent, s.listingMs, s.unitCost])).toEqual([
      ['s3', 1, 200, 200, 0, null, null],
      ['s2', 2, 220, 200, 10, DAY, null],
      ['s1', 1, 180, 200, -10, 3_600_000, null],
    ]);
    expect(sku.total).toBe(3);
    expect(sku.under).toEqual({ sales: 1, known: 1, medianMs: 3_600_000 });
    expect(sku.atOrOver).toEqual({ sales: 2, known: 1, medianMs: DAY });
  });
});
