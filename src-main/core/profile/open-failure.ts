import { existsSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ProfileProblem } from '../../../src-shared/profile.ts';
import { NotADatabaseError, StoreOpenError } from '../store/db.ts';
import { LATEST_VERSION, NewerProfileError } from '../store/migrations.ts';
import { describeBackups } from './backup-contents.ts';
import { ProfileLockedError } from './profile-lock.ts';
import { writeRecoveryMarker, type RecoveryMarker } from './recovery-marker.ts';

/**
 * Why a profile could not be opened, said as the recovery screen shows it,
 * and the one thing done about it at once: a database that is damaged, or
 * written by a newer version of the app, is moved aside (with its -wal and
 * -shm, renamed `<file>.broken-<UTC time>`), never deleted, and noted in
 * the recovery marker, so every start shows the screen again until the
 * trader restores a backup into its place or starts fresh; the file stays
 * for whoever can still read it. Anything else (a read-only folder, a full
 * disk, another desk holding the profile, an error nobody foresaw) is left
 * where it is, and the trader may try again once it is dealt with.
 */

/** SQLite's primary result codes that say what kind of failure an open met. */
const SQLITE = { corrupt: 11, notADatabase: 26, readOnly: 8, cannotOpen: 14, full: 13, ioError: 10, permission: 3 } as const;

type Kind = ProfileProblem['kind'];

export interface DiagnoseOptions {
  /** The profile's home database, the file the lock and the backups belong to. */
  readonly homePath: string;
  /** The profile's recovery marker (recovery-marker.ts). */
  readonly markerPath: string;
  readonly now: number;
}

/** Turns the error of a failed open into the problem the screen shows, moving the file aside (and noting it) when that is the remedy. */
export function diagnoseOpenFailure(error: unknown, options: DiagnoseOptions): ProfileProblem {
  const file = error instanceof StoreOpenError ? error.path : error instanceof ProfileLockedError ? error.path : options.homePath;
  const kind = kindOf(error);
  if (kind === 'damaged' || kind === 'newer') {
    const movedTo = moveAside(file, options.now);
    if (movedTo !== null) {
      const marker: RecoveryMarker = { kind, message: messageOf(kind, error, file, true), file, movedTo, at: options.now };
      try {
        writeRecoveryMarker(options.markerPath, marker);
        return problemOf(marker, options.homePath);
      } catch {
        // Not remembered, the file must not stay aside: the next start would open an empty profile in its place.
        putBack(movedTo, file);
      }
    }
  }
  return { kind, message: messageOf(kind, error, file, false), file, movedTo: null, backups: [], choices: ['retry'] };
}

/**
 * The problem a moved-aside file leaves until the trader decides: every
 * backup of the profile (only the home database is backed up: the
 * sandbox's ledger is the simulator's, and starts again), restore offered
 * when one of them can be restored, and a fresh start.
 */
export function problemOf(marker: RecoveryMarker, homePath: string): ProfileProblem {
  const backups = marker.file === homePath ? describeBackups(homePath) : [];
  const restorable = backups.some((b) => b.refusal === null);
  return { kind: marker.kind, message: marker.message, file: marker.file, movedTo: marker.movedTo, backups, choices: restorable ? ['restore', 'fresh'] : ['fresh'] };
}

/**
 * Renames the database and its -wal and -shm to `<file>.broken-<UTC time>`
 * (SQLite finds a WAL by its name, so the three stay a set that opens
 * together). Returns the new name of the database, or null when it could
 * not be moved (a read-only folder).
 */
export function moveAside(file: string, now: number): string | null {
  const stamped = `${file}.broken-${new Date(now).toISOString().replace(/[-:.]/g, '')}`;
  let target = stamped;
  // Never over another file moved aside in the same millisecond.
  for (let n = 1; existsSync(target); n++) target = `${stamped}-${n}`;
  try {
    renameSync(file, target);
  } catch {
    return null;
  }
  for (const suffix of ['-wal', '-shm']) {
    try {
      if (existsSync(file + suffix)) renameSync(file + suffix, target + suffix);
    } catch {
      // The database itself is aside; a stray -wal left behind would not match the fresh file and is ignored by SQLite.
    }
  }
  return target;
}

/** Undoes `moveAside`. */
function putBack(movedTo: string, file: string): void {
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      if (existsSync(movedTo + suffix)) renameSync(movedTo + suffix, file + suffix);
    } catch {
      // Left aside under its telling name: still never deleted.
    }
  }
}

function kindOf(error: unknown): Kind {
  if (error instanceof ProfileLockedError) return 'locked';
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof NewerProfileError) return 'newer';
    if (e instanceof NotADatabaseError) return 'damaged';
    const code = (e as { errcode?: unknown }).errcode;
    if (typeof code === 'number') {
      const primary = code & 0xff;
      if (primary === SQLITE.corrupt || primary === SQLITE.notADatabase) return 'damaged';
      if (primary === SQLITE.readOnly || primary === SQLITE.cannotOpen || primary === SQLITE.permission) return 'read_only';
      if (primary === SQLITE.full) return 'disk_full';
      if (primary === SQLITE.ioError) return 'io';
    }
    const fsCode = (e as NodeJS.ErrnoException).code;
    if (fsCode === 'EACCES' || fsCode === 'EPERM' || fsCode === 'EROFS') return 'read_only';
    if (fsCode === 'ENOSPC') return 'disk_full';
    if (fsCode === 'EIO') return 'io';
  }
  return 'unknown';
}

function messageOf(kind: Kind, error: unknown, file: string, moved: boolean): string {
  const reason = error instanceof Error ? error.message.replace(/\.$/, '') : String(error);
  const aside = moved ? ' It was moved aside, not deleted' : ' It could not be moved aside, so it was left where it is';
  switch (kind) {
    case 'damaged':
      return `The profile’s data file is damaged and cannot be read (${reason}).${aside}.`;
    case 'newer': {
      const version = error instanceof StoreOpenError && error.cause instanceof NewerProfileError ? error.cause.version : null;
      return `The profile was saved by a newer version of Marketplace Desk${version === null ? '' : ` (data version ${version}; this version reads up to ${LATEST_VERSION})`}, so this version cannot open it. Install the newer version to use it again.${aside}.`;
    }
    case 'read_only':
      return `The profile in ${dirname(file)} cannot be written (the folder or the file is read-only, or the desk is not allowed to write there). Make it writable, then try again.`;
    case 'locked':
      return `${reason}.`;
    case 'disk_full':
      return 'The disk holding the profile is full, so it cannot be opened. Free some space, then try again.';
    case 'io':
      return `The disk holding the profile failed while it was opened (an I/O error: ${reason}). Check the disk, then try again.`;
    case 'unknown':
      return `The profile could not be opened (${reason}). Nothing was moved or deleted. Try again; the details are in the app’s log.`;
  }
}
