import type { Migration } from './migration.ts';

/**
 * What each apply changed, row by row, so it can be undone: the ledger is
 * overwritten once a change is done, so the values before are kept here when
 * it is settled (see apply/applied-rows.ts).
 */
export const migration: Migration = {
  version: 14,
  name: 'what each apply changed, for an undo',
  sql: `
      -- One row per ledger row an apply run changed: a listing (L, by asset ID)
      -- or a buy order (B, by SKU). The before_ values are the row as the run
      -- first found it (before_price NULL: it did not exist, the run created
      -- it); the after_ values are the row as the run last left it
      -- (after_price NULL: the run deleted it).
      CREATE TABLE applied_rows (
        run_id INTEGER NOT NULL REFERENCES apply_runs (run_id) ON DELETE CASCADE,
        slot TEXT NOT NULL CHECK (slot IN ('L', 'B')),
        key TEXT NOT NULL,
        account TEXT NOT NULL,
        sku TEXT NOT NULL DEFAULT '',
        before_listing_id TEXT,
        before_price INTEGER CHECK (before_price IS NULL OR before_price > 0),
        before_promoted INTEGER CHECK (before_promoted IS NULL OR before_promoted IN (0, 1)),
        before_quantity INTEGER CHECK (before_quantity IS NULL OR before_quantity > 0),
        before_active INTEGER CHECK (before_active IS NULL OR before_active IN (0, 1)),
        before_note TEXT,
        after_listing_id TEXT,
        after_price INTEGER CHECK (after_price IS NULL OR after_price > 0),
        after_promoted INTEGER CHECK (after_promoted IS NULL OR after_promoted IN (0, 1)),
        after_quantity INTEGER CHECK (after_quantity IS NULL OR after_quantity > 0),
        after_active INTEGER CHECK (after_active IS NULL OR after_active IN (0, 1)),
        after_note TEXT,
        -- The change that last touched it, settled done at this time.
        kind TEXT NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (run_id, slot, key)
      ) STRICT, WITHOUT ROWID;
    `,
};
