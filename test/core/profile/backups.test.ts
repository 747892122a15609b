import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { scaledClock } from '../../../src-main/core/clock.ts';
import { describeBackup } from '../../../src-main/core/profile/backup-contents.ts';
import { backupsToKeep } from '../../../src-main/core/profile/backup-retention.ts';
import {
  BACKUP_EVERY_MS, BackupCheckError, backupDue, backupNow, backupOnline, backupsDirOf, latestBackup, listBackups, restoreBackup, type Backup,
} from '../../../src-main/core/profile/backups.ts';
import { startDailyBackups } from '../../../src-main/core/profile/daily-backups.ts';
import { openHomeStore } from '../../../src-main/core/profile/home-store.ts';
import { openStore } from '../../../src-main/core/store/db.ts';
import { LATEST_VERSION, MIGRATIONS, migrate } from '../../../src-main/core/store/migrations.ts';
import { createRepos } from '../../../src-main/core/store/index.ts';
import { until } from '../../support/until.ts';
import { addListings, addTrade } from './profile-rows.ts';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const profileAt = () => {
  dir = mkdtempSync(join(tmpdir(), 'desk-backups-'));
  return join(dir, 'default.sqlite');
};
const DAY = BACKUP_EVERY_MS;
const T0 = Date.UTC(2025, 10, 20, 9, 0);

/** What a database file holds of the settings table, read on its own. */
function settingsIn(path: string): Record<string, unknown> {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const rows = db.prepare('SELECT key, value FROM settings ORDER BY key').all() as { key: string; value: string }[];
    return Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value) as unknown]));
  } finally {
    db.close();
  }
}

describe('automatic backups', () => {
  it('backs up with VACUUM INTO and the online backup API into backups/ beside the profile, each one database file', async () => {
    const path = profileAt();
    const store = openStore(path);
    const repos = createRepos(store);
    // What a crash in the middle of a backup leaves behind: not a backup, and cleared by the next one.
    mkdirSync(backupsDirOf(path), { recursive: true });
    writeFileSync(join(backupsDirOf(path), 'default.backup-20250101T000000000Z.writing'), 'half');
    for (let day = 0; day < 4; day++) {
      repos.settings.set('day', day);
      if (day % 2 === 0) backupNow(store.db, path, T0 + day * DAY);
      else await backupOnline(store.db, path, T0 + day * DAY);
    }
    store.close();
    const kept = listBackups(path);
    expect(kept.map((b) => b.takenAt)).toEqual([3, 2, 1, 0].map((d) => T0 + d * DAY));
    expect(kept.map((b) => settingsIn(b.path).day)).toEqual([3, 2, 1, 0]);
    // Self-contained: no -wal or -shm beside any of them, nothing half written.
    expect(readdirSync(backupsDirOf(path)).sort()).toEqual(kept.map((b) => basename(b.path)).sort());
    expect(latestBackup(path)?.takenAt).toBe(T0 + 3 * DAY);
  });

  it('keeps them by age: the newest of each of the last 7 days, and of each of the last 4 weeks, each kind apart', async () => {
    const path = profileAt();
    const store = openStore(path);
    // Sixty days of daily backups, two on some days; one before a migration long ago and one before a restore today.
    for (let day = 0; day < 60; day++) {
      backupNow(store.db, path, T0 + day * DAY);
      if (day % 10 === 0) await backupOnline(store.db, path, T0 + day * DAY + 3_600_000);
    }
    backupNow(store.db, path, T0 + 5 * DAY, { kind: 'before-migration' });
    backupNow(store.db, path, T0 + 59 * DAY + 7_200_000, { kind: 'before-restore' });
    store.close();
    const kept = listBackups(path);
    const dailies = kept.filter((b) => b.kind === 'daily').map((b) => (b.takenAt - T0) / DAY);
    // The last seven days, then the newest of each of the three weeks before
    // (2025-11-20 is a Thursday: weeks begin on days 4, 11, 18, 25, 32, 39, 46, 53).
    expect(dailies).toEqual([59, 58, 57, 56, 55, 54, 53, 52, 45, 38]);
    expect(kept.filter((b) => b.kind !== 'daily').map((b) => b.kind)).toEqual(['before-restore', 'before-migration']);
    // The rule alone, on a list: every kind counted apart.
    const list: Backup[] = [0, 1, 2].map((d) => ({ path: `p${d}`, takenAt: T0 + d * DAY, kind: 'daily' }));
    expect(backupsToKeep([...list, { path: 'r', takenAt: T0 + 2 * DAY + 1, kind: 'before-restore' }])).toEqual(new Set(['p0', 'p1', 'p2', 'r']));
  });

  it('is due when there is none, or the newest is a day old', () => {
    const path = profileAt();
    const store = openStore(path);
    expect(backupDue(path, T0)).toBe(true);
    backupNow(store.db, path, T0);
    store.close();
    expect(backupDue(path, T0 + DAY - 1)).toBe(false);
    expect(backupDue(path, T0 + DAY)).toBe(true);
    // A clock set back does not stop backups for good.
    expect(backupDue(path, T0 - 60_000)).toBe(true);
  });

  it('the daily backup runs while the profile is open with no one listening, and not twice in a day', async () => {
    const path = profileAt();
    const store = openStore(path);
    const clock = scaledClock(3_600_000);
    // An hour lasts 1 ms: checked every hour, a backup is made once a day, whether or not a listener is given.
    const daily = startDailyBackups({ store, clock, checkEveryMs: 60 * 60_000, firstCheckAfterMs: 0 });
    await until('three daily backups', () => listBackups(path).length >= 3);
    await daily.stop();
    store.close();
    const made = listBackups(path).map((b) => b.takenAt).reverse();
    for (let i = 1; i < made.length; i++) expect((made[i] ?? 0) - (made[i - 1] ?? 0)).toBeGreaterThanOrEqual(DAY);
  });

  it('checks each backup once written: one that fails SQLite’s check is removed and said, and the next check tries again', async () => {
    const path = profileAt();
    const store = openStore(path);
    addListings(store, 20);
    // Every page after the first (the header and the schema) scrambled, as a failing disk would leave them.
    const damage = (file: string) => {
      const bytes = readFileSync(file);
      randomBytes(bytes.length - 4096).copy(bytes, 4096);
      writeFileSync(file, bytes);
    };
    expect(() => backupNow(store.db, path, T0, { onWritten: damage })).toThrow(BackupCheckError);
    await expect(backupOnline(store.db, path, T0, { onWritten: damage })).rejects.toThrow(/^The backup written at 2025-11-20T09:00:00.000Z did not pass SQLite’s check \(.+\), so it was removed$/);
    expect(readdirSync(backupsDirOf(path))).toEqual([]);

    // The daily loop tells the failure and tries again at the next check.
    const errors: unknown[] = [];
    let first = true;
    const daily = startDailyBackups({
      store, clock: scaledClock(3_600_000), checkEveryMs: 60 * 60_000, firstCheckAfterMs: 0, onError: (e) => errors.push(e),
      backupOptions: { onWritten: (file) => (first ? ((first = false), damage(file)) : undefined) },
    });
    await until('a backup that passes', () => listBackups(path).length > 0);
    await daily.stop();
    store.close();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(BackupCheckError);
  });

  it('backs up before a migration changes the profile, with the data as it was, and notes the app version in the profile', () => {
    const path = profileAt();
    const db = new DatabaseSync(path);
    migrate(db, LATEST_VERSION - 1);
    db.exec(`INSERT INTO settings (key, value, updated_at) VALUES ('kept', '"yes"', 0)`);
    db.close();
    const { store, backups } = openHomeStore(path, { clock: scaledClock(1), version: '9.8.7' });
    void backups.stop();
    store.close();
    const [before] = listBackups(path);
    expect(before?.kind).toBe('before-migration');
    expect(basename(before?.path ?? '')).toMatch(/^default\.backup-\d{8}T\d{9}Z\.before-migration\.sqlite$/);
    expect(describeBackup(before!)).toMatchObject({ dataVersion: MIGRATIONS.at(-2)?.version, appVersion: null, kind: 'before-migration' });
    expect(settingsIn(before?.path ?? '')).toEqual({ kept: 'yes' });
    expect(settingsIn(path)).toMatchObject({ kept: 'yes', 'profile.appVersion': '9.8.7' });
    // A fresh profile has nothing to lose: no backup before its first migrations.
    rmSync(backupsDirOf(path), { recursive: true });
    const fresh = openHomeStore(join(dir, 'other.sqlite'), { clock: scaledClock(1), version: '9.8.7' });
    void fresh.backups.stop();
    fresh.store.close();
    expect(existsSync(backupsDirOf(path))).toBe(false);
  });

  it('says what each backup holds, read from its file: rows, data and app version, empty, newer or unreadable', () => {
    const path = profileAt();
    const { store, backups } = openHomeStore(path, { clock: scaledClock(1), version: '1.4.0' });
    void backups.stop();
    const empty = backupNow(store.db, path, T0);
    addListings(store, 12);
    addTrade(store, 'T1');
    const repos = createRepos(store);
    repos.drafts.create('Monday');
    const full = backupNow(store.db, path, T0 + DAY);
    const newer = backupNow(store.db, path, T0 + 2 * DAY);
    const unreadable = backupNow(store.db, path, T0 + 3 * DAY);
    store.close();
    const raise = new DatabaseSync(newer.path);
    raise.exec(`PRAGMA user_version = ${LATEST_VERSION + 2}`);
    raise.close();
    writeFileSync(unreadable.path, Buffer.alloc(8192, 7));

    expect(describeBackup(empty)).toMatchObject({
      name: basename(empty.path), takenAt: T0, kind: 'daily', dataVersion: LATEST_VERSION, appVersion: '1.4.0',
      rows: { listings: 0, buyOrders: 0, drafts: 0, draftChanges: 0, trades: 0 }, empty: true, refusal: null,
    });
    expect(describeBackup(empty).sizeBytes).toBeGreaterThan(4096);
    expect(describeBackup(full)).toMatchObject({ rows: { listings: 12, buyOrders: 0, drafts: 1, draftChanges: 0, trades: 1 }, empty: false, refusal: null });
    expect(describeBackup(newer)).toMatchObject({
      dataVersion: LATEST_VERSION + 2,
      refusal: `It was saved by a newer version of Marketplace Desk (data version ${LATEST_VERSION + 2}; this version reads up to ${LATEST_VERSION}), so this version cannot restore it.`,
    });
    expect(describeBackup(unreadable)).toMatchObject({ dataVersion: null, rows: null, refusal: 'It cannot be read (file is not a database).' });
    // Reading them wrote nothing beside them.
    expect(readdirSync(backupsDirOf(path))).toHaveLength(4);
  });

  it('restores a sound backup into the profile’s place, and refuses a damaged one', () => {
    const path = profileAt();
    const store = openStore(path);
    createRepos(store).settings.set('theme', 'dark');
    const good = backupNow(store.db, path, T0);
    const bad = backupNow(store.db, path, T0 + DAY);
    store.close();
    writeFileSync(bad.path, Buffer.alloc(8192, 7));
    expect(() => restoreBackup(bad.path, path)).toThrow(/cannot be used/);
    rmSync(path);
    // A -wal left at the place is not laid over the backup.
    writeFileSync(`${path}-wal`, 'stray');
    restoreBackup(good.path, path);
    expect(existsSync(`${path}-wal`)).toBe(false);
    openStore(path).close();
    expect(settingsIn(path)).toEqual({ theme: 'dark' });
    // The backup itself stays for another time.
    expect(existsSync(good.path)).toBe(true);
  });
});
