import { z } from 'zod';
import { buyOrderTrade, marketTrade, type PendingTrade } from '../../../src-shared/trades.ts';
import type { AnnouncedTradesStore, SeenTradesStore } from './watcher-memory.ts';
import type { Store } from './db.ts';
import { jsonColumn, parseRows } from './sql.ts';
import type { StatementSync } from 'node:sqlite';
import { nextTurn, type Turn } from '../turn.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * The last pending trades seen, the trade watcher's seen set and the trades
 * it announced as needing action. Those two are what stop a restart from
 * notifying the trader again about trades already shown, so each is saved as
 * one transaction (all or nothing). A seen set of thousands is first written
 * a part at a time to a scratch table this connection alone sees, a turn of
 * the event loop apart, and then made the saved set by two statements in one
 * transaction, which write only the rows that differ.
 */

/** Seen trades written to the scratch table per step. */
export const SEEN_PART = 2_000;

const SEEN_SCRATCH = 'CREATE TEMP TABLE IF NOT EXISTS seen_trades_next (key TEXT PRIMARY KEY, status TEXT NOT NULL) STRICT, WITHOUT ROWID';
export const pendingTradeRow = lazySchema(() => z.object({
  trade_type: z.enum(['market', 'buy_order']),
  trade_id: z.string(),
  status: z.string(),
  body: jsonColumn(z.union([marketTrade, buyOrderTrade])),
  first_seen_at: z.number().int(),
  updated_at: z.number().int(),
}));
export type PendingTradeRow = z.output<typeof pendingTradeRow>;

const seenRow = lazySchema(() => z.object({ key: z.string(), status: z.string() }));
const announcedRow = z.object({ key: z.string() });

export interface TradesRepo {
  /** Replaces the stored pending trades with what the service listed now. */
  replacePending(trades: readonly PendingTrade[]): void;
  /**
   * The same in parts, for a load of thousands: each part of the load is
   * kept as pending with the load's time `at` (keeping when each was first
   * seen), then the trades no part kept are dropped, `limit` at a time
   * (returns how many: fewer than `limit` when none is left).
   */
  keepPending(trades: readonly PendingTrade[], at: number): void;
  dropPendingNotKeptAt(at: number, limit: number): number;
  pending(): PendingTradeRow[];
  /** The SeenTradesStore port of the trade watcher, over this database. */
  readonly seen: SeenTradesStore;
  /** The AnnouncedTradesStore port of the trade watcher, over this database. */
  readonly announced: AnnouncedTradesStore;
}

export function createTradesRepo(store: Store): TradesRepo {
  const { db } = store;
  const selectPending = db.prepare('SELECT * FROM pending_trades ORDER BY first_seen_at, trade_id');
  const upsertPending = db.prepare(`
    INSERT INTO pending_trades (trade_type, trade_id, status, body, first_seen_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (trade_type, trade_id) DO UPDATE SET status = excluded.status, body = excluded.body,
      updated_at = excluded.updated_at`);
  const removeStale = db.prepare(`DELETE FROM pending_trades WHERE (trade_type, trade_id) IN
    (SELECT trade_type, trade_id FROM pending_trades WHERE updated_at != ? LIMIT ?)`);
  const selectSeen = db.prepare('SELECT key, status FROM seen_trades');
  const selectAnnounced = db.prepare('SELECT key FROM announced_trades ORDER BY seq');
  const clearAnnounced = db.prepare('DELETE FROM announced_trades');
  const insertAnnounced = db.prepare('INSERT OR IGNORE INTO announced_trades (key, seq) VALUES (?, ?)');

  const keepPending = (trades: readonly PendingTrade[], at: number) => store.transaction(() => {
    for (const t of trades) upsertPending.run(t.trade_type, t.trade_id, t.status, JSON.stringify(t), at, at);
  });
  const dropPendingNotKeptAt = (at: number, limit: number) => store.transaction(() => Number(removeStale.run(at, limit).changes));

  let saving: Promise<void> = Promise.resolve();
  let seenStatements: { stage: StatementSync; drop: StatementSync; keep: StatementSync; clear: StatementSync } | null = null;
  const saveSeen = async (seen: ReadonlyMap<string, string>, turn: Turn) => {
    // Made on the first save: statements over a scratch table are prepared once it exists.
    if (seenStatements === null) {
      db.exec(SEEN_SCRATCH);
      seenStatements = {
        stage: db.prepare('INSERT INTO temp.seen_trades_next (key, status) SELECT value ->> 0, value ->> 1 FROM json_each(?)'),
        drop: db.prepare('DELETE FROM seen_trades WHERE key NOT IN (SELECT key FROM temp.seen_trades_next)'),
        keep: db.prepare(`INSERT INTO seen_trades (key, status) SELECT key, status FROM temp.seen_trades_next WHERE true
          ON CONFLICT (key) DO UPDATE SET status = excluded.status WHERE status != excluded.status`),
        clear: db.prepare('DELETE FROM temp.seen_trades_next'),
      };
    }
    const { stage, drop, keep, clear } = seenStatements;
    // What a save cut short left there is taken out first.
    clear.run();
    let part: Array<[string, string]> = [];
    for (const entry of seen) {
      part.push([entry[0], entry[1]]);
      if (part.length < SEEN_PART) continue;
      store.transaction(() => stage.run(JSON.stringify(part)));
      part = [];
      await turn();
    }
    if (part.length > 0) store.transaction(() => stage.run(JSON.stringify(part)));
    store.transaction(() => {
      drop.run();
      keep.run();
    });
    clear.run();
  };

  return {
    replacePending(trades) {
      const at = store.clock.now();
      store.transaction(() => {
        keepPending(trades, at);
        dropPendingNotKeptAt(at, -1);
      });
    },
    keepPending,
    dropPendingNotKeptAt,
    pending: () => parseRows('pending_trades', pendingTradeRow, selectPending.all()),
    seen: {
      async load() {
        const rows = parseRows('seen_trades', seenRow, selectSeen.all());
        return new Map(rows.map((r) => [r.key, r.status]));
      },
      save: (seen, turn = nextTurn) => {
        // One save at a time: two would share the scratch table.
        const run = saving.then(() => saveSeen(seen, turn));
        saving = run.catch(() => undefined);
        return run;
      },
    },
    announced: {
      async load() {
        return parseRows('announced_trades', announcedRow, selectAnnounced.all()).map((r) => r.key);
      },
      async save(keys) {
        store.transaction(() => {
          clearAnnounced.run();
          keys.forEach((key, seq) => insertAnnounced.run(key, seq));
        });
      },
    },
  };
}
