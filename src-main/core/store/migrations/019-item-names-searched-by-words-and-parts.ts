import type { Migration } from './migration.ts';

/**
 * Item names searched as traders type them: every SKU's folded words (its
 * name's, its quality's, "craftable", ...: core/items/search-words.ts) in an
 * FTS5 index, so a search of words in any order, each the start of a word,
 * is answered by the index; and each SKU's parts (quality, effect,
 * killstreak tier, craftability, wear, ...) beside its name, so the ledger
 * tables filter by them as the inventory picker does. The names are named
 * afresh (store/name-index.ts fills both tables for the SKUs the desk holds).
 */
export const migration: Migration = {
  version: 19,
  name: 'item names searched by words and parts',
  sql: `
      DROP TABLE item_names;
      CREATE TABLE item_names (
        sku TEXT PRIMARY KEY,
        search TEXT NOT NULL,
        quality INTEGER,
        strange INTEGER NOT NULL DEFAULT 0 CHECK (strange IN (0, 1)),
        effect INTEGER,
        killstreak INTEGER NOT NULL DEFAULT 0 CHECK (killstreak BETWEEN 0 AND 3),
        australium INTEGER NOT NULL DEFAULT 0 CHECK (australium IN (0, 1)),
        festivized INTEGER NOT NULL DEFAULT 0 CHECK (festivized IN (0, 1)),
        craftable INTEGER NOT NULL DEFAULT 1 CHECK (craftable IN (0, 1)),
        wear INTEGER
      ) STRICT, WITHOUT ROWID;
      -- The words are folded before they are stored, so the tokenizer only splits them at spaces.
      CREATE VIRTUAL TABLE item_words USING fts5(sku UNINDEXED, words, detail = none, prefix = '1 2 3', tokenize = 'unicode61 remove_diacritics 0');
    `,
};
