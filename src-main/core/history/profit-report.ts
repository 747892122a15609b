import { EXPORT_DIALECTS, type CsvExportFormat } from '../../../src-shared/csv-dialect.ts';
import {
  PROFIT_ROWS_MAX, PROFIT_SKU_SALES_MAX, type HeldValue, type ProfitBy, type ProfitReport as ProfitReportView, type ProfitRow, type ProfitSku, type SkuSale,
} from '../../../src-shared/history-profit.ts';
import { dollarsIn, fileText, writeCsv } from '../csv/csv-format.ts';
import type { HistoryRangeInput } from '../store/history-reads.ts';
import type { ProfitReads, ProfitSums, SkuSaleRow } from '../store/profit-reads.ts';
import { localDays, localMidnight, localWeeks } from './history-report.ts';

/**
 * Realized profit for the History screen: what first-in, first-out counted
 * (core/costs/) summed per local day, week or item, less the fee the trader
 * set (a percentage of each unit's price, rounded to the nearest cent per
 * unit: store/profit-reads.ts); units sold at a cost unknown kept apart
 * (their revenue is in no profit); what is held at the source's prices; and
 * one SKU's sales against the source and how long each listing stood. Days
 * and weeks are the trader's, as History's other figures (history-report.ts).
 */

export type ProfitFigures = Omit<ProfitReportView, 'stamp'>;
export type ProfitSkuFigures = Omit<ProfitSku, 'stamp'>;

export interface ProfitSettings {
  /** The marketplace's fee, percent (the pricing settings'). */
  readonly feePercent: number;
  /** The source holdings are valued with (null: none set up). */
  readonly valueSource: string | null;
}

export interface ProfitReport {
  report(range: HistoryRangeInput, by: ProfitBy): ProfitFigures;
  sku(range: HistoryRangeInput, sku: string): ProfitSkuFigures;
  /** The rows of `report` as a CSV file, its periods' keys as the table shows them. */
  csv(range: HistoryRangeInput, by: ProfitBy, format?: CsvExportFormat): { csv: string; rows: number };
}

/** The fee in hundredths of a percent: what the sums count with (a finer percentage is rounded to it). */
export const feeBasisPoints = (feePercent: number): number => Math.round(feePercent * 100);

const sumsOf = (s: ProfitSums) => ({
  units: s.units, revenue: s.revenue, cost: s.cost, fee: s.fee, profit: s.revenue - s.cost - s.fee,
  unknownUnits: s.unknown_units, unknownRevenue: s.unknown_revenue,
});
const NONE: ProfitSums = { units: 0, revenue: 0, cost: 0, fee: 0, unknown_units: 0, unknown_revenue: 0 };

export const PROFIT_CSV_COLUMNS = {
  key: 'day', label: 'item', units: 'units (known cost)', revenue: 'revenue', cost: 'cost (first in, first out)', fee: 'fee',
  profit: 'profit', unknownUnits: 'units at unknown cost', unknownRevenue: 'revenue at unknown cost',
} as const;

export function createProfitReport(reads: ProfitReads, settings: () => ProfitSettings): ProfitReport {
  function periods(range: HistoryRangeInput, by: 'day' | 'week', bp: number): ProfitRow[] {
    const keys = by === 'day' ? localDays(range.from, range.to) : localWeeks(range.from, range.to);
    const days = by === 'day' ? 1 : 7;
    const sums = new Map(reads.byPeriod(range, keys.map((key) => ({
      key, start: Math.max(localMidnight(key), range.from), end: Math.min(localMidnight(key, days), range.to),
    })), bp).map((r) => [r.key, r]));
    return keys.map((key) => ({ key, label: key, start: localMidnight(key), ...sumsOf(sums.get(key) ?? NONE) }));
  }

  function held(sourceId: string | null): HeldValue {
    const h = reads.held(sourceId);
    return {
      sourceId, units: h.units, pricedUnits: h.priced_units, value: h.value, unpricedUnits: h.unpriced_units, cost: h.cost,
      oldestPricedAt: h.oldest, readAt: sourceId === null ? null : reads.sourceReadAt(sourceId),
    };
  }

  function report(range: HistoryRangeInput, by: ProfitBy): ProfitFigures {
    const s = settings();
    const bp = feeBasisPoints(s.feePercent);
    let rows: ProfitRow[];
    let more = 0;
    if (by === 'item') {
      const items = reads.byItem(range, bp, PROFIT_ROWS_MAX);
      rows = items.rows.map((r) => ({ key: r.sku, label: r.name, start: null, ...sumsOf(r) }));
      more = items.count - rows.length;
    } else {
      rows = periods(range, by, bp);
    }
    return { by, feePercent: bp / 100, rows, more, totals: sumsOf(reads.totals(range, bp)), held: held(s.valueSource) };
  }

  return {
    report,
    sku(range, sku) {
      const { rows, count } = reads.skuSales(range, sku, PROFIT_SKU_SALES_MAX);
      const sales = rows.map(saleOf);
      return {
        sku, name: reads.nameOf(sku) ?? sku, sales, total: count,
        under: speedOf(sales.filter((x) => x.vsSourcePercent !== null && x.vsSourcePercent < 0)),
        atOrOver: speedOf(sales.filter((x) => x.vsSourcePercent !== null && x.vsSourcePercent >= 0)),
      };
    },
    csv(range, by, format = 'comma') {
      const shape = EXPORT_DIALECTS[format];
      const { rows } = report(range, by);
      const money = (c: number) => dollarsIn(shape, c);
      const keys = (Object.keys(PROFIT_CSV_COLUMNS) as (keyof typeof PROFIT_CSV_COLUMNS)[]).filter((k) => by === 'item' || k !== 'label');
      const header = keys.map((k) => (k !== 'key' ? PROFIT_CSV_COLUMNS[k] : by === 'item' ? 'sku' : by === 'week' ? 'week of (Monday)' : 'day'));
      const out = rows.map((r) => ({
        key: r.key, label: r.label, units: r.units, revenue: money(r.revenue), cost: money(r.cost), fee: money(r.fee),
        profit: money(r.profit), unknownUnits: r.unknownUnits, unknownRevenue: money(r.unknownRevenue),
      }));
      return { csv: fileText([writeCsv(keys, out, shape, header)]), rows: out.length };
    },
  };
}

function saleOf(r: SkuSaleRow): SkuSale {
  const vs = r.source_price === null || r.source_price <= 0 ? null : Math.round(((r.unit_price - r.source_price) / r.source_price) * 1000) / 10;
  return {
    tradeType: r.trade_type, tradeId: r.trade_id, at: r.sold_at, quantity: r.quantity, price: r.unit_price, sourcePrice: r.source_price,
    vsSourcePercent: vs, listingMs: r.listing_ms, unitCost: r.cost === null ? null : Math.round(r.cost / r.quantity),
  };
}

/** How many sales, how many with a known listing time, and its median. */
function speedOf(sales: readonly SkuSale[]): { sales: number; known: number; medianMs: number | null } {
  const times = sales.flatMap((x) => (x.listingMs === null ? [] : [x.listingMs])).sort((a, b) => a - b);
  const n = times.length;
  const median = n === 0 ? null : Math.round(((times[Math.floor((n - 1) / 2)] ?? 0) + (times[Math.floor(n / 2)] ?? 0)) / 2);
  return { sales: sales.length, known: n, medianMs: median };
}
