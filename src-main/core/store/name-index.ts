import type { StatementSync } from 'node:sqlite';
import { z } from 'zod';
import type { ItemDescription } from '../items/describe-sku.ts';
import { schemaVersion } from '../items/schema.ts';
import { SEARCH_WORDS_VERSION } from '../items/search-words.ts';
import type { Store } from './db.ts';
import type { SettingsRepo } from './settings-repo.ts';
import { toSqlBool } from './sql.ts';
import { skusOf } from './typed-rows.ts';

/**
 * The store's names tables (migration 19), kept filled for the SKUs the desk
 * holds, so every table searches, filters and sorts by name in SQL:
 * `item_names` (each SKU's name lower-cased, for the sort, and its parts, for
 * the filters) and `item_words` (each SKU's folded words, for the search:
 * item-match.ts). Names come from the game's schema (core/items); a SKU is
 * named once, and the whole table is named afresh when the schema's version
 * or the way words are folded changes.
 */
export interface NameIndex {
  /** Names every SKU of its tables that has none yet; cheap when none is missing. */
  sync(): void;
}

export interface NameSource {
  describe(sku: string): ItemDescription;
  /** The words a search finds the SKU by (core/items/search-words.ts). */
  searchWords(sku: string): string[];
  /** The schema data's version, with the words' own. */
  version(): string;
}

/** Which of the desk's tables an index names the SKUs of: each table names what it lists. */
export type NamedTables = 'ledger' | 'inventory' | 'history';

/**
 * Where a table's SKUs are read from. A source with a stamp is scanned again
 * only once its stamp moved: the ledger's rows gain a SKU only where rows may
 * have come (the store's ledgerRowsVersion), while a price or note written
 * leaves them as they were; reading all 50,000 listings' SKUs to find none
 * missing took about 4 ms at every change of the ledger or the draft.
 */
interface SkuSource {
  readonly sql: string;
  readonly stamp?: (store: StampedStore) => number;
}

type StampedStore = Pick<Store, 'db' | 'transaction' | 'ledgerRowsVersion'>;

const SKUS_OF: Readonly<Record<NamedTables, readonly SkuSource[]>> = {
  ledger: [
    { sql: "SELECT DISTINCT sku FROM listings WHERE sku != '' UNION SELECT sku FROM buy_orders", stamp: (store) => store.ledgerRowsVersion },
    // Read through the draft entries' SKU index (migration 24): a draft of price edits has none.
    { sql: "SELECT DISTINCT sku FROM draft_entries WHERE sku IS NOT NULL AND sku != ''" },
  ],
  inventory: [{ sql: "SELECT DISTINCT sku FROM inventory_items WHERE sku != ''" }],
  history: [{ sql: "SELECT DISTINCT sku FROM trade_history_items WHERE sku != ''" }],
};

const VERSION_KEY = 'items.nameIndexVersion';

export function createNameIndex(store: StampedStore, settings: SettingsRepo, names: NameSource, tables: readonly NamedTables[]): NameIndex {
  const { db } = store;
  const sources = tables.flatMap((t) => SKUS_OF[t]);
  // One statement for each set of sources a sync may scan (at most two here: with the stamped ones, or without).
  const missingOf = new Map<string, StatementSync>();
  const missing = (scanned: readonly SkuSource[]) => {
    const key = scanned.map((s) => sources.indexOf(s)).join(',');
    let statement = missingOf.get(key);
    if (!statement) {
      statement = db.prepare(`SELECT sku FROM (${scanned.map((s) => s.sql).join(' UNION ')}) s
        WHERE NOT EXISTS (SELECT 1 FROM item_names n WHERE n.sku = s.sku)`);
      missingOf.set(key, statement);
    }
    return statement;
  };
  // The stamp each stamped source had when it was last found fully named.
  const namedAt = new Map<SkuSource, number>();
  const insert = db.prepare(`INSERT OR REPLACE INTO item_names (sku, search, quality, strange, effect, killstreak, australium, festivized, craftable, wear)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertWords = db.prepare('INSERT INTO item_words (sku, words) VALUES (?, ?)');
  let checked = false;
  function nameAll(skus: readonly string[]): void {
    store.transaction(() => {
      for (const sku of skus) {
        const d = names.describe(sku);
        if (d.known) {
          insert.run(sku, d.name.toLowerCase(), d.quality.id, toSqlBool(d.strange), d.effect?.id ?? null, d.killstreak?.id ?? 0,
            toSqlBool(d.australium), toSqlBool(d.festivized), toSqlBool(d.craftable), d.wear?.id ?? null);
        } else {
          insert.run(sku, d.name.toLowerCase(), null, 0, null, 0, 0, 0, 1, null);
        }
        const words = names.searchWords(sku);
        if (words.length > 0) insertWords.run(sku, words.join(' '));
      }
    });
  }

  return {
    sync() {
      if (!checked) {
        const version = names.version();
        if (settings.get(VERSION_KEY, z.string().nullable(), null) !== version) {
          store.transaction(() => {
            db.exec('DELETE FROM item_names; DELETE FROM item_words;');
            settings.set(VERSION_KEY, version);
          });
        }
        checked = true;
      }
      const stamps = new Map(sources.flatMap((s) => (s.stamp ? [[s, s.stamp(store)] as const] : [])));
      const scanned = sources.filter((s) => !stamps.has(s) || namedAt.get(s) !== stamps.get(s));
      if (scanned.length === 0) return;
      const skus = skusOf('item_names', missing(scanned).all());
      if (skus.length > 0) nameAll(skus);
      for (const [source, stamp] of stamps) namedAt.set(source, stamp);
    },
  };
}

/** The name index over the game's schema for some of the desk's tables. */
export function schemaNameIndex(
  store: StampedStore, settings: SettingsRepo, names: Pick<NameSource, 'describe' | 'searchWords'>, tables: readonly NamedTables[],
): NameIndex {
  return createNameIndex(store, settings, {
    describe: (sku) => names.describe(sku),
    searchWords: (sku) => names.searchWords(sku),
    version: () => `${schemaVersion()}+words${SEARCH_WORDS_VERSION}`,
  }, tables);
}
