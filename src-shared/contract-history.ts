import { z } from 'zod';
import { byDesk, channel } from './channel-facts.ts';
import { historyExportInput, historyPage, historyPageQuery, historyRange, historySummary } from './history.ts';
import { profitExportInput, profitQuery, profitReport, profitSku, profitSkuQuery } from './history-profit.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * The contract's channels for History (what sold and what it earned,
 * computed by main for a range and an account): spread into contract.ts,
 * which stays the one description of the bridge.
 */

/** A file's text for the renderer to save, and how many rows it holds. */
export const csvFile = lazySchema(() => z.object({ csv: z.string(), rows: z.number().int() }));

export const historyChannels = {
  'history:summary': channel(historyRange, historySummary, byDesk),
  'history:page': channel(historyPageQuery, historyPage, byDesk),
  /** The trades of a range as a CSV file in the trader's spreadsheet's shape and the screen's time zone. */
  'history:exportCsv': channel(historyExportInput, csvFile, byDesk),
  /** Realized profit per day, week or item, and what is held at the source's prices. */
  'history:profit': channel(profitQuery, profitReport, byDesk),
  /** One SKU's sales against the source's price, and how long each listing took to sell. */
  'history:profitSku': channel(profitSkuQuery, profitSku, byDesk),
  /** The profit table as a CSV file: the same rows. */
  'history:profitCsv': channel(profitExportInput, csvFile, byDesk),
} as const;
