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
