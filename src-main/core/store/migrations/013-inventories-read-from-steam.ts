import type { Migration } from './migration.ts';

export const migration: Migration = {
  version: 13,
  name: 'inventories read from Steam',
  sql: `
      -- One row per account whose inventory was asked for: which read's items are
      -- the current copy (generation), when that read ended, how many items Steam
      -- counted, and why the last attempt failed (private, unreachable, ...),
      -- cleared by the next read that succeeds.
      CREATE TABLE inventory_reads (
        account TEXT PRIMARY KEY REFERENCES accounts (account_id) ON DELETE CASCADE,
        generation INTEGER NOT NULL DEFAULT 0,
        read_at INTEGER,
        total INTEGER CHECK (total >= 0),
        problem_kind TEXT,
        problem TEXT,
        problem_at INTEGER,
        CHECK ((problem_kind IS NULL) = (problem IS NULL))
      ) STRICT;
      -- The items of each read, as tf2-item-format and the game's schema named
      -- them. A read writes its pages under a new generation and swaps it in at
      -- the end, so a read cut short leaves the last complete copy in place.
      -- position is Steam's order (newest first); search is the lower-cased name,
      -- SKU and asset ID, for the picker's search; sku is '' for an item that
      -- could not be read as one (its name is then Steam's).
      CREATE TABLE inventory_items (
        account TEXT NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
        generation INTEGER NOT NULL,
        asset_id TEXT NOT NULL CHECK (asset_id GLOB '[0-9]*' AND asset_id NOT GLOB '*[^0-9]*'),
        position INTEGER NOT NULL,
        sku TEXT NOT NULL,
        name TEXT NOT NULL,
        search TEXT NOT NULL,
        quality INTEGER,
        strange INTEGER NOT NULL CHECK (strange IN (0, 1)),
        effect INTEGER,
        killstreak INTEGER NOT NULL CHECK (killstreak BETWEEN 0 AND 3),
        wear INTEGER,
        australium INTEGER NOT NULL CHECK (australium IN (0, 1)),
        festivized INTEGER NOT NULL CHECK (festivized IN (0, 1)),
        craftable INTEGER NOT NULL CHECK (craftable IN (0, 1)),
        tradable INTEGER NOT NULL CHECK (tradable IN (0, 1)),
        UNIQUE (account, generation, asset_id)
      ) STRICT;
      CREATE INDEX inventory_items_order ON inventory_items (account, generation, position);
      CREATE INDEX inventory_items_asset ON inventory_items (asset_id);
    `,
};
