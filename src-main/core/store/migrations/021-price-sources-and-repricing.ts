import type { Migration } from './migration.ts';

/**
 * Price sources and repricing. A source (pricedb.io, or the trader's own
 * list as a CSV file or an https URL) keeps, per SKU, its buy and sell
 * prices in cents beside what it said (keys and refined metal), when it
 * priced them and when the desk read them; a source that is down keeps its
 * last prices, and their age says how stale they are. Rules say how a SKU
 * (or everything a filter matches) follows a source. A reprice writes its
 * changes into a draft and keeps, per row, why it moved or why it could not
 * (`reprice_rows`, gone with the draft); each reprice, by hand or on the
 * schedule, is a run with what became of it.
 */
export const migration: Migration = {
  version: 21,
  name: 'price sources and repricing',
  sql: `
      CREATE TABLE price_sources (
        source_id TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('pricedb', 'list')),
        config TEXT NOT NULL,
        read_at INTEGER,
        problem TEXT,
        problem_at INTEGER,
        created_at INTEGER NOT NULL
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE source_prices (
        source_id TEXT NOT NULL REFERENCES price_sources (source_id) ON DELETE CASCADE,
        sku TEXT NOT NULL,
        buy INTEGER,
        sell INTEGER,
        -- What the source said, as it said it (JSON: keys and metal, or the list's cells).
        original TEXT NOT NULL,
        priced_at INTEGER NOT NULL,
        read_at INTEGER NOT NULL,
        -- Each side's price before it last changed (null: it has not changed since first read): a jump is told from a drift.
        prev_buy INTEGER,
        prev_sell INTEGER,
        PRIMARY KEY (source_id, sku)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE reprice_rules (
        rule_id INTEGER PRIMARY KEY,
        position INTEGER NOT NULL,
        rule TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE reprice_runs (
        run_id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('now', 'scheduled')),
        state TEXT NOT NULL CHECK (state IN ('building', 'built', 'applying', 'applied', 'failed')),
        started_at INTEGER NOT NULL,
        finished_at INTEGER,
        draft_id TEXT,
        held_draft_id TEXT,
        apply_run_id INTEGER,
        changed INTEGER NOT NULL DEFAULT 0,
        marked INTEGER NOT NULL DEFAULT 0,
        held INTEGER NOT NULL DEFAULT 0,
        unchanged INTEGER NOT NULL DEFAULT 0,
        problem TEXT
      ) STRICT;
      CREATE TABLE reprice_rows (
        run_id INTEGER NOT NULL REFERENCES reprice_runs (run_id) ON DELETE CASCADE,
        domain TEXT NOT NULL CHECK (domain IN ('listings', 'buyOrders')),
        key TEXT NOT NULL,
        sku TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('change', 'held')),
        rule_id INTEGER,
        before INTEGER,
        after INTEGER,
        reason TEXT NOT NULL,
        -- What the price guard says of the change (null: nothing).
        mark TEXT,
        PRIMARY KEY (run_id, domain, key)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX reprice_rows_outcome ON reprice_rows (run_id, outcome, domain, key);
    `,
};
