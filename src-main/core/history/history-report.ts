import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { HISTORY_REFUSALS_SHOWN, historyRefusal, type HistoryPeriod, type HistoryShow, type HistorySummary } from '../../../src-shared/history.ts';
import { parseRows } from '../store/sql.ts';
import { COMPLETED_ENDINGS } from '../store/history-repo.ts';

/**
 * The History screen's figures, computed by SQLite over the kept trades and
 * balance readings: a year of trades (10,000) answers in milliseconds (see
 * test/bench/history.ts) and nothing is loaded whole. Days and weeks are the
 * trader's: their bounds are the local midnights of this process's time zone.
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
  const countOf = (endings: string) => Number((db.prepare(`SELECT count(*) AS n FROM trade_history h WHERE ${where.sql} AND h.ending IN ${endings}`)
    .get(...where.params) as { n: number }).n);
  const others = { pending: countOf(`('pending', 'left')`), vanished: countOf(`('vanished')`) };
  const tally = (rows: readonly PeriodRow[], side: PeriodRow['side']) => {
    const row = rows.find((r) => r.side === side);
    return { count: Number(row?.n ?? 0), amount: Number(row?.amount ?? 0) };
  };

  const days = localDays(range.from, range.to);
  const weeks = localWeeks(range.from, range.to);
  const dayRows = grouped(db, range, days, 1);
  const weekRows = grouped(db, range, weeks, 7);

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
    balance: balanceSeries(db, range),
    topItems: topItems(db, range),
    refused: refusals(db, range),
    listingToSale: listingToSale(db, range),
  };
}

/** Refusals the desk last read in the range (whatever the account: a refused trade's own account may be the value refused). */
function refusals(db: DatabaseSync, range: HistoryRangeInput): HistorySummaryFigures['refused'] {
  const count = Number((db.prepare('SELECT count(*) AS n FROM history_refusals WHERE last_at >= ? AND last_at < ?').get(range.from, range.to) as { n: number }).n);
  const rows = db.prepare(`SELECT kind, ref, field, value, reason, first_at AS firstAt, last_at AS lastAt, times FROM history_refusals
    WHERE last_at >= ? AND last_at < ? ORDER BY last_at DESC, kind, ref, field LIMIT ${HISTORY_REFUSALS_SHOWN}`).all(range.from, range.to);
  return { count, recent: parseRows('history_refusals', historyRefusal, rows) };
}

/**
 * Sales and purchases per period, the periods given as the trader's local
 * days (or weeks) with their bounds worked out here, where the time zone's
 * changes are known: each period is one seek on the (ending, at) index,
 * instead of converting every trade's time to local time in SQL.
 */
function grouped(db: DatabaseSync, range: HistoryRangeInput, keys: readonly string[], days: number): PeriodRow[] {
  if (keys.length === 0) return [];
  // Numbers and YYYY-MM-DD keys made here, never input: safe to write into the statement.
  const values = keys.map((key) => {
    const start = localMidnight(key);
    const end = localMidnight(key, days);
    return `('${key}', ${Math.max(start, range.from)}, ${Math.min(end, range.to)})`;
  }).join(', ');
  const account = range.account === null ? '' : ' AND h.account = ?';
  return db.prepare(`
    WITH p(key, s, e) AS (VALUES ${values})
    SELECT p.key AS key, h.side AS side, count(*) AS n, sum(h.total) AS amount
    FROM p JOIN trade_history h ON h.ending IN ${COMPLETED} AND h.at >= p.s AND h.at < p.e${account}
    GROUP BY p.key, h.side`).all(...(range.account === null ? [] : [range.account])) as unknown as PeriodRow[];
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
  // The last reading of each slice, found by one seek on the key each: a year of readings is never scanned whole.
  const last = db.prepare('SELECT at, balance, pending_balance AS pending FROM balance_readings WHERE at >= ? AND at < ? ORDER BY at DESC LIMIT 1');
  const out: HistorySummaryFigures['balance'] = [];
  for (let start = range.from; start < range.to; start += slice) {
    const row = last.get(start, Math.min(range.to, start + slice)) as { at: number; balance: number; pending: number } | undefined;
    if (row) out.push({ at: Number(row.at), balance: Number(row.balance), pending: Number(row.pending) });
  }
  return out;
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

/** The local midnight of a YYYY-MM-DD day, or of the day `plus` days after it. */
function localMidnight(key: string, plus = 0): number {
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
