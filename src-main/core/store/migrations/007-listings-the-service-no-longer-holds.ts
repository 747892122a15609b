import type { Migration } from './migration.ts';

export const migration: Migration = {
  version: 7,
  name: 'listings the service no longer holds, and notes in the activity log',
  sql: `
      -- A listing can be sold (in a trade still pending, then done) or gone from
      -- the service (removed on the website; an edit or delete said so): the
      -- state says which, with the reason and the trade. SQLite cannot widen a
      -- CHECK in place, so the table is rebuilt with its rows.
      CREATE TABLE listings_v7 (
        asset_id TEXT PRIMARY KEY,
        listing_id TEXT UNIQUE,
        id_unknown INTEGER NOT NULL DEFAULT 0 CHECK (id_unknown IN (0, 1)),
        sku TEXT NOT NULL DEFAULT '',
        price INTEGER NOT NULL CHECK (price > 0),
        promoted INTEGER NOT NULL CHECK (promoted IN (0, 1)),
        game TEXT NOT NULL,
        user_note TEXT NOT NULL DEFAULT '',
        account TEXT NOT NULL REFERENCES accounts (account_id),
        state TEXT NOT NULL DEFAULT 'active'
          CHECK (state IN ('active', 'inactive', 'sold', 'cancelled', 'sold_in_trade', 'not_on_service')),
        state_reason TEXT,
        trade_id TEXT,
        updated_at INTEGER NOT NULL,
        CHECK ((listing_id IS NULL) = (id_unknown = 1))
      ) STRICT;
      INSERT INTO listings_v7 (asset_id, listing_id, id_unknown, sku, price, promoted, game, user_note, account, state, updated_at)
        SELECT asset_id, listing_id, id_unknown, sku, price, promoted, game, user_note, account, state, updated_at FROM listings ORDER BY rowid;
      DROP TABLE listings;
      ALTER TABLE listings_v7 RENAME TO listings;
      CREATE INDEX listings_account ON listings (account);
      CREATE INDEX listings_trade ON listings (trade_id) WHERE trade_id IS NOT NULL;
      -- What the desk learnt that no request of its own did (a sale seen in the trades).
      ALTER TABLE activity_log ADD COLUMN note TEXT;
    `,
};
