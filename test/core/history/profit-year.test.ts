import { afterEach, describe, expect, it } from 'vitest';
import { createCostLedger } from '../../../src-main/core/costs/cost-ledger.ts';
import { createProfitReport } from '../../../src-main/core/history/profit-report.ts';
import { createHistoryRepo } from '../../../src-main/core/store/history-repo.ts';
import { createProfitReads } from '../../../src-main/core/store/profit-reads.ts';
import { seedHistoryYear } from '../../support/history-year.ts';
import { tempStore, type TempStore } from '../store/temp-store.ts';

/**
 * Profit over a year of trading (10,000 trades on five SKUs): the day, week
 * and item views agree with each other, and the time each takes is printed
 * (a figure to read, not a bound to flake on).
 */

const DAY = 86_400_000;
let t: TempStore | null = null;
afterEach(() => {
  t?.dispose();
  t = null;
});

describe('profit over a year of trading', () => {
  it('answers per day, week and item, the same totals each way', async () => {
    t = tempStore();
    const end = new Date();
    end.setHours(24, 0, 0, 0);
    seedHistoryYear(createHistoryRepo(t.store), { end: end.getTime(), trades: 10_000, account: '76561198000000001', linked: '76561198000000002' });
    await createCostLedger({ store: t.store }).sync();
    const report = createProfitReport(createProfitReads(t.store.db), () => ({ feePercent: 2.5, valueSource: null }));
    const range = { from: end.getTime() - 365 * DAY, to: end.getTime(), account: null };
    const ms: Record<string, string> = {};
    const timed = <T>(what: string, run: () => T): T => {
      const t0 = performance.now();
      const out = run();
      ms[what] = `${(performance.now() - t0).toFixed(1)} ms`;
      return out;
    };
    const days = timed('per day (365 rows)', () => report.report(range, 'day'));
    const weeks = timed('per week', () => report.report(range, 'week'));
    const items = timed('per item', () => report.report(range, 'item'));
    const sku = timed('one SKU\'s sales (500 newest)', () => report.sku(range, '5021;6'));
    timed('CSV per day', () => report.csv(range, 'day'));
    console.log('profit over a year of 10,000 trades:', ms);
    expect(days.rows).toHaveLength(365);
    expect(days.totals.units).toBeGreaterThan(1_000);
    for (const view of [days, weeks, items]) expect(view.rows.reduce((s, r) => s + r.profit, 0)).toBe(days.totals.profit);
    expect(sku.sales).toHaveLength(500);
  });
});
