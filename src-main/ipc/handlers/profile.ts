import type { BackupsList, ProfileProblem, RecoverInput, RestoreBackupResult } from '../../../src-shared/profile.ts';
import { DomainError } from '../../core/errors.ts';
import type { Handlers } from '../router.ts';

type ProfileHandlers = Pick<Handlers, 'profile:problem' | 'profile:recover'>;
type BackupHandlers = Pick<Handlers, 'backups:list' | 'backups:restore'>;

/** The profile channels of a desk that opened: there is no problem, and nothing to recover. */
export function openProfileHandlers(): ProfileHandlers {
  return {
    'profile:problem': () => ({ problem: null }),
    'profile:recover': () => {
      throw new DomainError('conflict', 'The profile is open: there is nothing to recover');
    },
  };
}

/** What the recovery router needs: the problem as it stands, and the choice carried out (opened, or the problem it still has). */
export interface ProfileRecovery {
  problem(): ProfileProblem | null;
  recover(input: RecoverInput): Promise<{ opened: boolean; problem: ProfileProblem | null }>;
}

/** The profile channels while the profile could not be opened: the recovery screen's two calls. */
export function recoveryHandlers(recovery: ProfileRecovery): ProfileHandlers {
  return {
    'profile:problem': () => ({ problem: recovery.problem() }),
    'profile:recover': (input) => recovery.recover(input),
  };
}

/**
 * The open profile's backups as the host of the desk keeps them: the data
 * worker, which can close the desk, put a backup in its place and open it
 * again (worker/profile-backups.ts).
 */
export interface BackupsHost {
  list(): BackupsList;
  restore(input: { backup: string; confirmEmpty?: true | undefined }): Promise<RestoreBackupResult>;
}

/** Settings' backups: answered by the host, or refused where the desk runs without one. */
export function backupHandlers(host: BackupsHost | undefined): BackupHandlers {
  const missing = () => new DomainError('conflict', 'Backups are listed and restored by the app’s data worker, which does not run here');
  return {
    'backups:list': () => {
      if (!host) throw missing();
      return host.list();
    },
    'backups:restore': (input) => {
      if (!host) throw missing();
      return host.restore(input);
    },
  };
}
