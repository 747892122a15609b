import type { Migration } from './migration.ts';

export const migration: Migration = {
  version: 1,
  name: 'accounts and settings',
  sql: `
      CREATE TABLE accounts (
        account_id TEXT PRIMARY KEY CHECK (account_id NOT GLOB '*[^0-9]*' AND length(account_id) BETWEEN 1 AND 20),
        kind TEXT NOT NULL CHECK (kind IN ('main', 'linked')),
        name TEXT NOT NULL DEFAULT '',
        trade_url TEXT,
        automated INTEGER NOT NULL DEFAULT 0 CHECK (automated IN (0, 1)),
        updated_at INTEGER NOT NULL
      ) STRICT;
      -- One API key acts for exactly one main account.
      CREATE UNIQUE INDEX accounts_one_main ON accounts (kind) WHERE kind = 'main';
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
    `,
};
