import { z } from 'zod';
import type { Store } from './db.ts';
import { parseRow, parseRows } from './sql.ts';
import { countOf } from './typed-rows.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * What each item cost (migration 020): the lots units came in by, the parts
 * each sale took from them, and the completed trades not yet counted. SQL
 * only; the first-in, first-out rules are core/costs/'s.
 */

/** One item line of a completed trade, in the order costs are counted: by time, purchases before sales, then by trade and line. */
export const tradeLine = lazySchema(() => z.object({
  trade_type: z.enum(['market', 'buy_order']),
  trade_id: z.string(),
  side: z.enum(['sale', 'purchase']),
  account: z.string(),
  at: z.number().int(),
  position: z.number().int(),
  sku: z.string(),
  quantity: z.number().int(),
  price: z.number().int(),
}));
export type TradeLine = z.output<typeof tradeLine>;

export const costLot = lazySchema(() => z.object({
  lot_id: z.number().int(),
  sku: z.string(),
  origin: z.enum(['purchase', 'manual']),
  trade_type: z.string().nullable(),
  trade_id: z.string().nullable(),
  acquired_at: z.number().int(),
  quantity: z.number().int(),
  used: z.number().int(),
  unit_cost: z.number().int(),
  set_at: z.number().int(),
}));
export type CostLot = z.output<typeof costLot>;

export interface CostUseInput {
  readonly line: TradeLine;
  readonly part: number;
  readonly quantity: number;
  readonly lotId: number | null;
  readonly unitCost: number | null;
  readonly sourcePrice: number | null;
}

const COMPLETED = "('balance_moved', 'listing_sold')";
/** The order sales and purchases are counted in, the same everywhere (the simulator's own count follows it too). */
const LINE_ORDER = "h.at, CASE h.side WHEN 'purchase' THEN 0 ELSE 1 END, h.trade_type, h.trade_id, i.position";
const LINE_COLUMNS = 'h.trade_type, h.trade_id, h.side, h.account, h.at, i.position, i.sku, i.quantity, i.price';

const key = z.object({ trade_type: z.enum(['market', 'buy_order']), trade_id: z.string() });
const lastUse = lazySchema(() => z.object({ sold_at: z.number().int(), trade_type: z.string(), trade_id: z.string() }));
const usePrice = lazySchema(() => z.object({ trade_type: z.string(), trade_id: z.string(), position: z.number().int(), source_price: z.number().int().nullable() }));
const heldRow = lazySchema(() => z.object({ sku: z.string(), held: z.number().int() }));
const nextRow = lazySchema(() => z.object({ sku: z.string(), unit_cost: z.number().int(), acquired_at: z.number().int(), origin: z.enum(['purchase', 'manual']) }));

export interface CostRepo {
  /** Completed trades not counted yet, oldest first, at most `limit` (their lines all come with them). */
  uncosted(limit: number): { trades: { trade_type: 'market' | 'buy_order'; trade_id: string }[]; lines: TradeLine[] };
  markCosted(trades: readonly { trade_type: string; trade_id: string }[]): void;
  /** Every counted line of a SKU, in counting order (to count it again from the start). */
  linesOf(sku: string): TradeLine[];
  addPurchaseLot(line: TradeLine, at: number): void;
  /** The lots of a SKU with units left, oldest first (those in by `at`). */
  openLots(sku: string, at: number): CostLot[];
  lots(sku: string): CostLot[];
  use(lotId: number, quantity: number): void;
  addUse(use: CostUseInput): void;
  /** The last sale counted for a SKU (null: none), to tell a trade that comes in out of order. */
  lastUse(sku: string): { sold_at: number; trade_type: string; trade_id: string } | null;
  /** Whether a sale of the SKU was counted at `at` or later. */
  soldSince(sku: string, at: number): boolean;
  /** The source price each counted sale line of a SKU was counted with, by `type|id|position`. */
  sourcePricesOf(sku: string): Map<string, number | null>;
  /** Forgets what the sales of a SKU took, so they can be counted again. */
  resetSku(sku: string): void;
  /** The trader's lots of a SKU are these (none: no cost set by hand). */
  replaceManual(sku: string, lots: readonly { quantity: number; unitCost: number; acquiredAt: number }[], at: number): void;
  /** The unit cost a sale of each SKU would take next (the oldest lot with units left). */
  nextCosts(skus: readonly string[]): Map<string, { unitCost: number; acquiredAt: number; origin: 'purchase' | 'manual' }>;
  /** Units of each SKU the lots still hold. */
  heldUnits(skus: readonly string[]): Map<string, number>;
  /** Manual lots kept, and trades counted (for the screens and tests). */
  counts(): { lots: number; manual: number; uses: number; uncosted: number };
}

export function createCostRepo(store: Pick<Store, 'db' | 'clock'>): CostRepo {
  const { db } = store;
  const UNCOSTED = `SELECT trade_type, trade_id FROM trade_history INDEXED BY trade_history_uncosted
    WHERE costed = 0 AND ending IN ${COMPLETED} ORDER BY at, CASE side WHEN 'purchase' THEN 0 ELSE 1 END, trade_type, trade_id LIMIT :limit`;
  const uncostedTrades = db.prepare(UNCOSTED);
  const linesOfTrades = db.prepare(`SELECT ${LINE_COLUMNS} FROM trade_history h JOIN trade_history_items i
    ON i.trade_type = h.trade_type AND i.trade_id = h.trade_id WHERE (h.trade_type, h.trade_id) IN (${UNCOSTED}) ORDER BY ${LINE_ORDER}`);
  const setCosted = db.prepare('UPDATE trade_history SET costed = 1 WHERE trade_type = ? AND trade_id = ?');
  const skuLines = db.prepare(`SELECT ${LINE_COLUMNS} FROM trade_history_items i JOIN trade_history h
    ON h.trade_type = i.trade_type AND h.trade_id = i.trade_id WHERE i.sku = ? AND h.costed = 1 AND h.ending IN ${COMPLETED} ORDER BY ${LINE_ORDER}`);
  const insertPurchase = db.prepare(`INSERT OR IGNORE INTO cost_lots (sku, origin, trade_type, trade_id, position, acquired_at, quantity, unit_cost, set_at)
    VALUES (?, 'purchase', ?, ?, ?, ?, ?, ?, ?)`);
  const open = db.prepare('SELECT * FROM cost_lots WHERE sku = ? AND used < quantity AND acquired_at <= ? ORDER BY acquired_at, lot_id');
  const all = db.prepare('SELECT * FROM cost_lots WHERE sku = ? ORDER BY acquired_at, lot_id');
  const take = db.prepare('UPDATE cost_lots SET used = used + ? WHERE lot_id = ?');
  const insertUse = db.prepare(`INSERT OR REPLACE INTO cost_uses (trade_type, trade_id, position, part, sku, account, sold_at, quantity, unit_price, lot_id, unit_cost, source_price)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const selectLastUse = db.prepare('SELECT sold_at, trade_type, trade_id FROM cost_uses WHERE sku = ? ORDER BY sold_at DESC, trade_type DESC, trade_id DESC LIMIT 1');
  const soldSince = db.prepare('SELECT 1 AS n FROM cost_uses WHERE sku = ? AND sold_at >= ? LIMIT 1');
  const deleteUses = db.prepare('DELETE FROM cost_uses WHERE sku = ?');
  const usePrices = db.prepare('SELECT trade_type, trade_id, position, source_price FROM cost_uses WHERE sku = ? AND part = 0');
  const unuse = db.prepare('UPDATE cost_lots SET used = 0 WHERE sku = ?');
  const deleteManual = db.prepare("DELETE FROM cost_lots WHERE sku = ? AND origin = 'manual'");
  const insertManual = db.prepare(`INSERT INTO cost_lots (sku, origin, acquired_at, quantity, unit_cost, set_at) VALUES (?, 'manual', ?, ?, ?, ?)`);
  const next = db.prepare('SELECT sku, unit_cost, acquired_at, origin FROM cost_lots WHERE sku = ? AND used < quantity ORDER BY acquired_at, lot_id LIMIT 1');
  const held = db.prepare('SELECT sku, coalesce(sum(quantity - used), 0) AS held FROM cost_lots WHERE sku = ? GROUP BY sku');
  const countLots = db.prepare('SELECT count(*) AS n FROM cost_lots');
  const countManual = db.prepare("SELECT count(*) AS n FROM cost_lots WHERE origin = 'manual'");
  const countUses = db.prepare('SELECT count(*) AS n FROM cost_uses');
  const countUncosted = db.prepare(`SELECT count(*) AS n FROM trade_history INDEXED BY trade_history_uncosted WHERE costed = 0 AND ending IN ${COMPLETED}`);

  return {
    uncosted(limit) {
      const trades = parseRows('trade_history', key, uncostedTrades.all({ limit }));
      const lines = trades.length === 0 ? [] : parseRows('trade_history_items', tradeLine, linesOfTrades.all({ limit }));
      return { trades, lines };
    },
    markCosted(trades) {
      for (const t of trades) setCosted.run(t.trade_type, t.trade_id);
    },
    linesOf: (sku) => parseRows('trade_history_items', tradeLine, skuLines.all(sku)),
    addPurchaseLot(line, at) {
      insertPurchase.run(line.sku, line.trade_type, line.trade_id, line.position, line.at, line.quantity, line.price, at);
    },
    openLots: (sku, at) => parseRows('cost_lots', costLot, open.all(sku, at)),
    lots: (sku) => parseRows('cost_lots', costLot, all.all(sku)),
    use(lotId, quantity) {
      take.run(quantity, lotId);
    },
    addUse({ line, part, quantity, lotId, unitCost, sourcePrice }) {
      insertUse.run(line.trade_type, line.trade_id, line.position, part, line.sku, line.account, line.at, quantity, line.price, lotId, unitCost, sourcePrice);
    },
    lastUse(sku) {
      const row = selectLastUse.get(sku);
      return row === undefined ? null : parseRow('cost_uses', lastUse, row);
    },
    soldSince: (sku, at) => soldSince.get(sku, at) !== undefined,
    sourcePricesOf(sku) {
      const rows = parseRows('cost_uses', usePrice, usePrices.all(sku));
      return new Map(rows.map((r) => [`${r.trade_type}|${r.trade_id}|${r.position}`, r.source_price]));
    },
    resetSku(sku) {
      deleteUses.run(sku);
      unuse.run(sku);
    },
    replaceManual(sku, lots, at) {
      deleteManual.run(sku);
      for (const lot of lots) insertManual.run(sku, lot.acquiredAt, lot.quantity, lot.unitCost, at);
    },
    nextCosts(skus) {
      const out = new Map<string, { unitCost: number; acquiredAt: number; origin: 'purchase' | 'manual' }>();
      for (const sku of new Set(skus)) {
        const row = next.get(sku);
        if (row === undefined) continue;
        const r = parseRow('cost_lots', nextRow, row);
        out.set(sku, { unitCost: r.unit_cost, acquiredAt: r.acquired_at, origin: r.origin });
      }
      return out;
    },
    heldUnits(skus) {
      const out = new Map<string, number>();
      for (const sku of new Set(skus)) {
        const row = held.get(sku);
        if (row !== undefined) out.set(sku, parseRow('cost_lots', heldRow, row).held);
      }
      return out;
    },
    counts: () => ({
      lots: countOf('cost_lots', countLots.get()),
      manual: countOf('cost_lots', countManual.get()),
      uses: countOf('cost_uses', countUses.get()),
      uncosted: countOf('trade_history', countUncosted.get()),
    }),
  };
}
