import { backup, DatabaseSync } from 'node:sqlite';
import { z } from 'zod';
import { parseRow, parseRows } from './sql.ts';

/**
 * SQLite's own means for the profile's backups (core/profile/backups.ts
 * decides when, where and which are kept): copying an open database into a
 * file that is a consistent database on its own, checking a file, and
 * reading what a backup holds on a read-only connection.
 */

/** A path as an SQL string literal. */
const sqlString = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Copies the open database into `target` with `VACUUM INTO` (synchronous: nothing else runs meanwhile). */
export function vacuumInto(db: DatabaseSync, target: string): void {
  db.exec(`VACUUM INTO ${sqlString(target)}`);
}

/**
 * The same with SQLite's online backup API, a few pages a step, so the desk
 * answers meanwhile. The copy comes in WAL mode, as its source is: it is
 * turned into one self-contained file.
 */
export async function copyOnline(db: DatabaseSync, target: string): Promise<void> {
  await backup(db, target, { rate: 64 });
  const copy = new DatabaseSync(target);
  try {
    copy.exec('PRAGMA journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/** Opens the database at `path`, runs `work` on it and closes it, whatever happens. */
export function withDatabase<T>(path: string, work: (db: DatabaseSync) => T, options: { readOnly?: boolean } = {}): T {
  const db = new DatabaseSync(path, { readOnly: options.readOnly ?? false });
  try {
    return work(db);
  } finally {
    db.close();
  }
}

/** SQLite's quick check of a database file: 'ok', or what it found wrong (or why the file could not be opened). */
export function quickCheck(path: string): string {
  try {
    return withDatabase(path, (db) => {
      const row = db.prepare('PRAGMA quick_check(1)').get();
      return String(row === undefined ? undefined : parseRow(path, z.object({ quick_check: z.string().optional() }), row).quick_check);
    }, { readOnly: true });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** What a backup file holds, as much as this version can tell. */
export interface BackupFacts {
  readonly dataVersion: number;
  /** Rows of each group of tables asked for: the first of its names the file has, 0 when it has none. */
  readonly rows: Readonly<Record<string, number>>;
  /** The text stored under `settingKey` in its settings table; null when it has none. */
  readonly setting: string | null;
}

/**
 * Reads a backup on a read-only connection: its data version, the rows of
 * tables named in `counted` (a group's first name the file has: tables were
 * renamed across versions) and one setting. Throws when it cannot be read.
 */
export function readBackupFacts(path: string, counted: Readonly<Record<string, readonly string[]>>, settingKey: string): BackupFacts {
  return withDatabase(path, (db) => {
    const dataVersion = parseRow(path, z.object({ user_version: z.number() }), db.prepare('PRAGMA user_version').get()).user_version;
    const tables = new Set(parseRows(path, z.object({ name: z.string() }), db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table'`).all()).map((t) => t.name));
    const count = (names: readonly string[]) => {
      const table = names.find((n) => tables.has(n));
      return table === undefined ? 0 : parseRow(table, z.object({ n: z.number() }), db.prepare(`SELECT count(*) AS n FROM "${table}"`).get()).n;
    };
    const rows = Object.fromEntries(Object.entries(counted).map(([key, names]) => [key, count(names)]));
    const row = tables.has('settings') ? db.prepare('SELECT value FROM settings WHERE key = ?').get(settingKey) : undefined;
    return { dataVersion, rows, setting: row === undefined ? null : parseRow('settings', z.object({ value: z.string().nullable() }), row).value };
  }, { readOnly: true });
}
