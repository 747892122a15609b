import { EXPORT_DIALECTS, type CsvExportFormat } from '../../../src-shared/csv-dialect.ts';
import type { HistoryRowView, HistoryShow } from '../../../src-shared/history.ts';
import { ENDING_WORDS, statusWords, tradeKind } from '../../../src-shared/trade-words.ts';
import { dollarsIn, fileText, writeCsv } from '../csv/csv-format.ts';
import type { HistoryRangeInput, HistoryReads, HistoryTradeRow } from '../store/history-reads.ts';
import { localStamp } from './local-time.ts';

/**
 * The trades behind the History figures: a page at a time for the table
 * (newest first, as the figures count them), and the same rows as a
 * spreadsheet-safe CSV (the draft export's writer) in the screen's words:
 * how a trade ended and the status of one still pending as the screen says
 * them, times in the trader's time zone, named in the header.
 */

/** Items a row of the table carries; the CSV carries them all. */
const ITEMS_SHOWN = 10;
/** Rows read at a time while writing the CSV. */
const CSV_CHUNK = 2_000;

/** How the file is written: its shape (separator and decimal mark) and the time zone its times are in; `text`: only trades with an item the search finds. */
export interface HistoryCsvOptions {
  readonly format?: CsvExportFormat;
  /** An IANA time zone ("Europe/Berlin"): the screen's; the desk's own when absent. */
  readonly timeZone?: string | undefined;
  readonly text?: string | undefined;
}

export interface HistoryTable {
  /** `text`: only trades with an item the search finds (store/item-match.ts). */
  page(range: HistoryRangeInput, show: HistoryShow, offset: number, limit: number, text?: string): { total: number; rows: HistoryRowView[] };
  csv(range: HistoryRangeInput, show: HistoryShow, options?: HistoryCsvOptions): { csv: string; rows: number };
}

/** The file's columns, and how its header names them for people (a time's with the zone it is in). */
export const HISTORY_CSV_COLUMNS = {
  when: 'when (zone)', trade: 'trade', trade_id: 'trade id', account: 'account', partner: 'partner', ending: 'ending',
  known_by: 'how the desk knows', status: 'status while pending', amount: 'amount', items: 'items', skus: 'skus',
  item_count: 'item count', made: 'made (zone)', left: 'left the pending lists (zone)', listed: 'listed (zone)',
} as const;

export function createHistoryTable(reads: Pick<HistoryReads, 'countTrades' | 'trades'>): HistoryTable {
  const items = (r: HistoryTradeRow) => r.items.map(([sku, name, quantity, price]) => ({ sku, name, quantity, price }));

  return {
    page(range, show, offset, limit, text) {
      const rows = reads.trades(range, show, offset, limit, ITEMS_SHOWN, text).map((r): HistoryRowView => ({
        key: `${r.trade_type}:${r.trade_id}`,
        tradeType: r.trade_type, tradeId: r.trade_id, side: r.side, account: r.account, partner: r.partner,
        status: r.status, ending: r.ending, total: r.total, items: items(r), itemCount: r.item_count,
        createdAt: r.created_at, leftAt: r.left_at, at: r.at, listedAt: r.listed_at,
      }));
      return { total: reads.countTrades(range, show, text), rows };
    },
    csv(range, show, options = {}) {
      const shape = EXPORT_DIALECTS[options.format ?? 'comma'];
      const zone = options.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
      const at = (ms: number | null) => (ms === null ? '' : localStamp(ms, zone));
      const text = options.text;
      const out: Record<keyof typeof HISTORY_CSV_COLUMNS, string | number>[] = [];
      for (let offset = 0; ; offset += CSV_CHUNK) {
        const chunk = reads.trades(range, show, offset, CSV_CHUNK, -1, text);
        for (const r of chunk) {
          const all = items(r);
          // A trade that left the lists has no status now: the one it last had would read as if it still needed action.
          const pending = r.ending === 'pending' || r.ending === 'left';
          out.push({
            when: at(r.at), trade: tradeKind({ side: r.side, tradeType: r.trade_type }), trade_id: r.trade_id, account: r.account, partner: r.partner,
            ending: ENDING_WORDS[r.ending].label, known_by: ENDING_WORDS[r.ending].explain,
            status: pending ? statusWords(r.status, r.trade_type).label : '', amount: dollarsIn(shape, r.total),
            items: all.map((i) => (i.quantity === 1 ? i.name : `${i.quantity} × ${i.name}`)).join('; '),
            skus: all.map((i) => i.sku).join('; '), item_count: r.item_count,
            made: at(r.created_at), left: at(r.left_at), listed: at(r.listed_at),
          });
        }
        if (chunk.length < CSV_CHUNK) break;
      }
      const keys = Object.keys(HISTORY_CSV_COLUMNS) as (keyof typeof HISTORY_CSV_COLUMNS)[];
      const header = keys.map((k) => HISTORY_CSV_COLUMNS[k].replace('(zone)', `(${zone})`));
      return { csv: fileText([writeCsv(keys, out, shape, header)]), rows: out.length };
    },
  };
}
