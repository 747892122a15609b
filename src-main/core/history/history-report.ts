import { HISTORY_REFUSALS_SHOWN, type HistoryPeriod, type HistorySummary } from '../../../src-shared/history.ts';
import type { HistoryRangeInput, HistoryReads, PeriodTally, SideTally } from '../store/history-reads.ts';

/**
 * The History screen's figures, computed by SQLite over the kept trades and
 * balance readings (store/history-reads.ts). Days and weeks are the
 * trader's: their bounds are the local midnights of this process's time zone.
 * A trade counts when it left the pending lists (it went through then), and
 * only when the desk could tell it went through (COMPLETED_ENDINGS).
 */

export type HistorySummaryFigures = Omit<HistorySummary, 'stamp'>;

/** Balance points drawn at most: one per slice of the range. */
const BALANCE_POINTS = 800;
const TOP_ITEMS = 10;

export function historySummary(reads: HistoryReads, range: HistoryRangeInput): HistorySummaryFigures {
  const totals = reads.completedBySide(range);
  const others = { pending: reads.countEnding(range, ['pending', 'left']), vanished: reads.countEnding(range, ['vanished']) };
  const tally = (rows: readonly SideTally[], side: SideTally['side']) => {
    const row = rows.find((r) => r.side === side);
    return { count: Number(row?.n ?? 0), amount: Number(row?.amount ?? 0) };
  };

  const days = localDays(range.from, range.to);
  const weeks = localWeeks(range.from, range.to);
  const dayRows = grouped(reads, range, days, 1);
  const weekRows = grouped(reads, range, weeks, 7);

  return {
    from: range.from,
    to: range.to,
    account: range.account,
    sales: tally(totals, 'sale'),
    purchases: tally(totals, 'purchase'),
    pending: Number(others.pending ?? 0),
    vanished: Number(others.vanished ?? 0),
    days: periods(days, dayRows),
    weeks: periods(weeks, weekRows),
    balance: balanceSeries(reads, range),
    topItems: topItems(reads, range),
    refused: reads.refusals(range, HISTORY_REFUSALS_SHOWN),
    listingToSale: listingToSale(reads, range),
  };
}

/**
 * Sales and purchases per period, the periods given as the trader's local
 * days (or weeks) with their bounds worked out here, where the time zone's
 * changes are known.
 */
function grouped(reads: HistoryReads, range: HistoryRangeInput, keys: readonly string[], days: number): PeriodTally[] {
  return reads.completedByPeriod(range, keys.map((key) => ({
    key, start: Math.max(localMidnight(key), range.from), end: Math.min(localMidnight(key, days), range.to),
  })));
}

function periods(keys: readonly string[], rows: readonly PeriodTally[]): HistoryPeriod[] {
  const byKey = new Map(keys.map((key) => [key, {
    key, start: localMidnight(key), sales: { count: 0, amount: 0 }, purchases: { count: 0, amount: 0 },
  }]));
  for (const row of rows) {
    const p = byKey.get(row.key);
    if (!p) continue;
    const t = row.side === 'sale' ? p.sales : p.purchases;
    t.count += Number(row.n);
    t.amount += Number(row.amount);
  }
  return [...byKey.values()];
}

function balanceSeries(reads: HistoryReads, range: HistoryRangeInput): HistorySummaryFigures['balance'] {
  const slice = Math.max(1, Math.ceil((range.to - range.from) / BALANCE_POINTS));
  const out: HistorySummaryFigures['balance'] = [];
  for (let start = range.from; start < range.to; start += slice) {
    const row = reads.lastBalance(start, Math.min(range.to, start + slice));
    if (row) out.push({ at: Number(row.at), balance: Number(row.balance), pending: Number(row.pending) });
  }
  return out;
}

function topItems(reads: HistoryReads, range: HistoryRangeInput): HistorySummaryFigures['topItems'] {
  return reads.topItems(range, TOP_ITEMS).map((r) => ({
    sku: r.sku, name: r.name,
    sold: { count: Number(r.sold_n), amount: Number(r.sold_amount) },
    bought: { count: Number(r.bought_n), amount: Number(r.bought_amount) },
  }));
}

function listingToSale(reads: HistoryReads, range: HistoryRangeInput): HistorySummaryFigures['listingToSale'] {
  const stats = reads.saleDurations(range);
  const n = Number(stats.known);
  let median: number | null = null;
  if (n > 0) {
    const middle = reads.saleDurationsAt(range, 2 - (n % 2), Math.floor((n - 1) / 2));
    median = Math.round(middle.reduce((a, d) => a + Number(d), 0) / middle.length);
  }
  const round = (v: number | null) => (v === null ? null : Math.round(Number(v)));
  return { sales: Number(stats.sales), known: n, medianMs: median, averageMs: round(stats.average), shortestMs: round(stats.shortest), longestMs: round(stats.longest) };
}

const pad = (n: number) => String(n).padStart(2, '0');
const dayKey = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** The local midnight of a YYYY-MM-DD day, or of the day `plus` days after it. */
export function localMidnight(key: string, plus = 0): number {
  const [y, m, d] = key.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + plus).getTime();
}

/** Every local day touched by [from, to). */
export function localDays(from: number, to: number): string[] {
  const out: string[] = [];
  const d = new Date(from);
  d.setHours(0, 0, 0, 0);
  while (d.getTime() < to) {
    out.push(dayKey(d));
    d.setDate(d.getDate() + 1);
  }
  return out;
}

/** The Mondays of every week touched by [from, to). */
export function localWeeks(from: number, to: number): string[] {
  const d = new Date(from);
  d.setHours(0, 0, 0, 0);
  d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  const out: string[] = [];
  while (d.getTime() < to) {
    out.push(dayKey(d));
    d.setDate(d.getDate() + 7);
  }
  return out;
}
