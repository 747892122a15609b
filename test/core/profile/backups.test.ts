import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { scaledClock } from '../../../src-main/core/clock.ts';
import {
  BACKUP_EVERY_MS, backupDue, backupNow, backupOnline, backupsDirOf, latestBackup, latestSoundBackup, listBackups, restoreBackup,
} from '../../../src-main/core/profile/backups.ts';
import { startDailyBackups } from '../../../src-main/core/profile/daily-backups.ts';
import { openHomeStore } from '../../../src-main/core/profile/home-store.ts';
import { openStore } from '../../../src-main/core/store/db.ts';
import { LATEST_VERSION, MIGRATIONS, migrate } from '../../../src-main/core/store/migrations.ts';
import { createRepos } from '../../../src-main/core/store/index.ts';

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
  it('backs up with VACUUM INTO and the online backup API into backups/ beside the profile, keeps the newest five', async () => {
    const path = profileAt();
    const store = openStore(path);
    const repos = createRepos(store);
    // What a crash in the middle of a backup leaves behind: not a backup, and cleared by the next one.
    mkdirSync(backupsDirOf(path), { recursive: true });
    writeFileSync(join(backupsDirOf(path), 'default.backup-20250101T000000000Z.writing'), 'half');
    for (let day = 0; day < 7; day++) {
      repos.settings.set('day', day);
      // Both of SQLite's means: each backup is one database file that opens on its own.
      if (day % 2 === 0) backupNow(store.db, path, T0 + day * DAY);
      else await backupOnline(store.db, path, T0 + day * DAY);
    }
    store.close();
    const kept = listBackups(path);
    expect(kept.map((b) => b.takenAt)).toEqual([6, 5, 4, 3, 2].map((d) => T0 + d * DAY));
    expect(kept.map((b) => settingsIn(b.path).day)).toEqual([6, 5, 4, 3, 2]);
    expect(readdirSync(backupsDirOf(path)).sort()).toEqual(kept.map((b) => b.path.split('/').pop()).sort());
    expect(latestBackup(path)?.takenAt).toBe(T0 + 6 * DAY);
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

  it('the daily backup runs while the profile is open, and not twice in a day', async () => {
    const path = profileAt();
    const store = openStore(path);
    const clock = scaledClock(3_600_000);
    const made: number[] = [];
    let third: () => void = () => undefined;
    const threeMade = new Promise<void>((resolve) => (third = resolve));
    // An hour lasts 1 ms: checked every hour, a backup is made once a day.
    const daily = startDailyBackups({
      store, clock, checkEveryMs: 60 * 60_000, firstCheckAfterMs: 0,
      onBackup: (b) => {
        if (made.push(b.takenAt) === 3) third();
      },
    });
    await threeMade;
    await daily.stop();
    store.close();
    for (let i = 1; i < made.length; i++) expect((made[i] ?? 0) - (made[i - 1] ?? 0)).toBeGreaterThanOrEqual(DAY);
  });

  it('backs up before a migration changes the profile, with the data as it was', () => {
    const path = profileAt();
    const db = new DatabaseSync(path);
    migrate(db, LATEST_VERSION - 1);
    db.exec(`INSERT INTO settings (key, value, updated_at) VALUES ('kept', '"yes"', 0)`);
    db.close();
    const { store, backups } = openHomeStore(path, scaledClock(1));
    void backups.stop();
    store.close();
    const [before] = listBackups(path);
    expect(before).toBeDefined();
    const copy = new DatabaseSync(before?.path ?? '', { readOnly: true });
    expect((copy.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(MIGRATIONS.at(-2)?.version);
    copy.close();
    expect(settingsIn(before?.path ?? '')).toEqual({ kept: 'yes' });
    // A fresh profile has nothing to lose: no backup before its first migrations.
    rmSync(backupsDirOf(path), { recursive: true });
    const fresh = openHomeStore(join(dir, 'other.sqlite'), scaledClock(1));
    void fresh.backups.stop();
    fresh.store.close();
    expect(existsSync(backupsDirOf(path))).toBe(false);
  });

  it('restores a sound backup into the profile’s place, and passes over a damaged one', () => {
    const path = profileAt();
    const store = openStore(path);
    createRepos(store).settings.set('theme', 'dark');
    const good = backupNow(store.db, path, T0);
    const bad = backupNow(store.db, path, T0 + DAY);
    store.close();
    writeFileSync(bad.path, Buffer.alloc(8192, 7));
    expect(latestSoundBackup(path)?.path).toBe(good.path);
    expect(() => restoreBackup(bad.path, path)).toThrow(/cannot be used/);
    rmSync(path);
    restoreBackup(good.path, path);
    openStore(path).close();
    expect(settingsIn(path)).toEqual({ theme: 'dark' });
    // The backup itself stays for another time.
    expect(existsSync(good.path)).toBe(true);
  });
});
