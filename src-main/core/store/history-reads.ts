import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { z } from 'zod';
import { historyRefusal, type HistoryShow } from '../../../src-shared/history.ts';
import { COMPLETED_ENDINGS, TRADE_ENDINGS, type TradeEnding } from './history-repo.ts';
import { itemTextSql } from './item-match.ts';
import { jsonColumn, parseRow, parseRows } from './sql.ts';
import type { Params } from './typed-rows.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * What the History screen reads, as SQL over the kept trades, refusals and
 * balance readings (history-repo.ts writes them): a year of trades (10,000)
 * answers in milliseconds (see test/bench/history.ts) and nothing is loaded
 * whole. The periods, the slices and what the figures mean are the
 * history's (core/history/); every row comes back checked.
 */

export interface HistoryRangeInput {
  readonly from: number;
  readonly to: number;
  readonly account: string | null;
}

const inList = (endings: readonly TradeEnding[]) => `(${endings.map((e) => `'${e}'`).join(', ')})`;
const COMPLETED = inList(COMPLETED_ENDINGS);

/** The WHERE of a range (and account) over trade_history as `h`. */
function rangeWhere(range: HistoryRangeInput): { sql: string; params: SQLInputValue[] } {
  const params: SQLInputValue[] = [range.from, range.to];
  let sql = 'h.at >= ? AND h.at < ?';
  if (range.account !== null) {
    sql += ' AND h.account = ?';
    params.push(range.account);
  }
  return { sql, params };
}

/** The item search over a trade (as `h`): one of its items found by it, or the trade's ID or partner as typed (item-match.ts). */
function textWhere(text: string | undefined): { sql: string; params: Params } {
  const part = itemTextSql(text ?? '', { sku: 'i.sku', texts: ['fold(i.name)', 'fold(i.sku)', 'h.trade_id', 'h.partner'] }, 'h_text');
  if (part === null) return { sql: '', params: {} };
  return { sql: ` AND EXISTS (SELECT 1 FROM trade_history_items i WHERE i.trade_type = h.trade_type AND i.trade_id = h.trade_id AND ${part.sql})`, params: part.params };
}

/** Which endings a table shows. */
function showWhere(show: HistoryShow): string {
  switch (show) {
    case 'completed': return `h.ending IN ${COMPLETED}`;
    case 'pending': return `h.ending IN ('pending', 'left')`;
    case 'vanished': return `h.ending = 'vanished'`;
    case 'all': return '1';
  }
}

const count = z.object({ n: z.number() });

/**
 * A limit written into the statement: bound as a parameter, SQLite plans the
 * top items' sort without it (twice as slow).
 */
function whole(limit: number): number {
  if (!Number.isSafeInteger(limit)) throw new RangeError(`not a limit: ${limit}`);
  return limit;
}

/** Sales or purchases that went through: how many, and their amount. */
export const sideTally = z.object({ side: z.enum(['sale', 'purchase']), n: z.number(), amount: z.number() });
export type SideTally = z.output<typeof sideTally>;

const periodTally = sideTally.extend({ key: z.string() });
export type PeriodTally = z.output<typeof periodTally>;

/** A local day or week of the trader's, with its bounds (ms) inside the range. */
export interface PeriodBounds {
  readonly key: string;
  readonly start: number;
  readonly end: number;
}
const DAY_KEY = /^\d{4}-\d{2}-\d{2}$/;

const balancePoint = lazySchema(() => z.object({ at: z.number(), balance: z.number(), pending: z.number() }));
export type BalancePoint = z.output<typeof balancePoint>;

const itemTally = lazySchema(() => z.object({
  sku: z.string(), name: z.string(), sold_n: z.number(), sold_amount: z.number(), bought_n: z.number(), bought_amount: z.number(),
}));
export type ItemTally = z.output<typeof itemTally>;

const saleDurations = lazySchema(() => z.object({
  sales: z.number(), known: z.number(), average: z.number().nullable(), shortest: z.number().nullable(), longest: z.number().nullable(),
}));
export type SaleDurations = z.output<typeof saleDurations>;

/** A trade as the History table shows it, with its first items as [sku, name, quantity, price]. */
export const historyTradeRow = lazySchema(() => z.object({
  trade_type: z.enum(['market', 'buy_order']),
  trade_id: z.string(),
  side: z.enum(['sale', 'purchase']),
  account: z.string(),
  partner: z.string(),
  status: z.string(),
  ending: z.enum(TRADE_ENDINGS),
  total: z.number().int(),
  created_at: z.number().int(),
  left_at: z.number().int().nullable(),
  at: z.number().int(),
  listed_at: z.number().int().nullable(),
  item_count: z.number().int(),
  items: jsonColumn(z.array(z.tuple([z.string(), z.string(), z.number().int(), z.number().int()]))),
}));
export type HistoryTradeRow = z.output<typeof historyTradeRow>;

export interface HistoryReads {
  /** Completed trades in the range, per side (a side with none is absent). */
  completedBySide(range: HistoryRangeInput): SideTally[];
  /** Trades in the range with one of these endings. */
  countEnding(range: HistoryRangeInput, endings: readonly TradeEnding[]): number;
  /**
   * Completed trades per period and side, each period one seek on the (ending, at) index,
   * instead of converting every trade's time to local time in SQL.
   */
  completedByPeriod(range: HistoryRangeInput, periods: readonly PeriodBounds[]): PeriodTally[];
  /** Refusals last read in the range (whatever the account), the newest `limit` of them, and how many there are. */
  refusals(range: HistoryRangeInput, limit: number): { count: number; recent: z.output<typeof historyRefusal>[] };
  /** The last balance reading in [from, to), found by one seek on its key; null when none. */
  lastBalance(from: number, to: number): BalancePoint | null;
  /** The items traded most in the range (sold and bought amounts together), `limit` of them. */
  topItems(range: HistoryRangeInput, limit: number): ItemTally[];
  /** Sales in the range, and the time from listing to sale of those whose listing time is known. */
  saleDurations(range: HistoryRangeInput): SaleDurations;
  /** The listing-to-sale times (known ones) in order, `limit` from `offset`: the median's middle. */
  saleDurationsAt(range: HistoryRangeInput, limit: number, offset: number): number[];
  /** Trades of the range a table shows; `text`: only those with an item the search finds (or of that trade ID or partner). */
  countTrades(range: HistoryRangeInput, show: HistoryShow, text?: string): number;
  /** Newest first, `itemsEach` items each (-1: all of them); `text` as for `countTrades`. */
  trades(range: HistoryRangeInput, show: HistoryShow, offset: number, limit: number, itemsEach: number, text?: string): HistoryTradeRow[];
  /** When the desk last created a listing for `target` (its draft key) that went through, at `before` or earlier. */
  lastCreateOf(target: string, before: number): number | null;
}

export function createHistoryReads(db: DatabaseSync): HistoryReads {
  const sales = (range: HistoryRangeInput) => {
    const where = rangeWhere(range);
    const sql = `FROM trade_history h WHERE ${where.sql} AND h.side = 'sale' AND h.ending IN ${COMPLETED}`;
    return { sql, known: `${sql} AND h.listed_at IS NOT NULL AND h.listed_at <= h.created_at`, params: where.params };
  };
  // The last reading of each slice, found by one seek on the key each: a year of readings is never scanned whole.
  const lastReading = db.prepare('SELECT at, balance, pending_balance AS pending FROM balance_readings WHERE at >= ? AND at < ? ORDER BY at DESC LIMIT 1');
  // The activity log keeps each create's targets as JSON; the key is matched whole, quotes included.
  const lastCreate = db.prepare(
    `SELECT max(at) AS at FROM activity_log
      WHERE endpoint = 'create_listing' AND status = 'done' AND at <= ? AND targets LIKE ? ESCAPE '\\'`,
  );
  const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

  return {
    completedBySide(range) {
      const where = rangeWhere(range);
      return parseRows('trade_history', sideTally, db.prepare(`
        SELECT h.side AS side, count(*) AS n, coalesce(sum(h.total), 0) AS amount FROM trade_history h
        WHERE ${where.sql} AND h.ending IN ${COMPLETED} GROUP BY h.side`).all(...where.params));
    },
    countEnding(range, endings) {
      const where = rangeWhere(range);
      return parseRow('trade_history', count, db.prepare(`SELECT count(*) AS n FROM trade_history h WHERE ${where.sql} AND h.ending IN ${inList(endings)}`)
        .get(...where.params)).n;
    },
    completedByPeriod(range, periods) {
      if (periods.length === 0) return [];
      // Written into the statement: checked to be the day keys and whole numbers the history makes, never input.
      const values = periods.map((p) => {
        if (!DAY_KEY.test(p.key) || !Number.isSafeInteger(p.start) || !Number.isSafeInteger(p.end)) throw new RangeError(`not a period: ${p.key}`);
        return `('${p.key}', ${p.start}, ${p.end})`;
      }).join(', ');
      const account = range.account === null ? '' : ' AND h.account = ?';
      return parseRows('trade_history', periodTally, db.prepare(`
        WITH p(key, s, e) AS (VALUES ${values})
        SELECT p.key AS key, h.side AS side, count(*) AS n, sum(h.total) AS amount
        FROM p JOIN trade_history h ON h.ending IN ${COMPLETED} AND h.at >= p.s AND h.at < p.e${account}
        GROUP BY p.key, h.side`).all(...(range.account === null ? [] : [range.account])));
    },
    refusals(range, limit) {
      const n = parseRow('history_refusals', count, db.prepare('SELECT count(*) AS n FROM history_refusals WHERE last_at >= ? AND last_at < ?')
        .get(range.from, range.to)).n;
      const rows = db.prepare(`SELECT kind, ref, field, value, reason, first_at AS firstAt, last_at AS lastAt, times FROM history_refusals
        WHERE last_at >= ? AND last_at < ? ORDER BY last_at DESC, kind, ref, field LIMIT ${whole(limit)}`).all(range.from, range.to);
      return { count: n, recent: parseRows('history_refusals', historyRefusal, rows) };
    },
    lastBalance(from, to) {
      const row = lastReading.get(from, to);
      return row === undefined ? null : parseRow('balance_readings', balancePoint, row);
    },
    topItems(range, limit) {
      const where = rangeWhere(range);
      return parseRows('trade_history_items', itemTally, db.prepare(`
        SELECT i.sku AS sku, max(i.name) AS name,
          sum(CASE WHEN h.side = 'sale' THEN i.quantity ELSE 0 END) AS sold_n,
          sum(CASE WHEN h.side = 'sale' THEN i.quantity * i.price ELSE 0 END) AS sold_amount,
          sum(CASE WHEN h.side = 'purchase' THEN i.quantity ELSE 0 END) AS bought_n,
          sum(CASE WHEN h.side = 'purchase' THEN i.quantity * i.price ELSE 0 END) AS bought_amount
        FROM trade_history h JOIN trade_history_items i ON i.trade_type = h.trade_type AND i.trade_id = h.trade_id
        WHERE ${where.sql} AND h.ending IN ${COMPLETED}
        GROUP BY i.sku ORDER BY sold_amount + bought_amount DESC, i.sku LIMIT ${whole(limit)}`).all(...where.params));
    },
    saleDurations(range) {
      const s = sales(range);
      return parseRow('trade_history', saleDurations, db.prepare(`
        SELECT (SELECT count(*) ${s.sql}) AS sales, count(*) AS known, avg(h.created_at - h.listed_at) AS average,
          min(h.created_at - h.listed_at) AS shortest, max(h.created_at - h.listed_at) AS longest ${s.known}`)
        .get(...s.params, ...s.params));
    },
    saleDurationsAt(range, limit, offset) {
      const s = sales(range);
      return parseRows('trade_history', z.object({ d: z.number() }), db.prepare(`SELECT h.created_at - h.listed_at AS d ${s.known} ORDER BY d LIMIT ? OFFSET ?`)
        .all(...s.params, limit, offset)).map((r) => r.d);
    },
    countTrades(range, show, text) {
      const where = rangeWhere(range);
      const t = textWhere(text);
      return parseRow('trade_history', count, db.prepare(`SELECT count(*) AS n FROM trade_history h WHERE ${where.sql} AND ${showWhere(show)}${t.sql}`)
        .get(t.params, ...where.params)).n;
    },
    trades(range, show, offset, limit, itemsEach, text) {
      const where = rangeWhere(range);
      const t = textWhere(text);
      // Walks the time index (the unary + keeps the planner off the endings index, which would sort).
      return parseRows('trade_history', historyTradeRow, db.prepare(`
        SELECT h.trade_type, h.trade_id, h.side, h.account, h.partner, h.status, h.ending, h.total, h.created_at, h.left_at, h.at, h.listed_at,
          (SELECT count(*) FROM trade_history_items i WHERE i.trade_type = h.trade_type AND i.trade_id = h.trade_id) AS item_count,
          (SELECT json_group_array(json_array(sku, name, quantity, price)) FROM (SELECT sku, name, quantity, price FROM trade_history_items i
            WHERE i.trade_type = h.trade_type AND i.trade_id = h.trade_id ORDER BY position LIMIT ?)) AS items
        FROM trade_history h WHERE ${where.sql} AND ${showWhere(show).replaceAll('h.ending', '+h.ending')}${t.sql}
        ORDER BY h.at DESC, h.trade_type, h.trade_id DESC LIMIT ? OFFSET ?`).all(t.params, itemsEach, ...where.params, limit, offset));
    },
    lastCreateOf(target, before) {
      const row = lastCreate.get(before, `%${escapeLike(JSON.stringify(target))}%`);
      return row === undefined ? null : parseRow('activity_log', z.object({ at: z.number().nullable() }), row).at;
    },
  };
}
