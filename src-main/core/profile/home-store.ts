import { z } from 'zod';
import type { Clock } from '../clock.ts';
import { openStore, StoreOpenError, type Store } from '../store/db.ts';
import { createSettingsRepo } from '../store/settings-repo.ts';
import { APP_VERSION_KEY } from './backup-contents.ts';
import { backupNow, type Backup } from './backups.ts';
import { startDailyBackups, type DailyBackups } from './daily-backups.ts';

/**
 * The profile's home database (settings and the live ledger), opened with
 * its backups: one with `VACUUM INTO` before migrations change it, and the
 * daily one while it is open. It notes the app's version in the profile, so
 * each backup says which version wrote it. Stop the backups before closing
 * the store.
 */
export interface HomeStoreOptions {
  readonly clock: Clock;
  /** The app's version, noted in the profile. */
  readonly version: string;
  readonly onBackup?: (backup: Backup) => void;
  readonly onBackupError?: (error: unknown) => void;
}

export function openHomeStore(path: string, options: HomeStoreOptions): { store: Store; backups: DailyBackups } {
  const { clock } = options;
  const store = openStore(path, { clock, beforeMigrate: (db) => void backupNow(db, path, clock.now(), { kind: 'before-migration' }) });
  try {
    const settings = createSettingsRepo(store);
    if (settings.get(APP_VERSION_KEY, z.string(), '') !== options.version) settings.set(APP_VERSION_KEY, options.version);
  } catch (error) {
    store.close();
    throw new StoreOpenError(path, error);
  }
  const backups = startDailyBackups({
    store, clock,
    ...(options.onBackup ? { onBackup: options.onBackup } : {}),
    ...(options.onBackupError ? { onError: options.onBackupError } : {}),
  });
  return { store, backups };
}
