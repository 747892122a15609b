import type { DatabaseSync } from 'node:sqlite';

/**
 * Numbered schema migrations, in code. The database's `user_version` is the
 * number of the last one applied; each runs in its own transaction, so a crash
 * mid-upgrade leaves the previous version intact. Append new migrations; never
 * edit one that has shipped.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts and settings',
    sql: `
      CREATE TABLE accounts (
        account_id TEXT PRIMARY KEY CHECK (account_id NOT GLOB '*[^0-9]*' AND length(account_id) BETWEEN 1 AND 20),
        kind TEXT NOT NULL CHECK (kind IN ('main', 'linked')),
        name TEXT NOT NULL DEFAULT '',
        trade_url TEXT,
        automated INTEGER NOT NULL DEFAULT 0 CHECK (automated IN (0, 1)),
        updated_at INTEGER NOT NULL
      ) STRICT;
      -- One API key acts for exactly one main account.
      CREATE UNIQUE INDEX accounts_one_main ON accounts (kind) WHERE kind = 'main';
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
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
  },
  {
    version: 3,
    name: 'pending trades and the seen set',
    sql: `
      CREATE TABLE pending_trades (
        trade_type TEXT NOT NULL CHECK (trade_type IN ('market', 'buy_order')),
        trade_id TEXT NOT NULL,
        status TEXT NOT NULL,
        body TEXT NOT NULL,
        first_seen_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (trade_type, trade_id)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE seen_trades (
        key TEXT PRIMARY KEY,
        status TEXT NOT NULL
      ) STRICT, WITHOUT ROWID;
    `,
  },
  {
    version: 4,
    name: 'drafts, their changes and unfolded bulk patches',
    sql: `
      CREATE TABLE drafts (
        draft_id TEXT PRIMARY KEY,
        name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      -- One row per target (see drafts/change.ts targetOf); body is the change as JSON.
      CREATE TABLE draft_changes (
        draft_id TEXT NOT NULL REFERENCES drafts (draft_id) ON DELETE CASCADE,
        target TEXT NOT NULL,
        seq INTEGER NOT NULL,
        body TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'queued', 'sent', 'done', 'failed', 'unknown', 'dropped')),
        error TEXT,
        batch_id TEXT,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (draft_id, target)
      ) STRICT;
      CREATE INDEX draft_changes_status ON draft_changes (draft_id, status);
      CREATE INDEX draft_changes_batch ON draft_changes (batch_id) WHERE batch_id IS NOT NULL;
      -- A bulk operation is stored as one row at once (fast and durable), then
      -- folded into draft_changes in small steps; see drafts/patches.ts.
      CREATE TABLE draft_patches (
        patch_id INTEGER PRIMARY KEY,
        draft_id TEXT NOT NULL REFERENCES drafts (draft_id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        body TEXT NOT NULL,
        created_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX draft_patches_draft ON draft_patches (draft_id, seq);
    `,
  },
  {
    version: 5,
    name: 'apply journal and activity log',
    sql: `
      CREATE TABLE apply_runs (
        run_id INTEGER PRIMARY KEY,
        draft_id TEXT NOT NULL REFERENCES drafts (draft_id) ON DELETE CASCADE,
        state TEXT NOT NULL CHECK (state IN ('running', 'finished', 'stopped', 'cancelled')),
        started_at INTEGER NOT NULL,
        finished_at INTEGER
      ) STRICT;
      -- Written before a batch is sent (state 'sent') and after its outcome:
      -- a 'sent' batch found on start has an unknown outcome. 'split': refused
      -- as a whole, its halves went on as new batches. 'resolved': the trader
      -- chose what to do about its unknown outcome.
      CREATE TABLE apply_batches (
        batch_id TEXT PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES apply_runs (run_id) ON DELETE CASCADE,
        parent_id TEXT REFERENCES apply_batches (batch_id) ON DELETE CASCADE,
        endpoint TEXT NOT NULL,
        proxy TEXT,
        phase INTEGER NOT NULL,
        input TEXT NOT NULL,
        targets TEXT NOT NULL,
        item_count INTEGER NOT NULL CHECK (item_count >= 1),
        state TEXT NOT NULL
          CHECK (state IN ('planned', 'sent', 'done', 'failed', 'unknown', 'split', 'resolved')),
        created_at INTEGER NOT NULL,
        sent_at INTEGER,
        outcome_at INTEGER,
        outcome TEXT
      ) STRICT;
      CREATE INDEX apply_batches_run_state ON apply_batches (run_id, state);
      -- Every request that changes something on the service, and its outcome.
      -- Never the key: only endpoint, account, targets and the outcome.
      CREATE TABLE activity_log (
        id INTEGER PRIMARY KEY,
        at INTEGER NOT NULL,
        endpoint TEXT NOT NULL,
        account TEXT,
        item_count INTEGER NOT NULL,
        targets TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('sent', 'done', 'failed', 'unknown_outcome', 'stopped')),
        error TEXT,
        batch_id TEXT,
        outcome_at INTEGER
      ) STRICT;
      CREATE INDEX activity_log_at ON activity_log (at);
      CREATE INDEX activity_log_batch ON activity_log (batch_id);
    `,
  },
  {
    version: 6,
    name: 'evidence about unknown outcomes',
    sql: `
      -- What the service said later about a change whose outcome is unknown
      -- (a create of the same asset refused as "already listed"), shown with
      -- the trader's choices. Removed with its batch.
      CREATE TABLE outcome_evidence (
        id INTEGER PRIMARY KEY,
        batch_id TEXT NOT NULL REFERENCES apply_batches (batch_id) ON DELETE CASCADE,
        target TEXT NOT NULL,
        at INTEGER NOT NULL,
        message TEXT NOT NULL
      ) STRICT;
      CREATE INDEX outcome_evidence_batch ON outcome_evidence (batch_id);
    `,
  },
  {
    version: 7,
    name: 'listings the service no longer holds, and notes in the activity log',
    sql: `
      -- A listing can be sold (in a trade still pending, then done) or gone from
      -- the service (removed on the website; an edit or delete said so): the
      -- state says which, with the reason and the trade. SQLite cannot widen a
      -- CHECK in place, so the table is rebuilt with its rows.
      CREATE TABLE listings_v7 (
        asset_id TEXT PRIMARY KEY,
        listing_id TEXT UNIQUE,
        id_unknown INTEGER NOT NULL DEFAULT 0 CHECK (id_unknown IN (0, 1)),
        sku TEXT NOT NULL DEFAULT '',
        price INTEGER NOT NULL CHECK (price > 0),
        promoted INTEGER NOT NULL CHECK (promoted IN (0, 1)),
        game TEXT NOT NULL,
        user_note TEXT NOT NULL DEFAULT '',
        account TEXT NOT NULL REFERENCES accounts (account_id),
        state TEXT NOT NULL DEFAULT 'active'
          CHECK (state IN ('active', 'inactive', 'sold', 'cancelled', 'sold_in_trade', 'not_on_service')),
        state_reason TEXT,
        trade_id TEXT,
        updated_at INTEGER NOT NULL,
        CHECK ((listing_id IS NULL) = (id_unknown = 1))
      ) STRICT;
      INSERT INTO listings_v7 (asset_id, listing_id, id_unknown, sku, price, promoted, game, user_note, account, state, updated_at)
        SELECT asset_id, listing_id, id_unknown, sku, price, promoted, game, user_note, account, state, updated_at FROM listings ORDER BY rowid;
      DROP TABLE listings;
      ALTER TABLE listings_v7 RENAME TO listings;
      CREATE INDEX listings_account ON listings (account);
      CREATE INDEX listings_trade ON listings (trade_id) WHERE trade_id IS NOT NULL;
      -- What the desk learnt that no request of its own did (a sale seen in the trades).
      ALTER TABLE activity_log ADD COLUMN note TEXT;
    `,
  },
  {
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
  },
  {
    version: 9,
    name: 'trades announced as needing action',
    sql: `
      -- Each trade and status the trader was told needs action (type:id:status),
      -- while the trade is pending, oldest first (seq): a restart does not tell again.
      CREATE TABLE announced_trades (
        key TEXT PRIMARY KEY,
        seq INTEGER NOT NULL
      ) STRICT, WITHOUT ROWID;
    `,
  },
];

export const LATEST_VERSION = MIGRATIONS.length;

/**
 * Applies every migration above the database's version, up to `to` (default:
 * all). Refuses a database written by a newer app rather than guessing.
 */
export function migrate(db: DatabaseSync, to: number = LATEST_VERSION): number {
  const current = userVersion(db);
  if (current > LATEST_VERSION) {
    throw new Error(`the profile database is version ${current}, newer than this app knows (${LATEST_VERSION})`);
  }
  for (const migration of MIGRATIONS) {
    if (migration.version <= current || migration.version > to) continue;
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(migration.sql);
      db.exec(`PRAGMA user_version = ${migration.version}`);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw new Error(`migration ${migration.version} (${migration.name}) failed: ${String(error)}`, { cause: error });
    }
  }
  return userVersion(db);
}

export function userVersion(db: DatabaseSync): number {
  const row = db.prepare('PRAGMA user_version').get() as { user_version?: number } | undefined;
  return Number(row?.user_version ?? 0);
}
