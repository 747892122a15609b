import { z } from 'zod';

/**
 * A profile that could not be opened, as the recovery screen shows it: what
 * happened (a sentence main wrote), which file, where it was moved aside
 * (never deleted), the newest automatic backup, and what the trader may do.
 *
 * Kinds: `damaged` (not a database, or its pages are broken), `newer`
 * (written by a newer version of the app), `read_only` (the folder or file
 * cannot be written), `locked` (another desk has it open), `disk_full`,
 * `io` (the disk failed), `unknown` (anything else: nothing is moved).
 */
export const PROFILE_PROBLEM_KINDS = ['damaged', 'newer', 'read_only', 'locked', 'disk_full', 'io', 'unknown'] as const;

/** Restore the newest backup into the profile's place, start with an empty profile, or try to open it again as it is. */
export const recoveryChoice = z.enum(['restore', 'fresh', 'retry']);
export type RecoveryChoice = z.infer<typeof recoveryChoice>;

export const profileProblem = z.object({
  kind: z.enum(PROFILE_PROBLEM_KINDS),
  /** What happened, in a sentence. */
  message: z.string(),
  /** The database file that could not be opened. */
  file: z.string(),
  /** Where the file (with its -wal and -shm) was moved; null when it was left in place. */
  movedTo: z.string().nullable(),
  /** The newest automatic backup of this profile; null when there is none. */
  backup: z.object({ takenAt: z.number(), file: z.string() }).nullable(),
  /** What the screen offers, in this order. */
  choices: z.array(recoveryChoice),
});
export type ProfileProblem = z.infer<typeof profileProblem>;
