import { mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { BackupKind } from '../../../src-shared/profile.ts';
import { copyOnline, quickCheck, vacuumInto } from '../store/backup-db.ts';
import { backupBaseName, backupPrefixOf, backupsDirOf, latestBackup, listBackups, type Backup } from './backup-files.ts';
import { backupsToKeep } from './backup-retention.ts';
import { copyFileSynced } from '../whole-file.ts';

/**
 * Automatic backups of a profile's database, made with SQLite's own means
 * so each is a consistent, openable database: `VACUUM INTO` before a
 * migration (the app is starting, nothing else runs) and before a restore
 * (the desk is closed), and the online backup API once a day (it copies a
 * few pages a step, so the desk keeps running between steps). Each is
 * written under a temporary name, checked with SQLite's quick check, and
 * only then given its name; one that fails the check is removed and the
 * failure thrown. Backups are kept by age (backup-retention.ts).
 */

export { backupsDirOf, latestBackup, listBackups, type Backup };

/** How old the newest backup may be before the daily one is due. */
export const BACKUP_EVERY_MS = 24 * 60 * 60 * 1000;

/** Whether the daily backup is due: none yet, or the newest is a day old (or from the future: a clock set back). */
export function backupDue(dbPath: string, now: number): boolean {
  const latest = latestBackup(dbPath);
  return latest === null || now - latest.takenAt >= BACKUP_EVERY_MS || latest.takenAt > now;
}

export interface BackupOptions {
  /** Default `daily`. */
  readonly kind?: BackupKind;
  /** Told the written file before it is checked (tests damage it here, as a failing disk would). */
  readonly onWritten?: (file: string) => void;
}

/** A backup that did not pass SQLite's check once written: it was removed, and this says so. */
export class BackupCheckError extends Error {
  override readonly name = 'BackupCheckError';
}

/** Backs the open database up with `VACUUM INTO` (synchronous: for the moment before a migration or a restore). */
export function backupNow(db: DatabaseSync, dbPath: string, now: number, options: BackupOptions = {}): Backup {
  const target = targetOf(dbPath, now, options.kind ?? 'daily');
  try {
    vacuumInto(db, target.temp);
  } catch (error) {
    rmSync(target.temp, { force: true });
    throw error;
  }
  return placed(dbPath, target, options);
}

/** The same with SQLite's online backup API, a few pages a step, so the desk answers meanwhile (the daily backup). */
export async function backupOnline(db: DatabaseSync, dbPath: string, now: number, options: BackupOptions = {}): Promise<Backup> {
  const target = targetOf(dbPath, now, options.kind ?? 'daily');
  try {
    await copyOnline(db, target.temp);
  } catch (error) {
    rmSync(target.temp, { force: true });
    throw error;
  }
  return placed(dbPath, target, options);
}

interface Target extends Backup {
  readonly temp: string;
}

function targetOf(dbPath: string, now: number, kind: BackupKind): Target {
  const dir = backupsDirOf(dbPath);
  mkdirSync(dir, { recursive: true });
  // A backup cut short by a crash left its temporary file: it was never one.
  for (const name of readdirSync(dir)) if (name.startsWith(backupPrefixOf(dbPath)) && name.endsWith('.writing')) rmSync(join(dir, name), { force: true });
  const name = backupBaseName(dbPath, now, kind);
  return { path: join(dir, `${name}.sqlite`), temp: join(dir, `${name}.writing`), takenAt: now, kind };
}

/** Checks the written backup, renames it into place and lets go of those no longer kept. */
function placed(dbPath: string, target: Target, options: BackupOptions): Backup {
  options.onWritten?.(target.temp);
  const found = quickCheck(target.temp);
  if (found !== 'ok') {
    rmSync(target.temp, { force: true });
    throw new BackupCheckError(`The backup written at ${new Date(target.takenAt).toISOString()} did not pass SQLite’s check (${found}), so it was removed`);
  }
  renameSync(target.temp, target.path);
  const keep = backupsToKeep(listBackups(dbPath));
  for (const old of listBackups(dbPath)) if (!keep.has(old.path) && old.path !== target.path) rmSync(old.path, { force: true });
  return { path: target.path, takenAt: target.takenAt, kind: target.kind };
}

/**
 * Puts a backup in the profile's place: checked first (a backup that does
 * not pass SQLite's quick check is refused, and the profile's place is left
 * as it was), then copied beside it and renamed over it. A -wal and -shm
 * left beside the place are the old file's, and must not be laid over the
 * backup: the caller has moved the old file aside with them, or backed it
 * up after its desk closed (which checkpoints its WAL); they are removed.
 */
export function restoreBackup(backupPath: string, dbPath: string): void {
  placeStaged(stageBackup(backupPath, dbPath), dbPath);
}

/** The first half of `restoreBackup`: the backup checked and copied beside the profile (`<profile>.restoring`), flushed. */
export function stageBackup(backupPath: string, dbPath: string): string {
  const found = quickCheck(backupPath);
  if (found !== 'ok') throw new Error(`the backup ${backupPath} cannot be used: ${found}`);
  const staged = `${dbPath}.restoring`;
  copyFileSynced(backupPath, staged);
  return staged;
}

/** The second half: the staged copy renamed over the profile, the old file's -wal and -shm gone first. */
export function placeStaged(staged: string, dbPath: string): void {
  for (const suffix of ['-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
  renameSync(staged, dbPath);
}
