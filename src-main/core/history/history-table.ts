import type { HistoryRowView, HistoryShow } from '../../../src-shared/history.ts';
import { formatDecimal } from '../../../src-shared/money.ts';
import { writeCsv } from '../csv/csv-format.ts';
import type { HistoryRangeInput, HistoryReads, HistoryTradeRow } from '../store/history-reads.ts';

/**
 * The trades behind the History figures: a page at a time for the table
 * (newest first, as the figures count them), and the same rows as a
 * spreadsheet-safe CSV (the draft export's writer).
 */

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

export function createHistoryTable(reads: Pick<HistoryReads, 'countTrades' | 'trades'>): HistoryTable {
  const items = (r: HistoryTradeRow) => r.items.map(([sku, name, quantity, price]) => ({ sku, name, quantity, price }));

  return {
    page(range, show, offset, limit) {
      const rows = reads.trades(range, show, offset, limit, ITEMS_SHOWN).map((r): HistoryRowView => ({
        key: `${r.trade_type}:${r.trade_id}`,
        tradeType: r.trade_type, tradeId: r.trade_id, side: r.side, account: r.account, partner: r.partner,
        status: r.status, ending: r.ending, total: r.total, items: items(r), itemCount: r.item_count,
        createdAt: r.created_at, leftAt: r.left_at, at: r.at, listedAt: r.listed_at,
      }));
      return { total: reads.countTrades(range, show), rows };
    },
    csv(range, show) {
      const out: Record<string, string | number>[] = [];
      for (let offset = 0; ; offset += CSV_CHUNK) {
        const chunk = reads.trades(range, show, offset, CSV_CHUNK, -1);
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
