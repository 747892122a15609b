import type { Migration } from './migration.ts';

/**
 * What each item cost, first in, first out per SKU. A lot is units bought at
 * one unit price: an item line of a completed purchase (a buy order filled,
 * a listing bought), or a cost the trader set by hand or by CSV for units
 * the desk cannot know the cost of. A sale takes its units from the oldest
 * lots of its SKU; each part it took from a lot (or, when none was left,
 * from no lot: its cost unknown) is a row of `cost_uses`, with the source's
 * price of the SKU when the sale was counted. A completed trade is marked
 * `costed` once its lines are in; the partial index finds the rest at once.
 */
export const migration: Migration = {
  version: 20,
  name: 'what each item cost',
  sql: `
      CREATE TABLE cost_lots (
        lot_id INTEGER PRIMARY KEY,
        sku TEXT NOT NULL,
        origin TEXT NOT NULL CHECK (origin IN ('purchase', 'manual')),
        trade_type TEXT,
        trade_id TEXT,
        position INTEGER,
        -- When the units came in: a purchase's time in History; a manual lot's given time, 0 when it is from before the desk's records.
        acquired_at INTEGER NOT NULL,
        quantity INTEGER NOT NULL CHECK (quantity > 0),
        used INTEGER NOT NULL DEFAULT 0 CHECK (used >= 0 AND used <= quantity),
        unit_cost INTEGER NOT NULL CHECK (unit_cost >= 0),
        set_at INTEGER NOT NULL,
        CHECK ((origin = 'purchase') = (trade_id IS NOT NULL)),
        UNIQUE (trade_type, trade_id, position)
      ) STRICT;
      CREATE INDEX cost_lots_fifo ON cost_lots (sku, acquired_at, lot_id);
      CREATE TABLE cost_uses (
        trade_type TEXT NOT NULL,
        trade_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        part INTEGER NOT NULL,
        sku TEXT NOT NULL,
        account TEXT NOT NULL,
        sold_at INTEGER NOT NULL,
        quantity INTEGER NOT NULL CHECK (quantity > 0),
        unit_price INTEGER NOT NULL,
        lot_id INTEGER,
        -- Null: no lot was left, the cost of these units is unknown.
        unit_cost INTEGER,
        -- The default source's sell price of the SKU when the sale was counted (null: none known).
        source_price INTEGER,
        PRIMARY KEY (trade_type, trade_id, position, part)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX cost_uses_sold ON cost_uses (sold_at);
      CREATE INDEX cost_uses_sku ON cost_uses (sku, sold_at);
      ALTER TABLE trade_history ADD COLUMN costed INTEGER NOT NULL DEFAULT 0 CHECK (costed IN (0, 1));
      CREATE INDEX trade_history_uncosted ON trade_history (at) WHERE costed = 0 AND ending IN ('balance_moved', 'listing_sold');
    `,
};
