import type { Migration } from './migration.ts';

/**
 * An apply queues its draft's changes a part at a time as it starts (one
 * statement for every change held the data worker about 100 ms at 47,000).
 * While a run's `queue_below` is set, the draft's pending and failed changes
 * made before the run started (sequence numbers below it) are still being
 * queued; a start after a crash finishes that before it plans a batch, since
 * a phase is planned only once the one before has nothing waiting.
 */
export const migration: Migration = {
  version: 17,
  name: 'runs queued in parts',
  sql: `
      ALTER TABLE apply_runs ADD COLUMN queue_below INTEGER;
    `,
};
