import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { describeBackup } from '../../../src-main/core/profile/backup-contents.ts';
import { chooseBackup } from '../../../src-main/core/profile/backup-choice.ts';
import { backupNow, backupsDirOf, listBackups } from '../../../src-main/core/profile/backups.ts';
import { swapInBackup } from '../../../src-main/core/profile/profile-restore.ts';
import { openStore } from '../../../src-main/core/store/db.ts';
import { addListings } from './profile-rows.ts';

/**
 * A backup restored over a profile whose desk has closed: the profile as it
 * is backed up first, then the chosen backup put in its place, under the
 * profile's lock; when the first step fails, the profile stays as it was.
 */

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const T0 = Date.UTC(2025, 10, 20, 9, 0);
const listingsIn = (path: string) => {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return Number((db.prepare('SELECT count(*) AS n FROM listings').get() as { n: number }).n);
  } finally {
    db.close();
  }
};

function profileWithBackup(): { path: string; backupName: string; lock: { path: string; token: string; now: () => number } } {
  dir = mkdtempSync(join(tmpdir(), 'desk-restore-'));
  const path = join(dir, 'default.sqlite');
  const store = openStore(path);
  addListings(store, 5);
  const backup = backupNow(store.db, path, T0);
  addListings(store, 7, 100);
  store.close();
  return { path, backupName: basename(backup.path), lock: { path: join(dir, 'default.lock'), token: 'worker', now: () => T0 } };
}

describe('restoring a backup over a closed profile', () => {
  it('backs the profile up as it is, then puts the chosen backup in its place', () => {
    const { path, backupName, lock } = profileWithBackup();
    const saved = swapInBackup({ homePath: path, chosen: chooseBackup(path, { name: backupName }), now: T0 + 3_600_000, lock });
    expect(listingsIn(path)).toBe(5);
    expect(describeBackup(saved)).toMatchObject({ kind: 'before-restore', takenAt: T0 + 3_600_000, rows: { listings: 12 } });
    // Nothing half done is left, and the lock is let go.
    expect(readdirSync(dir).sort()).toEqual(['backups', 'default.sqlite']);
    expect(listBackups(path).map((b) => basename(b.path))).toEqual([basename(saved.path), backupName]);
  });

  it('leaves the profile as it was when its own backup cannot be made', () => {
    const { path, backupName, lock } = profileWithBackup();
    const now = T0 + 3_600_000;
    // Where the backup of the profile as it is would go, something is in the way.
    const blocked = join(backupsDirOf(path), `default.backup-20251120T100000000Z.before-restore.sqlite`);
    mkdirSync(blocked);
    writeFileSync(join(blocked, 'x'), 'x');
    expect(() => swapInBackup({ homePath: path, chosen: chooseBackup(path, { name: backupName }), now, lock })).toThrow();
    expect(readdirSync(dir).sort()).toEqual(['backups', 'default.sqlite']);
    expect(listingsIn(path)).toBe(12);
  });
});
