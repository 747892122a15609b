import type { Migration } from './migration.ts';

export const migration: Migration = {
  version: 9,
  name: 'trades announced as needing action',
  sql: `
      -- Each trade and status the trader was told needs action (type:id:status),
      -- while the trade is pending, oldest first (seq): a restart does not tell again.
      CREATE TABLE announced_trades (
        key TEXT PRIMARY KEY,
        seq INTEGER NOT NULL
      ) STRICT, WITHOUT ROWID;
    `,
};
