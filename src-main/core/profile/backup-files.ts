import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { BackupKind } from '../../../src-shared/profile.ts';

/**
 * Where a profile's backups sit and how they are named: in `backups/`
 * beside the profile, `<profile>.backup-<UTC time>.sqlite` for the daily
 * one, with `.before-migration` or `.before-restore` before `.sqlite` for
 * the others. The name alone says when and why, so listing them opens no
 * file.
 */

export interface Backup {
  readonly path: string;
  /** When it was taken (ms since the epoch, UTC). */
  readonly takenAt: number;
  readonly kind: BackupKind;
}

/** The backups folder beside a profile's database. */
export const backupsDirOf = (dbPath: string): string => join(dirname(dbPath), 'backups');

const profileName = (dbPath: string) => basename(dbPath).replace(/\.sqlite$/, '');
export const backupPrefixOf = (dbPath: string): string => `${profileName(dbPath)}.backup-`;

/** `2025-11-26T10:32:05.123Z` → `20251126T103205123Z`: sortable, and a valid file name everywhere. */
export const stampOf = (ms: number): string => new Date(ms).toISOString().replace(/[-:.]/g, '');
const STAMP = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z$/;
function timeOf(stamp: string): number | null {
  const m = STAMP.exec(stamp);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, ms] = m.map(Number) as number[];
  return Date.UTC(y as number, (mo as number) - 1, d, h, mi, s, ms);
}

const SUFFIX: Record<BackupKind, string> = { daily: '', 'before-migration': '.before-migration', 'before-restore': '.before-restore' };
const KIND_OF_SUFFIX = new Map(Object.entries(SUFFIX).map(([kind, suffix]) => [suffix, kind as BackupKind]));

/** The file name of a backup taken at `takenAt`, without its extension (`.sqlite`, or `.writing` while it is written). */
export const backupBaseName = (dbPath: string, takenAt: number, kind: BackupKind): string => `${backupPrefixOf(dbPath)}${stampOf(takenAt)}${SUFFIX[kind]}`;

/** What a file name in the backups folder says of the backup, or null when it is not one of this profile's. */
export function parseBackupName(dbPath: string, name: string): Omit<Backup, 'path'> | null {
  const prefix = backupPrefixOf(dbPath);
  if (!name.startsWith(prefix) || !name.endsWith('.sqlite')) return null;
  const rest = name.slice(prefix.length, -'.sqlite'.length);
  const dot = rest.indexOf('.');
  const kind = KIND_OF_SUFFIX.get(dot < 0 ? '' : rest.slice(dot));
  const takenAt = timeOf(dot < 0 ? rest : rest.slice(0, dot));
  return kind === undefined || takenAt === null ? null : { takenAt, kind };
}

/** The profile's backups, newest first. */
export function listBackups(dbPath: string): Backup[] {
  let names: string[];
  try {
    names = readdirSync(backupsDirOf(dbPath));
  } catch {
    return [];
  }
  const found: Backup[] = [];
  for (const name of names) {
    const parsed = parseBackupName(dbPath, name);
    if (parsed) found.push({ path: join(backupsDirOf(dbPath), name), ...parsed });
  }
  return found.sort((a, b) => b.takenAt - a.takenAt);
}

/** The newest backup, or null when there is none. */
export const latestBackup = (dbPath: string): Backup | null => listBackups(dbPath)[0] ?? null;

/** The backup the trader named (its file name), or null when the profile has none of that name. */
export const backupNamed = (dbPath: string, name: string): Backup | null => listBackups(dbPath).find((b) => basename(b.path) === name) ?? null;
