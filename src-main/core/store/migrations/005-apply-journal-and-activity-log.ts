import type { Migration } from './migration.ts';

export const migration: Migration = {
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
};
