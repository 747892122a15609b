import type { ProfileProblem, RecoveryChoice } from '../../../src-shared/profile.ts';
import { systemClock } from '../clock.ts';
import { createDesk, type Desk, type DeskDeps } from '../desk/desk.ts';
import { profilePaths } from './profile-paths.ts';
import { DomainError } from '../errors.ts';
import { restoreBackup } from './backups.ts';
import { diagnoseOpenFailure } from './open-failure.ts';

/**
 * Opening the desk on its profile, with a way back when that fails: instead
 * of an exception (which ended the app without a word), the caller gets the
 * problem to show (open-failure.ts: a damaged or newer file is already moved
 * aside), and `recoverProfileDesk` carries out the trader's choice, then
 * opens again.
 */
export type ProfileOpening =
  | { readonly desk: Desk; readonly problem: null }
  | { readonly desk: null; readonly problem: ProfileProblem };

export interface ProfileOpeningDeps extends DeskDeps {
  /** The open failed: for the log, with the error as thrown. */
  readonly onOpenFailure?: (error: unknown) => void;
}

export async function openProfileDesk(deps: ProfileOpeningDeps): Promise<ProfileOpening> {
  try {
    return { desk: await createDesk(deps), problem: null };
  } catch (error) {
    deps.onOpenFailure?.(error);
    const clock = deps.clock ?? systemClock;
    const homePath = profilePaths(deps.dataDir, deps.profile ?? 'default').home;
    return { desk: null, problem: diagnoseOpenFailure(error, { homePath, now: clock.now() }) };
  }
}

/**
 * The trader's choice: `restore` copies the newest sound backup into the
 * profile's place (the damaged file is already aside), `fresh` opens with a
 * new, empty profile there, `retry` opens the profile as it is (once the
 * folder is writable, the disk has room, the other desk has closed). Refuses
 * a choice the problem does not offer.
 */
export async function recoverProfileDesk(deps: ProfileOpeningDeps, problem: ProfileProblem, choice: RecoveryChoice): Promise<ProfileOpening> {
  if (!problem.choices.includes(choice)) {
    throw new DomainError('invalid', `“${choice}” is not one of the choices for this profile (${problem.choices.join(', ')})`);
  }
  if (choice === 'restore') {
    if (!problem.backup) throw new DomainError('invalid', 'There is no backup of this profile to restore');
    try {
      restoreBackup(problem.backup.file, problem.file);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new DomainError('conflict', `The backup could not be put in place (${reason}); nothing was changed. Start fresh instead, or try again`);
    }
  }
  return openProfileDesk(deps);
}
