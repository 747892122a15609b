import type { Migration } from './migration.ts';

/**
 * Item names by SKU, lower-cased, so the ledger tables search and sort by
 * name in SQL. Filled from the game's schema for the SKUs the ledger and the
 * drafts hold (see store/item-names-table.ts); emptied when the schema changes.
 */
export const migration: Migration = {
  version: 11,
  name: 'item names by sku',
  sql: `
      CREATE TABLE item_names (
        sku TEXT PRIMARY KEY,
        search TEXT NOT NULL
      ) STRICT, WITHOUT ROWID;
    `,
};
