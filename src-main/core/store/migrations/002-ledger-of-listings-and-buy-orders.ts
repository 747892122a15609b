import type { Migration } from './migration.ts';

export const migration: Migration = {
  version: 2,
  name: 'ledger of listings and buy orders',
  sql: `
      -- A listing offers one asset, so the asset is the key; listing_id is
      -- learnt from the create response and is NULL only when that response
      -- was lost and the trader marked the create as done (id_unknown = 1).
      CREATE TABLE listings (
        asset_id TEXT PRIMARY KEY,
        listing_id TEXT UNIQUE,
        id_unknown INTEGER NOT NULL DEFAULT 0 CHECK (id_unknown IN (0, 1)),
        sku TEXT NOT NULL DEFAULT '',
        price INTEGER NOT NULL CHECK (price > 0),
        promoted INTEGER NOT NULL CHECK (promoted IN (0, 1)),
        game TEXT NOT NULL,
        user_note TEXT NOT NULL DEFAULT '',
        account TEXT NOT NULL REFERENCES accounts (account_id),
        state TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'inactive', 'sold', 'cancelled')),
        updated_at INTEGER NOT NULL,
        CHECK ((listing_id IS NULL) = (id_unknown = 1))
      ) STRICT;
      CREATE INDEX listings_account ON listings (account);
      -- The service names a buy order by its SKU alone (edit and delete carry
      -- no account), so a SKU is one buy order per profile.
      CREATE TABLE buy_orders (
        sku TEXT PRIMARY KEY,
        account TEXT NOT NULL REFERENCES accounts (account_id),
        price INTEGER NOT NULL CHECK (price > 0),
        quantity INTEGER NOT NULL CHECK (quantity > 0),
        quantity_may_be_cut INTEGER NOT NULL DEFAULT 0 CHECK (quantity_may_be_cut IN (0, 1)),
        active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
        user_note TEXT NOT NULL DEFAULT '',
        fills_seen INTEGER NOT NULL DEFAULT 0 CHECK (fills_seen >= 0),
        updated_at INTEGER NOT NULL
      ) STRICT;
    `,
};
