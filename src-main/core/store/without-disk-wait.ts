import { syncFile } from '../whole-file.ts';
import type { Store } from './db.ts';

/**
 * Runs `fn` (its writes in transactions of their own) committing without
 * waiting for the disk: synchronous=NORMAL for its span, FULL again after.
 * For writes that are not yet the trader's data, such as the parts of a job
 * whose last write makes them so: that write waits for the disk as every
 * write does, and the write-ahead log it syncs holds the parts before it.
 * Until then a power cut loses only the unfinished job; the WAL keeps the
 * file whole. Nothing else writes meanwhile: `fn` is synchronous.
 */
export function withoutDiskWait<T>(store: Pick<Store, 'db'>, fn: () => T): T {
  store.db.exec('PRAGMA synchronous = NORMAL');
  try {
    return fn();
  } finally {
    store.db.exec('PRAGMA synchronous = FULL');
  }
}

/**
 * Waits for the disk once for everything committed so far: what
 * `withoutDiskWait` committed is in the write-ahead log (a checkpoint syncs
 * what it moves into the database), so one sync of that file makes it as
 * durable as commits at synchronous=FULL would have. For a job whose parts
 * are each the trader's data and whose end has no write of its own to wait.
 */
export function waitForDisk(store: Pick<Store, 'path'>): void {
  // No log (an in-memory store, or none since the last checkpoint): nothing waits in one; the checkpoint synced the database.
  if (store.path !== ':memory:') syncFile(`${store.path}-wal`);
}
