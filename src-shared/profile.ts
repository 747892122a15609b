import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';

/**
 * A profile that could not be opened, as the recovery screen shows it: what
 * happened (a sentence main wrote), which file, where it was moved aside
 * (never deleted), every automatic backup, and what the trader may do.
 *
 * Kinds: `damaged` (not a database, or its pages are broken), `newer`
 * (written by a newer version of the app), `read_only` (the folder or file
 * cannot be written), `locked` (another desk has it open), `disk_full`,
 * `io` (the disk failed), `unknown` (anything else: nothing is moved).
 */
export const PROFILE_PROBLEM_KINDS = ['damaged', 'newer', 'read_only', 'locked', 'disk_full', 'io', 'unknown'] as const;

/** Restore a backup (the trader names which) into the profile's place, start with an empty profile, or try to open it again as it is. */
export const recoveryChoice = z.enum(['restore', 'fresh', 'retry']);
export type RecoveryChoice = z.infer<typeof recoveryChoice>;

/** Why a backup was taken: the daily one, the one before a migration changed the profile, the one before a restore replaced it. */
export const backupKind = z.enum(['daily', 'before-migration', 'before-restore']);
export type BackupKind = z.infer<typeof backupKind>;

/** What a backup holds, counted in the file itself (a table the backup's version did not have counts 0). */
export const backupRows = lazySchema(() => z.object({
  listings: z.number().int(),
  buyOrders: z.number().int(),
  drafts: z.number().int(),
  /** The changes the drafts hold. */
  draftChanges: z.number().int(),
  /** Trades in the history. */
  trades: z.number().int(),
}));
export type BackupRows = z.infer<typeof backupRows>;

/** One backup of the profile, read from its file. */
export const backupView = lazySchema(() => z.object({
  /** Its file name in the backups folder: what a restore names. */
  name: z.string(),
  file: z.string(),
  takenAt: z.number(),
  kind: backupKind,
  sizeBytes: z.number().int(),
  /** The data version (schema) it was saved with; null when the file cannot be read. */
  dataVersion: z.number().int().nullable(),
  /** The version of the app that last wrote the profile it was taken from; null when that app did not say. */
  appVersion: z.string().nullable(),
  rows: backupRows.nullable(),
  /** Nothing in it: no listings, buy orders, drafts or trades. Restoring it asks to be confirmed. */
  empty: z.boolean(),
  /** Why it cannot be restored by this version (saved by a newer one, unreadable); null when it can. */
  refusal: z.string().nullable(),
}));
export type BackupView = z.infer<typeof backupView>;

export const profileProblem = lazySchema(() => z.object({
  kind: z.enum(PROFILE_PROBLEM_KINDS),
  /** What happened, in a sentence. */
  message: z.string(),
  /** The database file that could not be opened. */
  file: z.string(),
  /** Where the file (with its -wal and -shm) was moved; null when it was left in place. */
  movedTo: z.string().nullable(),
  /** Every automatic backup of this profile, newest first (empty when there is none, or nothing was moved aside). */
  backups: z.array(backupView),
  /** What the screen offers, in this order. */
  choices: z.array(recoveryChoice),
}));
export type ProfileProblem = z.infer<typeof profileProblem>;

/** The trader's choice on the recovery screen: which backup to restore, and that an empty one is meant. */
export const recoverInput = lazySchema(() => z.object({
  choice: recoveryChoice,
  /** The backup's `name`, for `restore`. */
  backup: z.string().min(1).max(300).optional(),
  /** The trader confirmed restoring a backup that holds nothing. */
  confirmEmpty: z.literal(true).optional(),
}).strict());
export type RecoverInput = z.infer<typeof recoverInput>;

/** Settings' list of backups, and why the last one failed (null when it did not). */
export const backupsList = lazySchema(() => z.object({
  backups: z.array(backupView),
  problem: z.string().nullable(),
}));
export type BackupsList = z.infer<typeof backupsList>;

/** Restoring a backup over the open profile: which one, and that an empty one is meant. */
export const restoreBackupInput = lazySchema(() => z.object({
  backup: z.string().min(1).max(300),
  confirmEmpty: z.literal(true).optional(),
}).strict());

/** What a restore did: the backup now in place, and the one made of the profile as it was just before. */
export const restoreBackupResult = z.object({
  restored: backupView,
  savedAs: backupView,
});
export type RestoreBackupResult = z.infer<typeof restoreBackupResult>;
