import { randomUUID } from '../node-crypto.ts';
import { existsSync } from 'node:fs';
import type { ProfileProblem, RecoverInput } from '../../../src-shared/profile.ts';
import { systemClock } from '../clock.ts';
import { createDesk, type Desk, type DeskDeps } from './desk.ts';
import { DomainError } from '../errors.ts';
import { chooseBackup } from '../profile/backup-choice.ts';
import { restoreBackup } from '../profile/backups.ts';
import { diagnoseOpenFailure, moveAside, problemOf } from '../profile/open-failure.ts';
import { holdingProfileLock } from '../profile/profile-lock.ts';
import { profilePaths } from '../profile/profile-paths.ts';
import { clearRecoveryMarker, readRecoveryMarker } from '../profile/recovery-marker.ts';

/**
 * Opening the desk on its profile, with a way back when that fails: instead
 * of an exception (which ended the app without a word), the caller gets the
 * problem to show (profile/open-failure.ts: a damaged or newer file is already moved
 * aside, and noted), and `recoverProfileDesk` carries out the trader's
 * choice, then opens again. While the note of a moved file is there, every
 * open answers the same problem, whoever opens (a new start, a restarted
 * data worker): only the trader's choice removes it.
 */
export type ProfileOpening =
  | { readonly desk: Desk; readonly problem: null }
  | { readonly desk: null; readonly problem: ProfileProblem };

export interface ProfileOpeningDeps extends DeskDeps {
  /** The open failed: for the log, with the error as thrown. */
  readonly onOpenFailure?: (error: unknown) => void;
}

export async function openProfileDesk(deps: ProfileOpeningDeps): Promise<ProfileOpening> {
  const clock = deps.clock ?? systemClock;
  const paths = profilePaths(deps.dataDir, deps.profile ?? 'default');
  const marker = readRecoveryMarker(paths.recovery, paths.home);
  if (marker) return { desk: null, problem: problemOf(marker, paths.home) };
  try {
    return { desk: await createDesk(deps), problem: null };
  } catch (error) {
    deps.onOpenFailure?.(error);
    return { desk: null, problem: diagnoseOpenFailure(error, { homePath: paths.home, markerPath: paths.recovery, now: clock.now() }) };
  }
}

/**
 * The trader's choice: `restore` copies the backup they chose into the
 * profile's place (the damaged file is already aside; one from a newer data
 * version is refused, an empty one needs `confirmEmpty`), `fresh` opens
 * with a new, empty profile there, `retry` opens the profile as it is (once
 * the folder is writable, the disk has room, the other desk has closed).
 * Refuses a choice the problem does not offer.
 */
export async function recoverProfileDesk(deps: ProfileOpeningDeps, problem: ProfileProblem, input: RecoverInput): Promise<ProfileOpening> {
  if (!problem.choices.includes(input.choice)) {
    throw new DomainError('invalid', `“${input.choice}” is not one of the choices for this profile (${problem.choices.join(', ')})`);
  }
  if (input.choice !== 'retry') settle(deps, problem, input);
  return openProfileDesk(deps);
}

/** Restore or fresh: the profile's place made ready under the profile's lock, and the note removed: the trader has decided. */
function settle(deps: ProfileOpeningDeps, problem: ProfileProblem, input: RecoverInput): void {
  const clock = deps.clock ?? systemClock;
  const paths = profilePaths(deps.dataDir, deps.profile ?? 'default');
  const chosen = input.choice === 'restore' ? chooseBackup(paths.home, { name: input.backup, confirmEmpty: input.confirmEmpty }) : null;
  holdingProfileLock({ path: paths.lock, token: deps.lockToken ?? randomUUID(), now: () => clock.now() }, () => {
    // A file that came to the place meanwhile (put back by hand) is moved aside too, never overwritten.
    if (existsSync(problem.file)) moveAside(problem.file, clock.now());
    if (chosen) {
      try {
        restoreBackup(chosen.backup.path, problem.file);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new DomainError('conflict', `The backup could not be put in place (${reason}); nothing was changed. Start fresh instead, or try again`);
      }
    }
    clearRecoveryMarker(paths.recovery);
  });
}
