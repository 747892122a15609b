import { copyFileSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { backup, DatabaseSync } from 'node:sqlite';

/**
 * Automatic backups of a profile's database, made with SQLite's own means
 * so each is a consistent, openable database: `VACUUM INTO` before a
 * migration (the app is starting, nothing else runs), and the online backup
 * API once a day (it copies a few pages a step, so the desk keeps running
 * between steps). They sit in `backups/` beside the profile, named
 * `<profile>.backup-<UTC time>.sqlite`; the newest few are kept. A profile
 * that cannot be opened is offered the newest one.
 */

/** How many backups of one profile are kept. */
export const BACKUPS_KEPT = 5;
/** How old the newest backup may be before the daily one is due. */
export const BACKUP_EVERY_MS = 24 * 60 * 60 * 1000;

export interface Backup {
  readonly path: string;
  /** When it was taken (ms since the epoch, UTC). */
  readonly takenAt: number;
}

/** The backups folder beside a profile's database. */
export const backupsDirOf = (dbPath: string): string => join(dirname(dbPath), 'backups');

const profileName = (dbPath: string) => basename(dbPath).replace(/\.sqlite$/, '');

/** `2025-11-26T10:32:05.123Z` → `20251126T103205123Z`: sortable, and a valid file name everywhere. */
const stampOf = (ms: number) => new Date(ms).toISOString().replace(/[-:.]/g, '');
const STAMP = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z$/;
function timeOf(stamp: string): number | null {
  const m = STAMP.exec(stamp);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, ms] = m.map(Number) as number[];
  return Date.UTC(y as number, (mo as number) - 1, d, h, mi, s, ms);
}

/** The profile's backups, newest first. */
export function listBackups(dbPath: string): Backup[] {
  const dir = backupsDirOf(dbPath);
  const prefix = `${profileName(dbPath)}.backup-`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const found: Backup[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.sqlite')) continue;
    const takenAt = timeOf(name.slice(prefix.length, -'.sqlite'.length));
    if (takenAt !== null) found.push({ path: join(dir, name), takenAt });
  }
  return found.sort((a, b) => b.takenAt - a.takenAt);
}

/** The newest backup, or null when there is none. */
export const latestBackup = (dbPath: string): Backup | null => listBackups(dbPath)[0] ?? null;

/** The newest backup that passes SQLite's quick check (a backup of a profile already damaged is passed over). */
export function latestSoundBackup(dbPath: string): Backup | null {
  return listBackups(dbPath).find((b) => soundness(b.path) === 'ok') ?? null;
}

/** SQLite's quick check of a database file: 'ok', or what it found wrong. */
function soundness(path: string): string {
  let db: DatabaseSync | null = null;
  try {
    db = new DatabaseSync(path, { readOnly: true });
    const row = db.prepare('PRAGMA quick_check(1)').get() as { quick_check?: string } | undefined;
    return String(row?.quick_check);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    db?.close();
  }
}

/** Whether the daily backup is due: none yet, or the newest is a day old (or from the future: a clock set back). */
export function backupDue(dbPath: string, now: number): boolean {
  const latest = latestBackup(dbPath);
  return latest === null || now - latest.takenAt >= BACKUP_EVERY_MS || latest.takenAt > now;
}

/**
 * Backs the open database up with `VACUUM INTO` (synchronous: for the moment
 * before a migration). Written under a temporary name and renamed, so a
 * backup cut short is never taken for one; the oldest beyond `keep` go.
 */
export function backupNow(db: DatabaseSync, dbPath: string, now: number, keep: number = BACKUPS_KEPT): Backup {
  const target = targetOf(dbPath, now);
  try {
    db.exec(`VACUUM INTO ${sqlString(target.temp)}`);
  } catch (error) {
    rmSync(target.temp, { force: true });
    throw error;
  }
  return placed(dbPath, target, keep);
}

/** The same with SQLite's online backup API, a few pages a step, so the desk answers meanwhile (the daily backup). */
export async function backupOnline(db: DatabaseSync, dbPath: string, now: number, keep: number = BACKUPS_KEPT): Promise<Backup> {
  const target = targetOf(dbPath, now);
  try {
    await backup(db, target.temp, { rate: 64 });
    // The copy comes in WAL mode, as its source is: a backup is one self-contained file.
    const copy = new DatabaseSync(target.temp);
    try {
      copy.exec('PRAGMA journal_mode = DELETE');
    } finally {
      copy.close();
    }
  } catch (error) {
    rmSync(target.temp, { force: true });
    throw error;
  }
  return placed(dbPath, target, keep);
}

interface Target extends Backup {
  readonly temp: string;
}

function targetOf(dbPath: string, now: number): Target {
  const dir = backupsDirOf(dbPath);
  mkdirSync(dir, { recursive: true });
  const prefix = `${profileName(dbPath)}.backup-`;
  // A backup cut short by a crash left its temporary file: it was never one.
  for (const name of readdirSync(dir)) if (name.startsWith(prefix) && name.endsWith('.writing')) rmSync(join(dir, name), { force: true });
  const name = `${prefix}${stampOf(now)}`;
  return { path: join(dir, `${name}.sqlite`), temp: join(dir, `${name}.writing`), takenAt: now };
}

/** Renames the written backup into place and lets the oldest beyond `keep` go. */
function placed(dbPath: string, target: Target, keep: number): Backup {
  renameSync(target.temp, target.path);
  for (const old of listBackups(dbPath).slice(Math.max(1, keep))) rmSync(old.path, { force: true });
  return { path: target.path, takenAt: target.takenAt };
}

/**
 * Puts a backup in the profile's place: checked first (a backup that does
 * not pass SQLite's quick check is refused, and the profile's place is left
 * as it was), then copied beside it and renamed over it. The profile's own
 * file and its -wal/-shm must have been moved aside before.
 */
export function restoreBackup(backupPath: string, dbPath: string): void {
  const found = soundness(backupPath);
  if (found !== 'ok') throw new Error(`the backup ${backupPath} cannot be used: ${found}`);
  const temp = `${dbPath}.restoring`;
  copyFileSync(backupPath, temp);
  renameSync(temp, dbPath);
}

/** A path as an SQL string literal. */
const sqlString = (text: string) => `'${text.replaceAll("'", "''")}'`;
