import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../../src-main/core/desk/desk.ts';
import { createDeskRouter } from '../../../src-main/ipc/routers/desk-router.ts';
import { startSandbox, type Sandbox } from '../../../src-main/sandbox/index.ts';
import { pastProfitByDay } from '../../../src-main/sandbox/state/past-profit.ts';
import type { ProfitRow } from '../../../src-shared/history-profit.ts';
import { call } from '../../support/router-call.ts';
import { memoryKeychain } from '../../support/memory-keychain.ts';
import { deskTestScope } from '../desk/desk-fixture.ts';

/**
 * A simulated month in History's profit: a sandbox profile opens on the
 * simulator's past month (listings sold and buy orders filled on many SKUs,
 * recorded by the desk's own recorder as a watcher polling each minute
 * would have), the desk counts costs first in, first out, the trader sets a
 * fee, and every day's realized profit the router answers equals the one the
 * simulator works out from what it knows went through; the CSV export holds
 * the table's rows.
 */

const { opened, tempDir } = deskTestScope('desk-profit-');
const DAY = 86_400_000;
const FEE_PERCENT = 2.5;

const dayOf = (ms: number) => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** The CSV's data rows, money as cents again. */
function csvRows(csv: string): Record<string, string>[] {
  const parsed = Papa.parse<Record<string, string>>(csv.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true });
  return parsed.data;
}
const cents = (text: string | undefined) => Math.round(Number(text) * 100);

describe('profit over a simulated month', () => {
  it('gives every day the realized profit the simulator works out first in, first out, and exports the table it shows', async () => {
    let sim: Sandbox | null = null;
    const desk = await createDesk({
      dataDir: tempDir(), secrets: memoryKeychain(), version: 'test',
      openSandbox: async (clock) => (sim = await startSandbox({ clock, seed: 21, pastDays: 30, tradeSchedule: false })),
    });
    opened.push(desk);
    const { router } = createDeskRouter(desk, { openLink: () => undefined }, { checkOutputs: true });
    await call(router, 'pricing:updateSettings', { feePercent: FEE_PERCENT });
    const pricing = desk.workspace().pricing;
    if (!pricing) throw new Error('no pricing');
    await pricing.costs.sync();
    const simulator = sim as Sandbox | null;
    const record = simulator?.admin.pastRecord();
    if (!record) throw new Error('no past');

    const now = Date.now();
    const range = { from: new Date(new Date(now - 32 * DAY).setHours(0, 0, 0, 0)).getTime(), to: now + DAY, account: null };
    const truth = pastProfitByDay(record.trades, FEE_PERCENT * 100, dayOf);
    const report = await call(router, 'history:profit', { range, by: 'day' });
    expect(report.feePercent).toBe(FEE_PERCENT);
    const zero = { units: 0, revenue: 0, cost: 0, fee: 0, profit: 0, unknownUnits: 0, unknownRevenue: 0 };
    for (const row of report.rows) {
      const { key, label: _l, start: _s, ...figures } = row;
      expect(figures, key).toEqual(truth.get(key) ?? zero);
    }
    expect([...truth.keys()].filter((k) => !report.rows.some((r) => r.key === k))).toEqual([]);

    // A month of believable trading: sales of known cost most days, some at a cost unknown, a fee on each.
    const t = report.totals;
    const withProfit = report.rows.filter((r) => r.units > 0).length;
    console.log(`a simulated month: ${t.units} units sold at a known cost on ${withProfit} days (revenue ${t.revenue} ¢, cost ${t.cost} ¢, fee ${t.fee} ¢, profit ${t.profit} ¢), ${t.unknownUnits} at a cost unknown`);
    expect(withProfit).toBeGreaterThanOrEqual(10);
    expect(t.unknownUnits).toBeGreaterThan(0);
    expect(t.fee).toBeGreaterThan(0);
    expect(t.profit).toBe(report.rows.reduce((s, r) => s + r.profit, 0));

    // Weeks and items add up to the same totals.
    for (const by of ['week', 'item'] as const) {
      const other = await call(router, 'history:profit', { range, by });
      expect(other.rows.reduce((s, r) => s + r.profit, 0), by).toBe(t.profit);
      expect(other.rows.reduce((s, r) => s + r.unknownUnits, 0), by).toBe(t.unknownUnits);
    }

    // The export holds the table's rows, in its order, for each view.
    for (const by of ['day', 'week', 'item'] as const) {
      const table = by === 'day' ? report : await call(router, 'history:profit', { range, by });
      const file = await call(router, 'history:profitCsv', { range, by });
      const rows = csvRows(file.csv);
      expect(file.rows, by).toBe(table.rows.length);
      const keyColumn = by === 'item' ? 'sku' : by === 'day' ? 'day' : 'week of (Monday)';
      expect(rows.map((r) => ({
        key: r[keyColumn], units: Number(r['units (known cost)']), revenue: cents(r.revenue), cost: cents(r['cost (first in, first out)']),
        fee: cents(r.fee), profit: cents(r.profit), unknownUnits: Number(r['units at unknown cost']), unknownRevenue: cents(r['revenue at unknown cost']),
        ...(by === 'item' ? { label: r.item } : {}),
      })), by).toEqual(table.rows.map(({ key, label, units, revenue, cost, fee, profit, unknownUnits, unknownRevenue }: ProfitRow) => ({
        key, units, revenue, cost, fee, profit, unknownUnits, unknownRevenue, ...(by === 'item' ? { label } : {}),
      })));
    }
  }, 60_000);
});
