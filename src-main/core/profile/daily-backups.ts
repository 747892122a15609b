import type { Clock } from '../clock.ts';
import type { Store } from '../store/db.ts';
import { backupDue, backupOnline, type Backup, type BackupOptions } from './backups.ts';

/**
 * The daily backup of an open profile: one shortly after open when the
 * newest is a day old (or there is none; not at once, so it does not compete
 * with the first screens), then checked again every hour, so a desk that
 * lives in the tray for weeks keeps a fresh one. A backup that fails (a
 * full disk, a copy that does not pass SQLite's check) is told and tried at
 * the next check; the profile is untouched.
 */
export interface DailyBackups {
  /** Waits for a backup under way, and makes no more (before the store closes). */
  stop(): Promise<void>;
}

export interface DailyBackupsDeps {
  readonly store: Pick<Store, 'db' | 'path'>;
  readonly clock: Clock;
  /** How often whether one is due is checked; default an hour. */
  readonly checkEveryMs?: number;
  /** The first check, after open; default 30 s. */
  readonly firstCheckAfterMs?: number;
  readonly onBackup?: (backup: Backup) => void;
  readonly onError?: (error: unknown) => void;
  /** Passed to each backup (tests damage the written copy). */
  readonly backupOptions?: BackupOptions;
}

export function startDailyBackups(deps: DailyBackupsDeps): DailyBackups {
  const stopped = new AbortController();
  const loop = (async () => {
    await deps.clock.sleep(deps.firstCheckAfterMs ?? 30_000, stopped.signal).catch(() => undefined);
    while (!stopped.signal.aborted) {
      const now = deps.clock.now();
      if (backupDue(deps.store.path, now)) {
        try {
          // Made whether or not anyone listens: the app passes no listener of its own.
          const made = await backupOnline(deps.store.db, deps.store.path, now, deps.backupOptions);
          deps.onBackup?.(made);
        } catch (error) {
          if (!stopped.signal.aborted) deps.onError?.(error);
        }
      }
      await deps.clock.sleep(deps.checkEveryMs ?? 60 * 60 * 1000, stopped.signal).catch(() => undefined);
    }
  })();
  return {
    async stop() {
      stopped.abort();
      await loop;
    },
  };
}
