import type { DatabaseSync } from 'node:sqlite';
import { z } from 'zod';
import type { HistoryRowView, HistoryShow } from '../../../src-shared/history.ts';
import { formatDecimal } from '../../../src-shared/money.ts';
import { writeCsv } from '../csv/csv-format.ts';
import { jsonColumn, parseRows } from '../store/sql.ts';
import { TRADE_ENDINGS } from '../store/history-repo.ts';
import { rangeWhere, showWhere, type HistoryRangeInput } from './history-report.ts';

/**
 * The trades behind the History figures: a page at a time for the table
 * (newest first, as the figures count them), and the same rows as a
 * spreadsheet-safe CSV (the draft export's writer).
 */

const tradeRow = z.object({
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
});

/** Items a row of the table carries; the CSV carries them all. */
const ITEMS_SHOWN = 10;
/** Rows read at a time while writing the CSV. */
const CSV_CHUNK = 2_000;

export interface HistoryTable {
  page(range: HistoryRangeInput, show: HistoryShow, offset: number, limit: number): { total: number; rows: HistoryRowView[] };
  csv(range: HistoryRangeInput, show: HistoryShow): { csv: string; rows: number };
}

export const HISTORY_CSV_COLUMNS = [
  'at', 'trade_id', 'trade_type', 'side', 'account', 'partner', 'status', 'ending', 'total', 'items', 'skus', 'item_count',
  'created_at', 'left_at', 'listed_at',
] as const;

export function createHistoryTable(db: DatabaseSync): HistoryTable {
  const select = (range: HistoryRangeInput, show: HistoryShow) => {
    const where = rangeWhere(range);
    const sql = `FROM trade_history h WHERE ${where.sql} AND ${showWhere(show)}`;
    return {
      count: () => Number((db.prepare(`SELECT count(*) AS n ${sql}`).get(...where.params) as { n: number }).n),
      /** Newest first, walking the time index (the unary + keeps the planner off the endings index, which would sort). */
      rows: (offset: number, limit: number, itemsEach: number) => parseRows('trade_history', tradeRow, db.prepare(`
        SELECT h.trade_type, h.trade_id, h.side, h.account, h.partner, h.status, h.ending, h.total, h.created_at, h.left_at, h.at, h.listed_at,
          (SELECT count(*) FROM trade_history_items i WHERE i.trade_type = h.trade_type AND i.trade_id = h.trade_id) AS item_count,
          (SELECT json_group_array(json_array(sku, name, quantity, price)) FROM (SELECT sku, name, quantity, price FROM trade_history_items i
            WHERE i.trade_type = h.trade_type AND i.trade_id = h.trade_id ORDER BY position LIMIT ?)) AS items
        FROM trade_history h WHERE ${where.sql} AND ${showWhere(show).replaceAll('h.ending', '+h.ending')}
        ORDER BY h.at DESC, h.trade_type, h.trade_id DESC LIMIT ? OFFSET ?`).all(itemsEach, ...where.params, limit, offset)),
    };
  };

  const items = (r: z.output<typeof tradeRow>) => r.items.map(([sku, name, quantity, price]) => ({ sku, name, quantity, price }));

  return {
    page(range, show, offset, limit) {
      const q = select(range, show);
      const rows = q.rows(offset, limit, ITEMS_SHOWN).map((r): HistoryRowView => ({
        key: `${r.trade_type}:${r.trade_id}`,
        tradeType: r.trade_type, tradeId: r.trade_id, side: r.side, account: r.account, partner: r.partner,
        status: r.status, ending: r.ending, total: r.total, items: items(r), itemCount: r.item_count,
        createdAt: r.created_at, leftAt: r.left_at, at: r.at, listedAt: r.listed_at,
      }));
      return { total: q.count(), rows };
    },
    csv(range, show) {
      const q = select(range, show);
      const out: Record<string, string | number>[] = [];
      for (let offset = 0; ; offset += CSV_CHUNK) {
        const chunk = q.rows(offset, CSV_CHUNK, -1);
        for (const r of chunk) {
          const all = items(r);
          out.push({
            at: iso(r.at), trade_id: r.trade_id, trade_type: r.trade_type, side: r.side, account: r.account, partner: r.partner,
            status: r.status, ending: r.ending, total: formatDecimal(r.total),
            items: all.map((i) => (i.quantity === 1 ? i.name : `${i.quantity} × ${i.name}`)).join('; '),
            skus: all.map((i) => i.sku).join('; '), item_count: r.item_count,
            created_at: iso(r.created_at), left_at: r.left_at === null ? '' : iso(r.left_at), listed_at: r.listed_at === null ? '' : iso(r.listed_at),
          });
        }
        if (chunk.length < CSV_CHUNK) break;
      }
      return { csv: writeCsv(HISTORY_CSV_COLUMNS, out), rows: out.length };
    },
  };
}

/** Times in the file: ISO 8601 in UTC, which every spreadsheet reads and no time zone bends. */
const iso = (ms: number) => new Date(ms).toISOString();
