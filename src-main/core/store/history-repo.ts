import { z } from 'zod';
import type { Store } from './db.ts';
import { jsonColumn, parseRows } from './sql.ts';

/**
 * The trade history and the balance readings: what the trade watcher saw,
 * kept after the trades leave the pending lists (see migration 010). Writes
 * only; the History screen's figures are SQL over these tables
 * (core/history/history-report.ts).
 */

export const TRADE_ENDINGS = ['pending', 'left', 'balance_moved', 'listing_sold', 'vanished'] as const;
export type TradeEnding = (typeof TRADE_ENDINGS)[number];
/** Endings that say the trade went through: only these count as sales and purchases. */
export const COMPLETED_ENDINGS = ['balance_moved', 'listing_sold'] as const satisfies readonly TradeEnding[];

export interface HistoryTradeInput {
  readonly trade_type: 'market' | 'buy_order';
  readonly trade_id: string;
  readonly side: 'sale' | 'purchase';
  readonly account: string;
  readonly partner: string;
  readonly status: string;
  readonly total: number;
  /** The trade's own timestamp, ms. */
  readonly created_at: number;
  readonly items: readonly { readonly sku: string; readonly name: string; readonly quantity: number; readonly price: number }[];
}

/** A trade that left the lists and waits for its ending, with what the balance would show. */
export const leftTradeRow = z.object({
  trade_type: z.enum(['market', 'buy_order']),
  trade_id: z.string(),
  side: z.enum(['sale', 'purchase']),
  total: z.number().int(),
  last_seen_at: z.number().int(),
  left_at: z.number().int(),
  ending: z.enum(TRADE_ENDINGS),
  sold_assets: jsonColumn(z.array(z.string())),
});
export type LeftTradeRow = z.output<typeof leftTradeRow>;

export const readingRow = z.object({
  at: z.number().int(),
  balance: z.number().int(),
  pending_balance: z.number().int(),
  unexplained: z.number().int().nullable(),
});
export type ReadingRow = z.output<typeof readingRow>;

export interface HistoryRepo {
  readonly store: Store;
  /**
   * Records a trade seen pending at `at`: new, or its last status. A trade ID
   * seen again with another timestamp is another trade. Returns whether
   * anything shown changed (not only when it was last seen).
   */
  seen(trade: HistoryTradeInput, at: number): boolean;
  /** The trades left the lists at `at` (first load without them). */
  left(keys: readonly { readonly trade_type: string; readonly trade_id: string }[], at: number): void;
  /** Whether the listings a sale took are recorded already. */
  knowsSoldListings(tradeType: string, tradeId: string): boolean;
  /** The listings a sale took, and when the desk listed them (null when it does not know). */
  soldListings(tradeType: string, tradeId: string, assets: readonly string[], listedAt: number | null): void;
  setEnding(tradeType: string, tradeId: string, ending: Exclude<TradeEnding, 'pending' | 'left'>, at: number): void;
  /** Trades with these endings that left the lists at `since` or later, oldest first (a left trade's `at` is when it left). */
  unexplained(endings: readonly TradeEnding[], since: number): LeftTradeRow[];
  /** Stores a reading; returns false when one at the same moment is kept already. */
  addReading(reading: { at: number; balance: number; pending_balance: number }, unexplained: number | null): boolean;
  /** The reading just before `at` (null when none). */
  readingBefore(at: number): ReadingRow | null;
  /** Readings after `since`, oldest first. */
  readingsSince(since: number): ReadingRow[];
  setUnexplained(at: number, amount: number): void;
  meta(key: string): string | null;
  setMeta(key: string, value: string): void;
  /** Trades and readings kept (the sandbox's past is filled only into an empty history). */
  counts(): { trades: number; readings: number };
}

export function createHistoryRepo(store: Store): HistoryRepo {
  const { db } = store;
  const selectOne = db.prepare('SELECT created_at, status, ending FROM trade_history WHERE trade_type = ? AND trade_id = ?');
  const insertTrade = db.prepare(`
    INSERT INTO trade_history (trade_type, trade_id, side, account, partner, status, total, created_at, first_seen_at, last_seen_at, at)
    VALUES (:trade_type, :trade_id, :side, :account, :partner, :status, :total, :created_at, :seen, :seen, :created_at)`);
  const updateSeen = db.prepare(`
    UPDATE trade_history SET status = ?, last_seen_at = max(last_seen_at, ?),
      ending = 'pending', left_at = NULL, ended_at = NULL, at = created_at
    WHERE trade_type = ? AND trade_id = ?`);
  const deleteTrade = db.prepare('DELETE FROM trade_history WHERE trade_type = ? AND trade_id = ?');
  const insertItem = db.prepare('INSERT INTO trade_history_items (trade_type, trade_id, position, sku, name, quantity, price) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const markLeft = db.prepare(`UPDATE trade_history SET left_at = ?, at = ?, ending = 'left' WHERE trade_type = ? AND trade_id = ? AND ending = 'pending'`);
  const selectSold = db.prepare(`SELECT 1 AS yes FROM trade_history WHERE trade_type = ? AND trade_id = ? AND (sold_assets != '[]' OR listed_at IS NOT NULL)`);
  const setSold = db.prepare('UPDATE trade_history SET sold_assets = ?, listed_at = ? WHERE trade_type = ? AND trade_id = ?');
  const setEndingStmt = db.prepare('UPDATE trade_history SET ending = ?, ended_at = ? WHERE trade_type = ? AND trade_id = ?');
  const insertReading = db.prepare('INSERT OR IGNORE INTO balance_readings (at, balance, pending_balance, unexplained) VALUES (?, ?, ?, ?)');
  const selectBefore = db.prepare('SELECT * FROM balance_readings WHERE at < ? ORDER BY at DESC LIMIT 1');
  const selectSince = db.prepare('SELECT * FROM balance_readings WHERE at > ? ORDER BY at');
  const updateUnexplained = db.prepare('UPDATE balance_readings SET unexplained = ? WHERE at = ?');
  const selectMeta = db.prepare('SELECT value FROM history_meta WHERE key = ?');
  const upsertMeta = db.prepare('INSERT INTO history_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  const countTrades = db.prepare('SELECT count(*) AS n FROM trade_history');
  const countReadings = db.prepare('SELECT count(*) AS n FROM balance_readings');

  function insert(trade: HistoryTradeInput, at: number): void {
    insertTrade.run({
      trade_type: trade.trade_type, trade_id: trade.trade_id, side: trade.side, account: trade.account, partner: trade.partner,
      status: trade.status, total: trade.total, created_at: trade.created_at, seen: at,
    });
    trade.items.forEach((item, i) => insertItem.run(trade.trade_type, trade.trade_id, i, item.sku, item.name, item.quantity, item.price));
  }

  return {
    store,
    seen(trade, at) {
      const existing = selectOne.get(trade.trade_type, trade.trade_id) as { created_at: number; status: string; ending: string } | undefined;
      if (existing === undefined) {
        insert(trade, at);
        return true;
      }
      if (existing.created_at !== trade.created_at) {
        store.transaction(() => {
          deleteTrade.run(trade.trade_type, trade.trade_id);
          insert(trade, at);
        });
        return true;
      }
      updateSeen.run(trade.status, at, trade.trade_type, trade.trade_id);
      return existing.status !== trade.status || existing.ending !== 'pending';
    },
    left(keys, at) {
      store.transaction(() => {
        for (const k of keys) markLeft.run(at, at, k.trade_type, k.trade_id);
      });
    },
    knowsSoldListings: (tradeType, tradeId) => selectSold.get(tradeType, tradeId) !== undefined,
    soldListings(tradeType, tradeId, assets, listedAt) {
      setSold.run(JSON.stringify(assets), listedAt, tradeType, tradeId);
    },
    setEnding(tradeType, tradeId, ending, at) {
      setEndingStmt.run(ending, at, tradeType, tradeId);
    },
    unexplained(endings, since) {
      const sql = `SELECT trade_type, trade_id, side, total, last_seen_at, left_at, ending, sold_assets FROM trade_history
        WHERE ending IN (${endings.map(() => '?').join(', ')}) AND at >= ? ORDER BY at`;
      return parseRows('trade_history', leftTradeRow, db.prepare(sql).all(...endings, since));
    },
    addReading(reading, unexplained) {
      return Number(insertReading.run(reading.at, reading.balance, reading.pending_balance, unexplained).changes) > 0;
    },
    readingBefore(at) {
      const row = selectBefore.get(at);
      return row === undefined ? null : readingRow.parse(row);
    },
    readingsSince: (since) => parseRows('balance_readings', readingRow, selectSince.all(since)),
    setUnexplained: (at, amount) => void updateUnexplained.run(amount, at),
    meta: (key) => (selectMeta.get(key) as { value: string } | undefined)?.value ?? null,
    setMeta: (key, value) => void upsertMeta.run(key, value),
    counts: () => ({
      trades: Number((countTrades.get() as { n: number }).n),
      readings: Number((countReadings.get() as { n: number }).n),
    }),
  };
}
