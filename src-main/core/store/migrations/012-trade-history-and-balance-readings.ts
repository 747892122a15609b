import type { Migration } from './migration.ts';

export const migration: Migration = {
  version: 12,
  name: 'trade history and balance readings',
  sql: `
      -- Every trade the watcher saw, kept after it leaves the pending lists,
      -- with its last status and how it ended: 'pending' while listed, 'left'
      -- while the desk waits for a balance reading to explain its leaving,
      -- then 'balance_moved' (the balance moved by its amount),
      -- 'listing_sold' (the listing it sold is gone or refused as sold) or
      -- 'vanished' (nothing explained it: declined or expired, most likely).
      -- Times are ms on the desk's clock; 'at' is when the trade counts: when
      -- it left the lists, or when it was made while it is pending.
      CREATE TABLE trade_history (
        trade_type TEXT NOT NULL CHECK (trade_type IN ('market', 'buy_order')),
        trade_id TEXT NOT NULL,
        side TEXT NOT NULL CHECK (side IN ('sale', 'purchase')),
        account TEXT NOT NULL,
        partner TEXT NOT NULL,
        status TEXT NOT NULL,
        total INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        first_seen_at INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL,
        left_at INTEGER,
        ending TEXT NOT NULL DEFAULT 'pending'
          CHECK (ending IN ('pending', 'left', 'balance_moved', 'listing_sold', 'vanished')),
        ended_at INTEGER,
        -- Asset IDs of the ledger's listings this trade sold (JSON), and when the desk listed the first.
        sold_assets TEXT NOT NULL DEFAULT '[]',
        listed_at INTEGER,
        at INTEGER NOT NULL,
        PRIMARY KEY (trade_type, trade_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX trade_history_at ON trade_history (at);
      -- The figures read completed trades of a range: this index alone answers them.
      CREATE INDEX trade_history_ending ON trade_history (ending, at, side, total, account);
      -- The items of each trade, for the top items by amount.
      CREATE TABLE trade_history_items (
        trade_type TEXT NOT NULL,
        trade_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        sku TEXT NOT NULL,
        name TEXT NOT NULL,
        quantity INTEGER NOT NULL,
        price INTEGER NOT NULL,
        PRIMARY KEY (trade_type, trade_id, position),
        FOREIGN KEY (trade_type, trade_id) REFERENCES trade_history (trade_type, trade_id) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
      -- Every balance reading; 'unexplained' is the move since the reading
      -- before that no trade has been matched to yet (NULL for the first).
      CREATE TABLE balance_readings (
        at INTEGER PRIMARY KEY,
        balance INTEGER NOT NULL,
        pending_balance INTEGER NOT NULL,
        unexplained INTEGER
      ) STRICT;
      -- Facts about the history itself (the sandbox's past was filled in once).
      CREATE TABLE history_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT, WITHOUT ROWID;
    `,
};
