import type { Migration } from './migration.ts';

export const migration: Migration = {
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
};
