import type { Migration } from './migration.ts';

/**
 * A bulk edit is written a part at a time, so the heartbeat and the screens
 * never wait behind fifty thousand rows; its row here says one is under way.
 * Every row it wrote carries its sequence number, so a quit or a crash
 * between parts is finished at the next start by writing the rows of the
 * same selection that do not carry it yet (see core/bulk/bulk-writes.ts).
 */
export const migration: Migration = {
  version: 15,
  name: 'bulk edits written in parts',
  sql: `
      CREATE TABLE bulk_writes (
        draft_id TEXT PRIMARY KEY REFERENCES drafts (draft_id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        domain TEXT NOT NULL CHECK (domain IN ('listings', 'buyOrders')),
        -- The selection as the query that found it (its SQL and parameters), and the operation, as JSON.
        selection TEXT NOT NULL CHECK (json_valid(selection)),
        op TEXT NOT NULL CHECK (json_valid(op)),
        started_at INTEGER NOT NULL
      ) STRICT;
    `,
};
