import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { z } from 'zod';
import { COMPLETED_ENDINGS } from './history-repo.ts';
import { parseRow, parseRows } from './sql.ts';
import type { HistoryRangeInput, PeriodBounds } from './history-reads.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * What realized profit reads, as SQL over what first-in, first-out counted
 * (cost_uses: each part of a sale taken from one lot, or from none at a
 * cost unknown), the trades they belong to, the lots still holding units,
 * and a source's prices. The fee is counted here per unit sold, in whole
 * cents: `feeBasisPoints` (hundredths of a percent) of the unit price,
 * rounded to the nearest cent with halves up (integer arithmetic, no float).
 */

/** Sums of sale parts: units and revenue of known cost, their cost and fee; units and revenue at a cost unknown. */
export const profitSums = z.object({
  units: z.number(), revenue: z.number(), cost: z.number(), fee: z.number(),
  unknown_units: z.number(), unknown_revenue: z.number(),
});
export type ProfitSums = z.output<typeof profitSums>;

const periodSums = profitSums.extend({ key: z.string() });
const itemSums = lazySchema(() => profitSums.extend({ sku: z.string(), name: z.string() }));
export type ItemSums = z.output<typeof itemSums>;
const held = z.object({
  units: z.number(), priced_units: z.number(), value: z.number(), unpriced_units: z.number(), cost: z.number(), oldest: z.number().nullable(),
});
export type HeldSums = z.output<typeof held>;

/** One sale line of a SKU, with its parts' cost summed (null: some of it unknown). */
export const skuSaleRow = lazySchema(() => z.object({
  trade_type: z.enum(['market', 'buy_order']), trade_id: z.string(), sold_at: z.number(), quantity: z.number(), unit_price: z.number(),
  source_price: z.number().nullable(), listing_ms: z.number().nullable(), cost: z.number().nullable(),
}));
export type SkuSaleRow = z.output<typeof skuSaleRow>;

const DAY_KEY = /^\d{4}-\d{2}-\d{2}$/;
const COMPLETED = `(${COMPLETED_ENDINGS.map((e) => `'${e}'`).join(', ')})`;

/** The sums over sale parts as `u` (a part with no lot is at a cost unknown). */
const SUMS = `
  coalesce(sum(CASE WHEN u.unit_cost IS NOT NULL THEN u.quantity END), 0) AS units,
  coalesce(sum(CASE WHEN u.unit_cost IS NOT NULL THEN u.quantity * u.unit_price END), 0) AS revenue,
  coalesce(sum(u.quantity * u.unit_cost), 0) AS cost,
  coalesce(sum(CASE WHEN u.unit_cost IS NOT NULL THEN u.quantity * ((u.unit_price * CAST(:bp AS INTEGER) + 5000) / 10000) END), 0) AS fee,
  coalesce(sum(CASE WHEN u.unit_cost IS NULL THEN u.quantity END), 0) AS unknown_units,
  coalesce(sum(CASE WHEN u.unit_cost IS NULL THEN u.quantity * u.unit_price END), 0) AS unknown_revenue`;

/** Sale parts of completed trades (the trade as `h`), in a range and account. */
function partsIn(range: HistoryRangeInput): { sql: string; params: Record<string, SQLInputValue> } {
  const account = range.account === null ? '' : ' AND u.account = :account';
  return {
    sql: `FROM cost_uses u CROSS JOIN trade_history h ON h.trade_type = u.trade_type AND h.trade_id = u.trade_id AND h.ending IN ${COMPLETED}
      WHERE u.sold_at >= :from AND u.sold_at < :to${account}`,
    params: { from: range.from, to: range.to, ...(range.account === null ? {} : { account: range.account }) },
  };
}

export interface ProfitReads {
  /** The range's sums. */
  totals(range: HistoryRangeInput, feeBasisPoints: number): ProfitSums;
  /** Sums per period (the trader's days or weeks, bounds worked out by the caller), each one seek on the time index. */
  byPeriod(range: HistoryRangeInput, periods: readonly PeriodBounds[], feeBasisPoints: number): (ProfitSums & { key: string })[];
  /** Sums per SKU, the most revenue (of known cost or not) first, `limit` of them; and how many SKUs sold in all. */
  byItem(range: HistoryRangeInput, feeBasisPoints: number, limit: number): { rows: ItemSums[]; count: number };
  /** Units the lots hold, valued at a source's sell prices (`sourceId` null: none). */
  held(sourceId: string | null): HeldSums;
  /** The sale lines of a SKU, newest first, `limit` of them, and how many there are. */
  skuSales(range: HistoryRangeInput, sku: string, limit: number): { rows: SkuSaleRow[]; count: number };
  /** When a source was last read whole (null: never, or no such source). */
  sourceReadAt(sourceId: string): number | null;
  /** The SKU's name as its trades gave it. */
  nameOf(sku: string): string | null;
}

export function createProfitReads(db: DatabaseSync): ProfitReads {
  const sourceRead = db.prepare('SELECT read_at AS at FROM price_sources WHERE source_id = ?');
  const name = db.prepare('SELECT name FROM trade_history_items WHERE sku = ? LIMIT 1');
  return {
    totals(range, bp) {
      const p = partsIn(range);
      return parseRow('cost_uses', profitSums, db.prepare(`SELECT ${SUMS} ${p.sql}`).get({ ...p.params, bp }));
    },
    byPeriod(range, periods, bp) {
      if (periods.length === 0) return [];
      // Written into the statement: checked to be the day keys and whole numbers the history makes, never input.
      const values = periods.map((x) => {
        if (!DAY_KEY.test(x.key) || !Number.isSafeInteger(x.start) || !Number.isSafeInteger(x.end)) throw new RangeError(`not a period: ${x.key}`);
        return `('${x.key}', ${x.start}, ${x.end})`;
      }).join(', ');
      // Each period one seek on the time index (the periods lie inside the range): CROSS JOIN keeps that order.
      const account: Record<string, SQLInputValue> = range.account === null ? {} : { account: range.account };
      return parseRows('cost_uses', periodSums, db.prepare(`WITH p(key, s, e) AS (VALUES ${values})
        SELECT p.key AS key, ${SUMS} FROM p CROSS JOIN cost_uses u ON u.sold_at >= p.s AND u.sold_at < p.e
        CROSS JOIN trade_history h ON h.trade_type = u.trade_type AND h.trade_id = u.trade_id AND h.ending IN ${COMPLETED}
        ${range.account === null ? '' : 'WHERE u.account = :account'} GROUP BY p.key`).all({ ...account, bp }));
    },
    byItem(range, bp, limit) {
      if (!Number.isSafeInteger(limit)) throw new RangeError(`not a limit: ${limit}`);
      const p = partsIn(range);
      const rows = parseRows('cost_uses', itemSums, db.prepare(`SELECT u.sku AS sku,
          (SELECT i.name FROM trade_history_items i WHERE i.trade_type = u.trade_type AND i.trade_id = u.trade_id AND i.position = u.position) AS name,
          ${SUMS} ${p.sql} GROUP BY u.sku ORDER BY revenue + unknown_revenue DESC, u.sku LIMIT ${limit}`).all({ ...p.params, bp }));
      const count = parseRow('cost_uses', z.object({ n: z.number() }), db.prepare(`SELECT count(DISTINCT u.sku) AS n ${p.sql}`).get(p.params)).n;
      return { rows, count };
    },
    held(sourceId) {
      const sums = parseRow('cost_lots', held, db.prepare(`SELECT coalesce(sum(l.quantity - l.used), 0) AS units,
          coalesce(sum(CASE WHEN s.sell IS NOT NULL THEN l.quantity - l.used END), 0) AS priced_units,
          coalesce(sum((l.quantity - l.used) * s.sell), 0) AS value,
          coalesce(sum(CASE WHEN s.sell IS NULL THEN l.quantity - l.used END), 0) AS unpriced_units,
          coalesce(sum((l.quantity - l.used) * l.unit_cost), 0) AS cost,
          min(CASE WHEN s.sell IS NOT NULL THEN s.priced_at END) AS oldest
        FROM cost_lots l LEFT JOIN source_prices s ON s.source_id = :source AND s.sku = l.sku WHERE l.used < l.quantity`).get({ source: sourceId }));
      return sums;
    },
    skuSales(range, sku, limit) {
      const p = partsIn(range);
      const params = { ...p.params, sku };
      const rows = parseRows('cost_uses', skuSaleRow, db.prepare(`SELECT u.trade_type, u.trade_id, max(u.sold_at) AS sold_at, sum(u.quantity) AS quantity,
          max(u.unit_price) AS unit_price, max(u.source_price) AS source_price,
          CASE WHEN max(h.listed_at) IS NOT NULL AND max(h.listed_at) <= max(h.created_at) THEN max(h.created_at) - max(h.listed_at) END AS listing_ms,
          CASE WHEN count(u.unit_cost) = count(*) THEN sum(u.quantity * u.unit_cost) END AS cost
        ${p.sql} AND u.sku = :sku GROUP BY u.trade_type, u.trade_id, u.position ORDER BY sold_at DESC, u.trade_type, u.trade_id DESC LIMIT ?`)
        .all(params, limit));
      const count = parseRow('cost_uses', z.object({ n: z.number() }), db.prepare(`SELECT count(*) AS n FROM (SELECT 1 ${p.sql} AND u.sku = :sku
        GROUP BY u.trade_type, u.trade_id, u.position)`).get(params)).n;
      return { rows, count };
    },
    nameOf(sku) {
      const row = name.get(sku);
      return row === undefined ? null : parseRow('trade_history_items', z.object({ name: z.string() }), row).name;
    },
    sourceReadAt(id) {
      const row = sourceRead.get(id);
      return row === undefined ? null : parseRow('price_sources', z.object({ at: z.number().nullable() }), row).at;
    },
  };
}
