import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { HistoryPeriod, HistoryShow, HistorySummary } from '../../../src-shared/history.ts';
import { COMPLETED_ENDINGS } from '../store/history-repo.ts';

/**
 * The History screen's figures, computed by SQLite over the kept trades and
 * balance readings: a year of trades (10,000) answers in milliseconds (see
 * test/bench/history.ts) and nothing is loaded whole. Days and weeks are the
 * trader's: SQLite's 'localtime' reads the same time zone as the process.
 * A trade counts when it left the pending lists (it went through then), and
 * only when the desk could tell it went through (COMPLETED_ENDINGS).
 */

export interface HistoryRangeInput {
  readonly from: number;
  readonly to: number;
  readonly account: string | null;
}

export type HistorySummaryFigures = Omit<HistorySummary, 'stamp'>;

/** Balance points drawn at most: one per slice of the range. */
const BALANCE_POINTS = 800;
const TOP_ITEMS = 10;
const COMPLETED = `(${COMPLETED_ENDINGS.map((e) => `'${e}'`).join(', ')})`;
const LOCAL = `'unixepoch', 'localtime'`;

/** The WHERE of a range (and account) over trade_history as `h`. */
export function rangeWhere(range: HistoryRangeInput): { sql: string; params: SQLInputValue[] } {
  const params: SQLInputValue[] = [range.from, range.to];
  let sql = 'h.at >= ? AND h.at < ?';
  if (range.account !== null) {
    sql += ' AND h.account = ?';
    params.push(range.account);
  }
  return { sql, params };
}

/** Which endings a table shows. */
export function showWhere(show: HistoryShow): string {
  switch (show) {
    case 'completed': return `h.ending IN ${COMPLETED}`;
    case 'pending': return `h.ending IN ('pending', 'left')`;
    case 'vanished': return `h.ending = 'vanished'`;
    case 'all': return '1';
  }
}

interface PeriodRow { key: string; side: 'sale' | 'purchase'; n: number; amount: number }

export function historySummary(db: DatabaseSync, range: HistoryRangeInput): HistorySummaryFigures {
  const where = rangeWhere(range);
  const totals = db.prepare(`
    SELECT h.side AS side, count(*) AS n, coalesce(sum(h.total), 0) AS amount FROM trade_history h
    WHERE ${where.sql} AND h.ending IN ${COMPLETED} GROUP BY h.side`).all(...where.params) as unknown as PeriodRow[];
  const others = db.prepare(`
    SELECT sum(h.ending IN ('pending', 'left')) AS pending, sum(h.ending = 'vanished') AS vanished
    FROM trade_history h WHERE ${where.sql}`).get(...where.params) as { pending: number | null; vanished: number | null };
  const tally = (rows: readonly PeriodRow[], side: PeriodRow['side']) => {
    const row = rows.find((r) => r.side === side);
    return { count: Number(row?.n ?? 0), amount: Number(row?.amount ?? 0) };
  };

  const grouped = (bucket: string) => db.prepare(`
    SELECT ${bucket} AS key, h.side AS side, count(*) AS n, sum(h.total) AS amount FROM trade_history h
    WHERE ${where.sql} AND h.ending IN ${COMPLETED} GROUP BY key, h.side`).all(...where.params) as unknown as PeriodRow[];
  const dayRows = grouped(`date(h.at / 1000, ${LOCAL})`);
  const weekRows = grouped(`date(h.at / 1000, ${LOCAL}, '-6 days', 'weekday 1')`);

  return {
    from: range.from,
    to: range.to,
    account: range.account,
    sales: tally(totals, 'sale'),
    purchases: tally(totals, 'purchase'),
    pending: Number(others.pending ?? 0),
    vanished: Number(others.vanished ?? 0),
    days: periods(localDays(range.from, range.to), dayRows),
    weeks: periods(localWeeks(range.from, range.to), weekRows),
    balance: balanceSeries(db, range),
    topItems: topItems(db, range),
    listingToSale: listingToSale(db, range),
  };
}

function periods(keys: readonly string[], rows: readonly PeriodRow[]): HistoryPeriod[] {
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

function balanceSeries(db: DatabaseSync, range: HistoryRangeInput): HistorySummaryFigures['balance'] {
  const slice = Math.max(1, Math.ceil((range.to - range.from) / BALANCE_POINTS));
  // SQLite gives the other columns of the row holding the max() of its group: the last reading of each slice.
  const rows = db.prepare(`
    SELECT max(at) AS at, balance, pending_balance AS pending FROM balance_readings
    WHERE at >= ? AND at < ? GROUP BY CAST((at - ?) / ? AS INTEGER) ORDER BY at`).all(range.from, range.to, range.from, slice) as { at: number; balance: number; pending: number }[];
  return rows.map((r) => ({ at: Number(r.at), balance: Number(r.balance), pending: Number(r.pending) }));
}

function topItems(db: DatabaseSync, range: HistoryRangeInput): HistorySummaryFigures['topItems'] {
  const where = rangeWhere(range);
  const rows = db.prepare(`
    SELECT i.sku AS sku, max(i.name) AS name,
      sum(CASE WHEN h.side = 'sale' THEN i.quantity ELSE 0 END) AS sold_n,
      sum(CASE WHEN h.side = 'sale' THEN i.quantity * i.price ELSE 0 END) AS sold_amount,
      sum(CASE WHEN h.side = 'purchase' THEN i.quantity ELSE 0 END) AS bought_n,
      sum(CASE WHEN h.side = 'purchase' THEN i.quantity * i.price ELSE 0 END) AS bought_amount
    FROM trade_history h JOIN trade_history_items i ON i.trade_type = h.trade_type AND i.trade_id = h.trade_id
    WHERE ${where.sql} AND h.ending IN ${COMPLETED}
    GROUP BY i.sku ORDER BY sold_amount + bought_amount DESC, i.sku LIMIT ${TOP_ITEMS}`).all(...where.params) as {
    sku: string; name: string; sold_n: number; sold_amount: number; bought_n: number; bought_amount: number;
  }[];
  return rows.map((r) => ({
    sku: r.sku, name: r.name,
    sold: { count: Number(r.sold_n), amount: Number(r.sold_amount) },
    bought: { count: Number(r.bought_n), amount: Number(r.bought_amount) },
  }));
}

function listingToSale(db: DatabaseSync, range: HistoryRangeInput): HistorySummaryFigures['listingToSale'] {
  const where = rangeWhere(range);
  const sales = `FROM trade_history h WHERE ${where.sql} AND h.side = 'sale' AND h.ending IN ${COMPLETED}`;
  const known = `${sales} AND h.listed_at IS NOT NULL AND h.listed_at <= h.created_at`;
  const stats = db.prepare(`
    SELECT (SELECT count(*) ${sales}) AS sales, count(*) AS known, avg(h.created_at - h.listed_at) AS average,
      min(h.created_at - h.listed_at) AS shortest, max(h.created_at - h.listed_at) AS longest ${known}`)
    .get(...where.params, ...where.params) as { sales: number; known: number; average: number | null; shortest: number | null; longest: number | null };
  const n = Number(stats.known);
  let median: number | null = null;
  if (n > 0) {
    const middle = db.prepare(`SELECT h.created_at - h.listed_at AS d ${known} ORDER BY d LIMIT ? OFFSET ?`)
      .all(...where.params, 2 - (n % 2), Math.floor((n - 1) / 2)) as { d: number }[];
    median = Math.round(middle.reduce((a, r) => a + Number(r.d), 0) / middle.length);
  }
  const round = (v: number | null) => (v === null ? null : Math.round(Number(v)));
  return { sales: Number(stats.sales), known: n, medianMs: median, averageMs: round(stats.average), shortestMs: round(stats.shortest), longestMs: round(stats.longest) };
}

const pad = (n: number) => String(n).padStart(2, '0');
const dayKey = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

function localMidnight(key: string): number {
  const [y, m, d] = key.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1).getTime();
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
