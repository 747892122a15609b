import { createTestingPinia } from '@pinia/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProfitBy, ProfitReport, ProfitRow, ProfitSku } from '../../../src-shared/history-profit.ts';
import HistoryProfit from '../../../src-renderer/src/components/HistoryProfit.vue';
import { installFakeApi, type FakeApi } from '../fake-api.ts';

const row = (key: string, over: Partial<ProfitRow> = {}): ProfitRow => ({
  key, label: key, start: new Date(`${key}T00:00:00`).getTime(), units: 0, revenue: 0, cost: 0, fee: 0, profit: 0, unknownUnits: 0, unknownRevenue: 0, ...over,
});
const totals = { units: 5, revenue: 1_000, cost: 700, fee: 25, profit: 275, unknownUnits: 2, unknownRevenue: 300 };
const held = { sourceId: 'pricedb', units: 4, pricedUnits: 3, value: 630, unpricedUnits: 1, cost: 500, oldestPricedAt: Date.now() - 7_200_000, readAt: Date.now() };

function reportOf(by: ProfitBy): ProfitReport {
  const rows = by === 'item'
    ? [{ ...row('5021;6', { units: 5, revenue: 1_000, cost: 700, fee: 25, profit: 275 }), label: 'Mann Co. Supply Crate Key', start: null }]
    : [row('2026-03-09'), row('2026-03-10', { units: 3, revenue: 600, cost: 350, fee: 15, profit: 235 }), row('2026-03-11', { units: 2, revenue: 400, cost: 350, fee: 10, profit: 40, unknownUnits: 2, unknownRevenue: 300 })];
  return { stamp: 1, by, feePercent: 2.5, rows, more: 0, totals, held };
}
const sku: ProfitSku = {
  stamp: 1, sku: '5021;6', name: 'Mann Co. Supply Crate Key', total: 2,
  sales: [
    { tradeType: 'market', tradeId: '9', at: Date.now(), quantity: 1, price: 180, sourcePrice: 200, vsSourcePercent: -10, listingMs: 3_600_000, unitCost: 150 },
    { tradeType: 'market', tradeId: '8', at: Date.now() - 60_000, quantity: 1, price: 220, sourcePrice: 200, vsSourcePercent: 10, listingMs: 172_800_000 * 2, unitCost: null },
  ],
  under: { sales: 1, known: 1, medianMs: 3_600_000 }, atOrOver: { sales: 1, known: 1, medianMs: 345_600_000 },
};

describe('History → Profit', () => {
  let fake: FakeApi;
  afterEach(() => fake.uninstall());

  async function mountProfit() {
    fake = installFakeApi({
      'history:profit': ({ by }) => reportOf(by ?? 'day'),
      'history:profitSku': () => sku,
      'history:profitCsv': () => ({ csv: 'day,units\r\n', rows: 3 }),
    });
    const wrapper = mount(HistoryProfit, {
      attachTo: document.body,
      global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })], stubs: { HistoryChart: true } },
    });
    await flushPromises();
    return wrapper;
  }

  it('shows the totals, the fee it counted, what is held at the source\'s prices, and a table per day with a loss marked', async () => {
    const w = await mountProfit();
    expect(w.get('[data-testid=profit-amount]').text()).toBe('$2.75');
    expect(w.text()).toContain('Fee 2.5 % a unit');
    expect(w.get('[data-testid=profit-totals]').text()).toContain('2 units');
    expect(w.get('[data-testid=held-value]').text()).toBe('$6.30');
    expect(w.text()).toContain('1 without a price');
    const cells = w.get('[data-testid=profit-table]').findAll('tbody tr').map((r) => r.findAll('th, td').map((c) => c.text()));
    expect(cells[1]).toEqual(['2026-03-10', '3', '$6.00', '$3.50', '$0.15', '$2.35', '—']);
    expect(cells[2]?.[6]).toBe('2 ($3.00)');
    // The chart's text alternative sums it up.
    expect(w.get('[data-testid=profit-caption]').text()).toContain('Profit on 2 of 3 days, 0 at a loss; the best was 2026-03-10 ($2.35)');
    w.unmount();
  });

  it('switches to items, opens an item\'s sales against the source from the keyboard\'s button, and exports the table', async () => {
    const w = await mountProfit();
    await w.findAll('button').find((b) => b.text() === 'By item')?.trigger('click');
    await flushPromises();
    expect(fake.callsTo('history:profit').at(-1)).toMatchObject({ by: 'item' });
    expect(w.find('[data-testid=profit-caption]').exists()).toBe(false);
    await w.get('[data-testid=profit-table] tbody button').trigger('click');
    await flushPromises();
    const panel = w.get('[data-testid=profit-sku]');
    expect(panel.text()).toContain('10.0 % under');
    expect(panel.text()).toContain('10.0 % over');
    expect(panel.text()).toContain('4.0 days');
    expect(w.get('[data-testid=profit-sku-speed]').text()).toContain('Under the source: 1 sale, median 1 h 00 min');
    expect(fake.callsTo('history:profitSku').at(-1)).toMatchObject({ sku: '5021;6' });

    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    await w.findAll('button').find((b) => b.text() === 'Export profit CSV')?.trigger('click');
    await flushPromises();
    expect(fake.callsTo('history:profitCsv').at(-1)).toMatchObject({ by: 'item' });
    w.unmount();
  });
});
