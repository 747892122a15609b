import { z } from 'zod';
import { csvExportFormat } from './csv-dialect.ts';
import { historyRange } from './history.ts';
import { stamp } from './ledger.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * Realized profit in History, as main answers it: per day, week or item,
 * the sales whose cost first-in, first-out knows, less that cost and the
 * marketplace's fee (the trader's percentage in the pricing settings, since
 * the interface does not state its fees); the units sold at a cost the desk
 * does not know, shown apart and never guessed; what is held, valued at the
 * source's prices; and, for one SKU, each sale against the source's price
 * and how long its listing took to sell.
 */

/** Rows a profit table holds at most: every day of two years, and the items with the most revenue. */
export const PROFIT_ROWS_MAX = 1_000;
/** Sales of one SKU listed at most (the newest). */
export const PROFIT_SKU_SALES_MAX = 500;

export const profitBy = z.enum(['day', 'week', 'item']);
export type ProfitBy = z.infer<typeof profitBy>;

/** One row of the table: a day, a week or an item; money in integer cents. */
export const profitRow = z.object({
  /** The day (YYYY-MM-DD), the Monday of the week, or the SKU. */
  key: z.string(),
  /** The day or week's key again, or the item's name. */
  label: z.string(),
  /** The period's local midnight (ms); null for an item. */
  start: z.number().int().nullable(),
  /** Units sold whose cost is known, what they sold for, their first-in, first-out cost, the fee on them, and what was left. */
  units: z.number().int(),
  revenue: z.number().int(),
  cost: z.number().int(),
  fee: z.number().int(),
  profit: z.number().int(),
  /** Units sold at a cost unknown (no lot held them), and what they sold for: in no other column. */
  unknownUnits: z.number().int(),
  unknownRevenue: z.number().int(),
});
export type ProfitRow = z.infer<typeof profitRow>;

export const profitTotals = profitRow.omit({ key: true, label: true, start: true });
export type ProfitTotals = z.infer<typeof profitTotals>;

/** What is held (units bought, or given a cost by hand, not sold yet), valued at the source's sell prices. */
export const heldValue = lazySchema(() => z.object({
  /** The source the values come from (the pricing settings' value source, else the first); null: none set up. */
  sourceId: z.string().nullable(),
  units: z.number().int(),
  /** Held units with a source price, and their value at it. */
  pricedUnits: z.number().int(),
  value: z.number().int(),
  /** Held units the source has no sell price for: in no value. */
  unpricedUnits: z.number().int(),
  /** What those units cost (first-in, first-out), for comparison. */
  cost: z.number().int(),
  /** The oldest time the source priced one of the held items (ms), and when it was last read. */
  oldestPricedAt: z.number().int().nullable(),
  readAt: z.number().int().nullable(),
}));
export type HeldValue = z.infer<typeof heldValue>;

export const profitQuery = z.strictObject({ range: historyRange, by: profitBy.default('day') });

export const profitReport = lazySchema(() => z.object({
  stamp,
  by: profitBy,
  /** The fee percentage counted (the pricing settings'), and how it is rounded. */
  feePercent: z.number(),
  rows: z.array(profitRow).max(PROFIT_ROWS_MAX),
  /** Items beyond the table's bound (their sales are in the totals). */
  more: z.number().int(),
  totals: profitTotals,
  held: heldValue,
}));
export type ProfitReport = z.infer<typeof profitReport>;

/** The profit table as a CSV file: the same rows as the table, in the trader's spreadsheet's shape. */
export const profitExportInput = lazySchema(() => z.strictObject({
  range: historyRange,
  by: profitBy.default('day'),
  format: csvExportFormat.default('comma'),
}));

export const profitSkuQuery = lazySchema(() => z.strictObject({ range: historyRange, sku: z.string().min(1).max(200) }));

/** One sale line of the SKU: its price against the source's price when the desk counted it, and how long its listing stood. */
export const skuSale = lazySchema(() => z.object({
  tradeType: z.enum(['market', 'buy_order']),
  tradeId: z.string(),
  at: z.number().int(),
  quantity: z.number().int(),
  price: z.number().int(),
  sourcePrice: z.number().int().nullable(),
  /** (price − source) / source, percent to one decimal: below zero is under the source. Null without a source price. */
  vsSourcePercent: z.number().nullable(),
  /** From the desk's listing to the buyer's trade (ms); null when the desk did not make the listing. */
  listingMs: z.number().int().nullable(),
  /** Per unit; null: unknown. */
  unitCost: z.number().int().nullable(),
}));
export type SkuSale = z.infer<typeof skuSale>;

const speed = lazySchema(() => z.object({ sales: z.number().int(), known: z.number().int(), medianMs: z.number().int().nullable() }));

export const profitSku = lazySchema(() => z.object({
  stamp,
  sku: z.string(),
  name: z.string(),
  sales: z.array(skuSale).max(PROFIT_SKU_SALES_MAX),
  /** Sales of the range in all (the list holds the newest). */
  total: z.number().int(),
  /** How fast the sales under the source sold, against those at or over it (listing to sale, median). */
  under: speed,
  atOrOver: speed,
}));
export type ProfitSku = z.infer<typeof profitSku>;
