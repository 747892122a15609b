import type { Migration } from './migration.ts';

export const migration: Migration = {
  version: 8,
  name: 'bounds on a created buy order\'s quantity',
  sql: `
      -- Balance readings around a buy order's create bound what the service
      -- stored: when they disagree, quantity is the most the order can hold
      -- (quantity_may_be_cut = 1) and this the least; NULL when nothing
      -- narrower than 0..quantity is known, or the quantity is exact.
      ALTER TABLE buy_orders ADD COLUMN quantity_at_least INTEGER
        CHECK (quantity_at_least IS NULL OR (quantity_at_least >= 0 AND quantity_at_least <= quantity));
    `,
};
