import type { Migration } from './migration.ts';

export const migration: Migration = {
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
};
