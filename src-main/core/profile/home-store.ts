import type { Clock } from '../clock.ts';
import { openStore, type Store } from '../store/db.ts';
import { backupNow } from './backups.ts';
import { startDailyBackups, type DailyBackups } from './daily-backups.ts';

/**
 * The profile's home database (settings and the live ledger), opened with
 * its backups: one with `VACUUM INTO` before migrations change it, and the
 * daily one while it is open. Stop the backups before closing the store.
 */
export function openHomeStore(path: string, clock: Clock, onBackupError?: (error: unknown) => void): { store: Store; backups: DailyBackups } {
  const store = openStore(path, { clock, beforeMigrate: (db) => void backupNow(db, path, clock.now()) });
  const backups = startDailyBackups({ store, clock, ...(onBackupError ? { onError: onBackupError } : {}) });
  return { store, backups };
}
