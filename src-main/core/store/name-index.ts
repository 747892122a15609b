import { z } from 'zod';
import { schemaVersion } from '../items/schema.ts';
import type { Store } from './db.ts';
import type { SettingsRepo } from './settings-repo.ts';
import { skusOf } from './typed-rows.ts';

/**
 * The store's `item_names` table, kept filled for the SKUs the ledger and the
 * drafts hold, so the tables search and sort by name in SQL. Names come from
 * the game's schema (core/items); a SKU is named once, and the whole table is
 * named afresh when the schema's version changes.
 */
export interface NameIndex {
  /** Names every SKU of the ledger and the drafts that has none yet; cheap when none is missing. */
  sync(): void;
}

export interface NameSource {
  /** The name lower-cased, as the filter compares it. */
  searchName(sku: string): string;
  /** The schema data's version. */
  version(): string;
}

const VERSION_KEY = 'items.nameIndexVersion';

export function createNameIndex(store: Pick<Store, 'db' | 'transaction'>, settings: SettingsRepo, names: NameSource): NameIndex {
  const { db } = store;
  const missing = db.prepare(`
    SELECT sku FROM (
      SELECT DISTINCT sku FROM listings WHERE sku != ''
      UNION SELECT sku FROM buy_orders
      UNION SELECT DISTINCT sku FROM draft_entries WHERE sku IS NOT NULL AND sku != ''
    ) s WHERE NOT EXISTS (SELECT 1 FROM item_names n WHERE n.sku = s.sku)`);
  const insert = db.prepare('INSERT OR REPLACE INTO item_names (sku, search) VALUES (?, ?)');
  let checked = false;
  return {
    sync() {
      if (!checked) {
        const version = names.version();
        if (settings.get(VERSION_KEY, z.string().nullable(), null) !== version) {
          store.transaction(() => {
            db.exec('DELETE FROM item_names');
            settings.set(VERSION_KEY, version);
          });
        }
        checked = true;
      }
      const skus = skusOf('item_names', missing.all());
      if (skus.length === 0) return;
      store.transaction(() => {
        for (const sku of skus) insert.run(sku, names.searchName(sku));
      });
    },
  };
}

/** The name index over the game's schema, for the ledger queries of a store. */
export function schemaNameIndex(store: Pick<Store, 'db' | 'transaction'>, settings: SettingsRepo, names: Pick<NameSource, 'searchName'>): NameIndex {
  return createNameIndex(store, settings, { searchName: (sku) => names.searchName(sku), version: schemaVersion });
}
