import { basename } from 'node:path';
import type { BackupView } from '../../../src-shared/profile.ts';
import { DomainError, quoted } from '../errors.ts';
import { backupNamed, type Backup } from './backup-files.ts';
import { describeBackup } from './backup-contents.ts';
import { quickCheck } from '../store/backup-db.ts';

/**
 * The backup the trader chose to restore, checked before anything is
 * touched: one of this profile's, readable, not from a newer data version,
 * passing SQLite's quick check, and, when it holds nothing, confirmed as
 * meant (restoring an empty backup is a fresh start in disguise).
 */
export interface ChosenBackup {
  readonly backup: Backup;
  readonly view: BackupView;
}

export interface BackupChoice {
  /** The backup's file name, as the list gave it. */
  readonly name?: string | undefined;
  /** The trader confirmed restoring a backup that holds nothing. */
  readonly confirmEmpty?: boolean | undefined;
}

export function chooseBackup(homePath: string, choice: BackupChoice): ChosenBackup {
  if (!choice.name) throw new DomainError('invalid', 'Choose which backup to restore');
  const backup = backupNamed(homePath, basename(choice.name));
  if (!backup || basename(choice.name) !== choice.name) throw new DomainError('not_found', `There is no backup ${quoted(choice.name)} of this profile; the list may be out of date`);
  const view = describeBackup(backup);
  const of = `The backup of ${whenOf(backup.takenAt)}`;
  if (view.refusal !== null) throw new DomainError('conflict', `${of} cannot be restored. ${view.refusal}`);
  if (view.empty && choice.confirmEmpty !== true) {
    throw new DomainError('conflict', `${of} is empty: it holds no listings, buy orders, drafts or trades, so restoring it is the same as starting fresh. Confirm that you mean it to restore it anyway`);
  }
  const found = quickCheck(backup.path);
  if (found !== 'ok') throw new DomainError('conflict', `${of} is damaged (${found}) and cannot be restored. Choose another`);
  return { backup, view };
}

/** `2025-11-25 08:00 UTC`: a backup's time in a sentence main writes (the screens show it in the trader's own time). */
export const whenOf = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
