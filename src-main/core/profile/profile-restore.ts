import { rmSync } from 'node:fs';
import { withDatabase } from '../store/backup-db.ts';
import type { Backup } from './backup-files.ts';
import type { ChosenBackup } from './backup-choice.ts';
import { backupNow, placeStaged, stageBackup } from './backups.ts';
import { holdingProfileLock, type ProfileLockOptions } from './profile-lock.ts';

/**
 * Restoring a backup over a profile that was open, once its desk has
 * closed (so everything the trader did is in the file, and nothing writes
 * meanwhile), under the profile's lock: the chosen backup is checked and
 * copied beside the profile first (so nothing below can take it away),
 * then the profile as it is is backed up (`before-restore`, checked like
 * every backup), and only then is the copy put in the profile's place. A
 * failure before that last step leaves the profile as it was.
 */
export interface SwapOptions {
  readonly homePath: string;
  readonly chosen: ChosenBackup;
  readonly now: number;
  readonly lock: ProfileLockOptions;
}

/** Puts the chosen backup in place; the backup made of the profile just before. */
export function swapInBackup(options: SwapOptions): Backup {
  const { homePath } = options;
  return holdingProfileLock(options.lock, () => {
    const staged = stageBackup(options.chosen.backup.path, homePath);
    try {
      const saved = withDatabase(homePath, (db) => backupNow(db, homePath, options.now, { kind: 'before-restore' }));
      placeStaged(staged, homePath);
      return saved;
    } catch (error) {
      rmSync(staged, { force: true });
      throw error;
    }
  });
}
