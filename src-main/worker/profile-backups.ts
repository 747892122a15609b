import { describeBackup, describeBackups } from '../core/profile/backup-contents.ts';
import { chooseBackup } from '../core/profile/backup-choice.ts';
import type { Backup } from '../core/profile/backup-files.ts';
import { swapInBackup } from '../core/profile/profile-restore.ts';
import type { Clock } from '../core/clock.ts';
import { DomainError } from '../core/errors.ts';
import type { BackupsHost } from '../ipc/handlers/profile.ts';

/**
 * The open profile's backups as Settings reaches them, kept by the data
 * worker because a restore must close the desk and open it again, with the
 * same machinery the recovery screen uses. Restoring: the choice is checked
 * while the desk runs (a refusal changes nothing), then the desk closes,
 * the profile as it is is backed up and the chosen backup put in its place
 * (core/profile/profile-restore.ts), and the desk opens again on it. When
 * the swap fails the desk opens again on the profile as it was.
 */
export interface ProfileBackupsDeps {
  readonly homePath: string;
  readonly lockPath: string;
  /** The token the worker holds the profile's lock under. */
  readonly lockToken: string;
  readonly clock: Clock;
  /** The applies running on the desk served now (none while no desk is served). */
  appliesRunning(): number;
  /** Closes the served desk (its store checkpointed, its lock let go). */
  close(): Promise<void>;
  /** Opens the profile again and serves it (or its recovery screen, when it cannot be opened). */
  reopen(): Promise<void>;
}

export interface ProfileBackups extends BackupsHost {
  /** A daily backup was made: the failure said before is over. */
  made(backup: Backup): void;
  /** A daily backup failed: said in Settings until one is made. */
  failed(error: unknown): void;
}

export function createProfileBackups(deps: ProfileBackupsDeps): ProfileBackups {
  let problem: string | null = null;
  let restoring = false;
  return {
    made() {
      problem = null;
    },
    failed(error) {
      const reason = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
      problem = `The last daily backup failed (${reason}). It is tried again within the hour.`;
    },
    list: () => ({ backups: describeBackups(deps.homePath), problem }),
    async restore(input) {
      if (restoring) throw new DomainError('busy', 'A backup is being restored already; the desk opens again in a moment');
      const chosen = chooseBackup(deps.homePath, { name: input.backup, confirmEmpty: input.confirmEmpty });
      if (deps.appliesRunning() > 0) {
        throw new DomainError('conflict', 'An apply is running. Restore a backup when it has finished, or cancel it first');
      }
      restoring = true;
      try {
        let saved: Backup;
        try {
          await deps.close();
          saved = swapInBackup({ homePath: deps.homePath, chosen, now: deps.clock.now(), lock: { path: deps.lockPath, token: deps.lockToken, now: () => deps.clock.now() } });
        } catch (error) {
          // Nothing was put in place: the desk opens again on the profile as it was.
          await deps.reopen();
          const reason = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
          throw new DomainError('conflict', `The backup could not be restored (${reason}); the profile is as it was`);
        }
        await deps.reopen();
        return { restored: chosen.view, savedAs: describeBackup(saved) };
      } finally {
        restoring = false;
      }
    },
  };
}
