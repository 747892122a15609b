import type { DatabaseSync } from 'node:sqlite';
import { z } from 'zod';
import type { Migration } from './migration.ts';
import { lazySchema } from '../../../../src-shared/lazy-schema.ts';

/**
 * A draft's changes become columns the store can query: pages lay the draft
 * over the ledger by joining on (slot, key), counts and bulk edits are SQL
 * over them, and nothing has to be read whole into memory to answer. The
 * JSON bodies are split into columns here; bulk patches stored by earlier
 * versions are folded in first (see foldStoredPatches), then their table goes.
 */
export const migration: Migration = {
  version: 10,
  name: 'draft changes as columns',
  sql: `
      CREATE TABLE draft_entries (
        draft_id TEXT NOT NULL REFERENCES drafts (draft_id) ON DELETE CASCADE,
        -- L: a listing's create or edit, LD: its delete, LA: delete-all of listings; B, BD, BA for buy orders.
        slot TEXT NOT NULL CHECK (slot IN ('L', 'LD', 'LA', 'B', 'BD', 'BA')),
        -- The asset ID (L, LD) or SKU (B, BD); empty for a delete-all.
        key TEXT NOT NULL,
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('listing.create', 'listing.edit', 'listing.delete', 'listing.deleteAll',
          'buyOrder.create', 'buyOrder.edit', 'buyOrder.delete', 'buyOrder.deleteAll')),
        account TEXT,
        listing_id TEXT,
        -- The item's SKU when the change knows it (always for buy orders).
        sku TEXT,
        price INTEGER CHECK (price IS NULL OR price > 0),
        promoted INTEGER CHECK (promoted IS NULL OR promoted IN (0, 1)),
        quantity INTEGER CHECK (quantity IS NULL OR quantity > 0),
        active INTEGER CHECK (active IS NULL OR active IN (0, 1)),
        -- NULL: the change leaves the note as it is.
        user_note TEXT,
        game TEXT,
        active_only INTEGER CHECK (active_only IS NULL OR active_only IN (0, 1)),
        replaced INTEGER CHECK (replaced IS NULL OR replaced >= 0),
        if_exists INTEGER CHECK (if_exists IS NULL OR if_exists IN (0, 1)),
        status TEXT NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'queued', 'sent', 'done', 'failed', 'unknown', 'dropped')),
        error TEXT,
        batch_id TEXT,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (draft_id, slot, key),
        CHECK ((kind IN ('listing.create', 'listing.edit', 'buyOrder.create', 'buyOrder.edit')) = (price IS NOT NULL)),
        CHECK ((slot IN ('LA', 'BA')) = (key = ''))
      ) STRICT, WITHOUT ROWID;
      INSERT INTO draft_entries (draft_id, slot, key, seq, kind, account, listing_id, sku, price, promoted, quantity, active,
          user_note, game, active_only, replaced, if_exists, status, error, batch_id, updated_at)
        SELECT draft_id,
          CASE WHEN instr(target, ':') > 0 THEN substr(target, 1, instr(target, ':') - 1) ELSE target END,
          CASE WHEN instr(target, ':') > 0 THEN substr(target, instr(target, ':') + 1) ELSE '' END,
          seq, body ->> '$.kind', body ->> '$.account', body ->> '$.listing_id', body ->> '$.sku', body ->> '$.price',
          body ->> '$.promoted', body ->> '$.quantity', body ->> '$.active', body ->> '$.user_note', body ->> '$.game',
          body ->> '$.active_only', body ->> '$.replaced', body ->> '$.if_exists', status, error, batch_id, updated_at
        FROM draft_changes;
      DROP TABLE draft_changes;
      DROP TABLE draft_patches;
      -- Few indexes on purpose: a bulk edit writes tens of thousands of rows, and each index is written again for each.
      CREATE INDEX draft_entries_status ON draft_entries (draft_id, status);
      CREATE INDEX draft_entries_batch ON draft_entries (batch_id) WHERE batch_id IS NOT NULL;
      -- The next sequence number of each draft, so an edit never scans the draft for it.
      ALTER TABLE drafts ADD COLUMN next_seq INTEGER NOT NULL DEFAULT 1;
      UPDATE drafts SET next_seq = 1 + coalesce((SELECT max(seq) FROM draft_entries e WHERE e.draft_id = drafts.draft_id), 0);
      -- Pages filter and sort the ledger by these.
      CREATE INDEX listings_sku ON listings (sku);
      CREATE INDEX listings_price ON listings (price);
      CREATE INDEX buy_orders_price ON buy_orders (price);
      -- "Check ledger" lists the rows in doubt: few, found without reading the ledger.
      CREATE INDEX listings_in_doubt ON listings (state) WHERE state != 'active' OR id_unknown = 1;
    `,
  before: foldStoredPatchesSql,
};

/**
 * Bulk patches an earlier version stored and had not yet folded into rows
 * (a quit right after a bulk edit): each sets fields on its targets, oldest
 * first, over the change already there or an edit built from the ledger,
 * leaving changes newer than itself and changes being applied alone. Runs in
 * the migration's transaction, before the bodies are split into columns.
 */
const storedPatch = lazySchema(() => z.object({ patch_id: z.number(), draft_id: z.string(), seq: z.number(), body: z.string(), created_at: z.number() }));

function foldStoredPatchesSql(db: DatabaseSync): void {
  const patches = z.array(storedPatch).parse(db.prepare('SELECT patch_id, draft_id, seq, body, created_at FROM draft_patches ORDER BY draft_id, seq').all());
  const fold = db.prepare(`
    INSERT INTO draft_changes (draft_id, target, seq, body, status, error, batch_id, updated_at)
    SELECT :draft, t.target, :seq,
      CASE WHEN c.body IS NOT NULL AND c.status NOT IN ('done', 'dropped')
        THEN json_patch(c.body, t.fields)
        ELSE json_patch(t.base, t.fields) END,
      'pending', NULL, NULL, :at
    FROM (
      SELECT i.value AS id, :slot || ':' || i.value AS target,
        json_patch(:set, CASE WHEN p.value IS NULL THEN '{}' ELSE json_object('price', p.value) END) AS fields,
        CASE WHEN :slot = 'L' THEN (SELECT json_object('kind', 'listing.edit', 'account', l.account, 'asset_id', l.asset_id,
              'listing_id', l.listing_id, 'price', l.price, 'promoted', l.promoted) FROM listings l WHERE l.asset_id = i.value AND l.listing_id IS NOT NULL)
          ELSE (SELECT json_object('kind', 'buyOrder.edit', 'account', b.account, 'sku', b.sku, 'price', b.price, 'quantity', b.quantity,
              'active', b.active) FROM buy_orders b WHERE b.sku = i.value) END AS base
      FROM json_each(:body, '$.ids') i LEFT JOIN json_each(:body, '$.prices') p ON p.key = i.key
    ) t
    LEFT JOIN draft_changes c ON c.draft_id = :draft AND c.target = t.target
    WHERE (c.body IS NOT NULL AND c.status NOT IN ('done', 'dropped') AND c.seq < :seq AND c.status NOT IN ('queued', 'sent', 'unknown')
        AND c.body ->> '$.kind' IN ('listing.create', 'listing.edit', 'buyOrder.create', 'buyOrder.edit'))
      OR ((c.body IS NULL OR c.status IN ('done', 'dropped')) AND t.base IS NOT NULL)
    ON CONFLICT (draft_id, target) DO UPDATE SET seq = excluded.seq, body = excluded.body, status = 'pending',
      error = NULL, batch_id = NULL, updated_at = excluded.updated_at`);
  for (const p of patches) {
    const body = JSON.parse(p.body) as { domain: 'listings' | 'buyOrders'; set: Record<string, unknown> };
    // A patch sets the same fields on every row a change of its kind has: a note or a flag, never the kind.
    fold.run({ draft: p.draft_id, seq: p.seq, at: p.created_at, slot: body.domain === 'listings' ? 'L' : 'B', set: JSON.stringify(body.set), body: p.body });
  }
}
