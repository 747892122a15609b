import type { Migration } from './migration.ts';

export const migration: Migration = {
  version: 3,
  name: 'pending trades and the seen set',
  sql: `
      CREATE TABLE pending_trades (
        trade_type TEXT NOT NULL CHECK (trade_type IN ('market', 'buy_order')),
        trade_id TEXT NOT NULL,
        status TEXT NOT NULL,
        body TEXT NOT NULL,
        first_seen_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (trade_type, trade_id)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE seen_trades (
        key TEXT PRIMARY KEY,
        status TEXT NOT NULL
      ) STRICT, WITHOUT ROWID;
    `,
};
