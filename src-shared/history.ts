import { z } from 'zod';
import { csvExportFormat } from './csv-dialect.ts';
import { stamp } from './ledger.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * The History screen as main answers it: for a date range and an account,
 * the sales and purchases per day and week, the balance over time, the top
 * items, how long listings took to sell, and the trades behind every figure,
 * a page at a time. Main computes every figure with SQL over the trades the
 * watcher kept; the screen only draws them.
 */

/** The longest range one question may cover: two years of days. */
export const HISTORY_MAX_RANGE_MS = 731 * 86_400_000;

const when = lazySchema(() => z.number().int().min(0).max(8_640_000_000_000_000));
const accountId = z.string().regex(/^\d{1,20}$/);

export const historyRange = lazySchema(() => z.strictObject({
  /** Start of the range, ms, inclusive (the trader's local midnight). */
  from: when,
  /** End of the range, ms, exclusive. */
  to: when,
  /** One account's trades; null: every account. The balance is the key's, whatever the account. */
  account: accountId.nullable().default(null),
}).refine((r) => r.to > r.from, { message: 'the range ends before it starts', path: ['to'] })
  .refine((r) => r.to - r.from <= HISTORY_MAX_RANGE_MS, { message: 'a range covers two years at most', path: ['to'] }));
export type HistoryRange = z.input<typeof historyRange>;

/** How a trade ended, as the desk could tell (see core/history/trade-recorder.ts). */
export const tradeEnding = z.enum(['pending', 'left', 'balance_moved', 'listing_sold', 'vanished']);
export type TradeEnding = z.infer<typeof tradeEnding>;

/** Which trades the table lists: those in the figures (completed), or others. */
export const historyShow = z.enum(['completed', 'all', 'pending', 'vanished']);
export type HistoryShow = z.infer<typeof historyShow>;

const tally = lazySchema(() => z.object({ count: z.number().int(), amount: z.number().int() }));
const period = lazySchema(() => z.object({
  /** The day (YYYY-MM-DD) or the Monday the week starts on, in the trader's time zone. */
  key: z.string(),
  /** Its local midnight, ms. */
  start: z.number().int(),
  sales: tally,
  purchases: tally,
}));
export type HistoryPeriod = z.infer<typeof period>;

/** What the service said that History refused to keep: a trade's or the balance's field out of bounds, with why. */
export const historyRefusal = lazySchema(() => z.object({
  /** The trade's type, or `balance` for a balance reading. */
  kind: z.enum(['market', 'buy_order', 'balance']),
  /** The trade's ID ('' for the balance). */
  ref: z.string(),
  /** As the service names it: `total`, `timestamp`, `items.0.price`. */
  field: z.string(),
  value: z.string(),
  reason: z.string(),
  /** When the desk first and last read it so, and how many times. */
  firstAt: z.number().int(),
  lastAt: z.number().int(),
  times: z.number().int(),
}));
export type HistoryRefusal = z.infer<typeof historyRefusal>;

/** Refusals a summary lists at most (the newest); `count` says how many the range has. */
export const HISTORY_REFUSALS_SHOWN = 20;

export const historySummary = lazySchema(() => z.object({
  stamp,
  from: z.number().int(),
  to: z.number().int(),
  account: z.string().nullable(),
  sales: tally,
  purchases: tally,
  /** Trades in the range still pending, waiting to be explained, or vanished (not in the figures). */
  pending: z.number().int(),
  vanished: z.number().int(),
  /** Every day of the range, oldest first, empty days included. */
  days: z.array(period).max(800),
  /** Every week (Monday to Sunday) the range touches. */
  weeks: z.array(period).max(120),
  /** The balance readings, at most one per slice of the range (the last of each). */
  balance: z.array(z.object({ at: z.number().int(), balance: z.number().int(), pending: z.number().int() })).max(1000),
  topItems: z.array(z.object({
    sku: z.string(), name: z.string(),
    sold: tally, bought: tally,
  })).max(20),
  /** What the service said in the range that History refused to keep, newest first. */
  refused: z.object({ count: z.number().int(), recent: z.array(historyRefusal).max(HISTORY_REFUSALS_SHOWN) }),
  /** From the desk's listing to the sale, for sales whose listing the desk made. */
  listingToSale: z.object({
    sales: z.number().int(),
    known: z.number().int(),
    medianMs: z.number().int().nullable(),
    averageMs: z.number().int().nullable(),
    shortestMs: z.number().int().nullable(),
    longestMs: z.number().int().nullable(),
  }),
}));
export type HistorySummary = z.infer<typeof historySummary>;

/** The item search over a trade's items (words in any order, as every table reads it), or its trade ID or partner. */
export const historyText = lazySchema(() => z.string().max(200).optional());

/** Whether the runtime knows `name` as a time zone ("Europe/Berlin"). */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** History's CSV file: the trades of a range (those a search finds), in the shape the trader's spreadsheet reads, its times in the screen's time zone. */
export const historyExportInput = lazySchema(() => z.strictObject({
  range: historyRange,
  show: historyShow.default('completed'),
  text: historyText,
  format: csvExportFormat.default('comma'),
  /** The screen's IANA time zone; the desk's own when absent. */
  timeZone: z.string().min(1).max(64).refine(isTimeZone, { message: 'is not a time zone this desk knows' }).optional(),
}));

export const historyPageQuery = lazySchema(() => z.strictObject({
  range: historyRange,
  show: historyShow.default('completed'),
  text: historyText,
  offset: z.number().int().min(0).max(10_000_000).default(0),
  limit: z.number().int().min(1).max(500).default(100),
}));

export const historyItem = lazySchema(() => z.object({ sku: z.string(), name: z.string(), quantity: z.number().int(), price: z.number().int() }));

export const historyRow = lazySchema(() => z.object({
  key: z.string(),
  tradeType: z.enum(['market', 'buy_order']),
  tradeId: z.string(),
  side: z.enum(['sale', 'purchase']),
  account: z.string(),
  partner: z.string(),
  status: z.string(),
  ending: tradeEnding,
  total: z.number().int(),
  /** The trade's items (the first few; `itemCount` says how many in all). */
  items: z.array(historyItem).max(10),
  itemCount: z.number().int(),
  createdAt: z.number().int(),
  leftAt: z.number().int().nullable(),
  /** When it counts: when it left the lists, or when it was made while pending. */
  at: z.number().int(),
  listedAt: z.number().int().nullable(),
}));
export type HistoryRowView = z.infer<typeof historyRow>;

export const historyPage = lazySchema(() => z.object({
  stamp,
  offset: z.number().int(),
  total: z.number().int(),
  rows: z.array(historyRow).max(500),
}));
export type HistoryPage = z.infer<typeof historyPage>;
