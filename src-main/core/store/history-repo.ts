import { z } from 'zod';
import type { Store } from './db.ts';
import { jsonColumn, parseRow, parseRows } from './sql.ts';
import { countOf, valueOf } from './typed-rows.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * The trade history and the balance readings: what the trade watcher saw,
 * kept after the trades leave the pending lists (see migration 012), and
 * what the service said that History refused (migration 018). Writes only;
 * the History screen's figures are SQL over these tables
 * (history-reads.ts, core/history/history-report.ts). A trade's record is never deleted, and
 * one that ended never goes back to pending, whatever the service lists.
 */

export const TRADE_ENDINGS = ['pending', 'left', 'balance_moved', 'listing_sold', 'vanished'] as const;
export type TradeEnding = (typeof TRADE_ENDINGS)[number];
/** Endings that say the trade went through: only these count as sales and purchases. */
export const COMPLETED_ENDINGS = ['balance_moved', 'listing_sold'] as const satisfies readonly TradeEnding[];
/** Endings the desk decided: a trade listed again after one keeps it. */
export const DECIDED_ENDINGS: readonly TradeEnding[] = ['balance_moved', 'listing_sold', 'vanished'];

/** What `seen` did with a trade: new, its status or its return to the lists kept, nothing to change, or refused (another timestamp). */
export type SeenOutcome = 'added' | 'updated' | 'unchanged' | 'ended' | { readonly otherTimestamp: number };

/** What History refused of the service's word: a trade's (or the balance's, ref '') field, and why. */
export interface RefusalInput {
  readonly kind: 'market' | 'buy_order' | 'balance';
  readonly ref: string;
  readonly field: string;
  readonly value: string;
  readonly reason: string;
}

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
export const leftTradeRow = lazySchema(() => z.object({
  trade_type: z.enum(['market', 'buy_order']),
  trade_id: z.string(),
  side: z.enum(['sale', 'purchase']),
  total: z.number().int(),
  last_seen_at: z.number().int(),
  left_at: z.number().int(),
  ending: z.enum(TRADE_ENDINGS),
  sold_assets: jsonColumn(z.array(z.string())),
}));
export type LeftTradeRow = z.output<typeof leftTradeRow>;

/** What recording a trade needs to know of its record. */
const knownTradeRow = lazySchema(() => z.object({ created_at: z.number(), status: z.string(), ending: z.enum(TRADE_ENDINGS) }));
/** A refusal as last recorded, to tell whether it changed. */
const refusalRow = lazySchema(() => z.object({ value: z.string(), reason: z.string() }));

export const readingRow = lazySchema(() => z.object({
  at: z.number().int(),
  balance: z.number().int(),
  pending_balance: z.number().int(),
  unexplained: z.number().int().nullable(),
}));
export type ReadingRow = z.output<typeof readingRow>;

export interface HistoryRepo {
  readonly store: Store;
  /**
   * Records a trade seen pending at `at`: new, or its last status. A trade
   * whose ending was decided keeps it ('ended'); one listed again with
   * another timestamp is left as it was, and the timestamp it was first
   * listed with returned (the caller refuses the listing).
   */
  seen(trade: HistoryTradeInput, at: number): SeenOutcome;
  /** Keeps a refusal seen at `at` (again: its last time and count); returns whether it is new or says something new. */
  refuse(refusal: RefusalInput, at: number): boolean;
  /** The trades left the lists at `at` (first load without them). */
  left(keys: readonly { readonly trade_type: string; readonly trade_id: string }[], at: number): void;
  /** Whether the listings a sale took are recorded already. */
  knowsSoldListings(tradeType: string, tradeId: string): boolean;
  /** The listings a sale took, and when the desk listed them (null when it does not know). */
  soldListings(tradeType: string, tradeId: string, assets: readonly string[], listedAt: number | null): void;
  setEnding(tradeType: string, tradeId: string, ending: Exclude<TradeEnding, 'pending' | 'left'>, at: number): void;
  /**
   * Trades that left the lists and wait for their ending, a page at a time
   * in key order: up to `limit` after `after` (the last of the page before;
   * null for the first page).
   */
  leftTrades(after: Pick<LeftTradeRow, 'trade_type' | 'trade_id'> | null, limit: number): LeftTradeRow[];
  /** Sales whose listings the ledger knows, left or vanished at `since` or later: a listing found gone may still explain them. */
  salesWithListings(since: number): LeftTradeRow[];
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
  // A trade that left and is listed again is pending again; one whose ending was decided is never touched here.
  const updateSeen = db.prepare(`
    UPDATE trade_history SET status = ?, last_seen_at = max(last_seen_at, ?),
      ending = 'pending', left_at = NULL, ended_at = NULL, at = created_at
    WHERE trade_type = ? AND trade_id = ? AND ending IN ('pending', 'left')`);
  const upsertRefusal = db.prepare(`
    INSERT INTO history_refusals (kind, ref, field, value, reason, first_at, last_at) VALUES (:kind, :ref, :field, :value, :reason, :at, :at)
    ON CONFLICT (kind, ref, field) DO UPDATE SET value = excluded.value, reason = excluded.reason,
      last_at = max(last_at, excluded.last_at), times = times + 1`);
  const selectRefusal = db.prepare('SELECT value, reason FROM history_refusals WHERE kind = ? AND ref = ? AND field = ?');
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
  const leftColumns = 'trade_type, trade_id, side, total, last_seen_at, left_at, ending, sold_assets';
  // In key order on the index of the left trades alone (migration 018): a page is one seek however many left at one moment.
  const selectLeft = db.prepare(`SELECT ${leftColumns} FROM trade_history INDEXED BY trade_history_left
    WHERE (trade_type, trade_id) > (?, ?) AND ending = 'left' ORDER BY trade_type, trade_id LIMIT ?`);
  const selectSalesWithListings = db.prepare(`SELECT ${leftColumns} FROM trade_history
    WHERE ending IN ('left', 'vanished') AND at >= ? AND side = 'sale' AND sold_assets != '[]' ORDER BY at`);

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
      const found = selectOne.get(trade.trade_type, trade.trade_id);
      const existing = found === undefined ? undefined : parseRow('trade_history', knownTradeRow, found);
      if (existing === undefined) {
        insert(trade, at);
        return 'added';
      }
      if (existing.created_at !== trade.created_at) return { otherTimestamp: existing.created_at };
      if (DECIDED_ENDINGS.includes(existing.ending)) return 'ended';
      updateSeen.run(trade.status, at, trade.trade_type, trade.trade_id);
      return existing.status !== trade.status || existing.ending !== 'pending' ? 'updated' : 'unchanged';
    },
    refuse(refusal, at) {
      const found = selectRefusal.get(refusal.kind, refusal.ref, refusal.field);
      const before = found === undefined ? undefined : parseRow('history_refusals', refusalRow, found);
      upsertRefusal.run({ ...refusal, at });
      return before === undefined || before.value !== refusal.value || before.reason !== refusal.reason;
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
    leftTrades(after, limit) {
      const rows = selectLeft.all(after?.trade_type ?? '', after?.trade_id ?? '', limit);
      return parseRows('trade_history', leftTradeRow, rows);
    },
    salesWithListings: (since) => parseRows('trade_history', leftTradeRow, selectSalesWithListings.all(since)),
    addReading(reading, unexplained) {
      return Number(insertReading.run(reading.at, reading.balance, reading.pending_balance, unexplained).changes) > 0;
    },
    readingBefore(at) {
      const row = selectBefore.get(at);
      return row === undefined ? null : readingRow.parse(row);
    },
    readingsSince: (since) => parseRows('balance_readings', readingRow, selectSince.all(since)),
    setUnexplained: (at, amount) => void updateUnexplained.run(amount, at),
    meta: (key) => valueOf('history_meta', selectMeta.get(key)) ?? null,
    setMeta: (key, value) => void upsertMeta.run(key, value),
    counts: () => ({
      trades: countOf('trade_history', countTrades.get()),
      readings: countOf('balance_readings', countReadings.get()),
    }),
  };
}
