import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/core/desk/desk.ts';
import { backupNow, type Backup } from '../../../src-main/core/profile/backups.ts';
import { openProfileDesk, recoverProfileDesk, type ProfileOpeningDeps } from '../../../src-main/core/desk/profile-opening.ts';
import { openStore } from '../../../src-main/core/store/db.ts';
import { createRepos } from '../../../src-main/core/store/index.ts';
import { LATEST_VERSION } from '../../../src-main/core/store/migrations.ts';
import { memoryKeychain } from '../../support/memory-keychain.ts';
import { addListings, addTrade } from '../profile/profile-rows.ts';

/**
 * A profile that cannot be opened: the desk says why instead of ending,
 * moves a damaged (or newer) database aside with its -wal and -shm, never
 * deleting it, and opens again with the newest backup restored, or fresh.
 */

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function profileDir(): ProfileOpeningDeps {
  const dataDir = mkdtempSync(join(tmpdir(), 'desk-opening-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  // A live service nobody answers: the desk opens its store and waits for a key, sending nothing.
  return { dataDir, secrets: memoryKeychain(), version: 'test', initialSettings: { mode: 'live', serviceUrl: 'http://127.0.0.1:9' } };
}

async function opened(outcome: Promise<{ desk: Desk | null }>): Promise<Desk> {
  const { desk } = await outcome;
  if (!desk) throw new Error('the desk did not open');
  cleanups.push(() => desk.close());
  return desk;
}

/** A profile with a draft named `name`, closed, and a backup of it taken then. */
async function profileWithBackup(deps: ProfileOpeningDeps, name: string): Promise<string> {
  const desk = await opened(openProfileDesk(deps));
  desk.workspace().drafts.create(name);
  await desk.close();
  cleanups.pop();
  const path = join(deps.dataDir, 'default.sqlite');
  const store = openStore(path);
  backupNow(store.db, path, Date.UTC(2025, 10, 25, 8, 0));
  store.close();
  return path;
}

const draftNames = (desk: Desk) => desk.workspace().drafts.list().map((d) => d.name);

describe('a profile that cannot be opened', () => {
  it('random bytes: says the file is damaged, moves it aside with its -wal and -shm, and restores the newest backup when asked', async () => {
    const deps = profileDir();
    const path = await profileWithBackup(deps, 'kept in the backup');
    const garbage = randomBytes(64 * 1024);
    writeFileSync(path, garbage);
    writeFileSync(`${path}-wal`, 'stray wal');
    writeFileSync(`${path}-shm`, 'stray shm');

    const { desk, problem } = await openProfileDesk(deps);
    expect(desk).toBeNull();
    expect(problem).toMatchObject({
      kind: 'damaged',
      file: path,
      message: expect.stringMatching(/^The profile’s data file is damaged and cannot be read \(file is not a database\)\. It was moved aside, not deleted\.$/),
      movedTo: expect.stringMatching(/default\.sqlite\.broken-\d{8}T\d{9}Z$/),
      backups: [{
        takenAt: Date.UTC(2025, 10, 25, 8, 0), name: 'default.backup-20251125T080000000Z.sqlite', file: expect.stringMatching(/backups\/default\.backup-20251125T080000000Z\.sqlite$/),
        kind: 'daily', appVersion: 'test', rows: { listings: 0, buyOrders: 0, drafts: 1, draftChanges: 0, trades: 0 }, empty: false, refusal: null,
      }],
      choices: ['restore', 'fresh'],
    });
    const movedTo = problem?.movedTo ?? '';
    // Moved, never deleted: the bytes are all there, beside their -wal and -shm.
    expect(readFileSync(movedTo)).toEqual(garbage);
    expect(readFileSync(`${movedTo}-wal`, 'utf8')).toBe('stray wal');
    expect(readFileSync(`${movedTo}-shm`, 'utf8')).toBe('stray shm');
    expect(existsSync(path)).toBe(false);

    const restored = await opened(recoverProfileDesk(deps, problem!, { choice: 'restore', backup: problem?.backups[0]?.name }));
    expect(draftNames(restored)).toEqual(['kept in the backup']);
    expect(readFileSync(movedTo)).toEqual(garbage);
  });

  it('scrambled pages: damaged too; starting fresh opens an empty profile and keeps the damaged file', async () => {
    const deps = profileDir();
    const path = await profileWithBackup(deps, 'a draft');
    const bytes = readFileSync(path);
    // Every page after the first (the header and the schema's root) overwritten.
    randomBytes(bytes.length - 4096).copy(bytes, 4096);
    writeFileSync(path, bytes);

    const { problem } = await openProfileDesk(deps);
    expect(problem).toMatchObject({ kind: 'damaged', choices: ['restore', 'fresh'], message: expect.stringMatching(/damaged/) });
    const fresh = await opened(recoverProfileDesk(deps, problem!, { choice: 'fresh' }));
    expect(draftNames(fresh)).toEqual([]);
    expect(readFileSync(problem?.movedTo ?? '')).toEqual(bytes);
  });

  it('a database newer than the app: says so, moves it aside for the newer version, offers the backup', async () => {
    const deps = profileDir();
    const path = await profileWithBackup(deps, 'a draft');
    const db = new DatabaseSync(path);
    db.exec(`PRAGMA user_version = ${LATEST_VERSION + 3}`);
    db.close();
    const { problem } = await openProfileDesk(deps);
    expect(problem).toMatchObject({
      kind: 'newer',
      message: expect.stringMatching(new RegExp(`^The profile was saved by a newer version of Marketplace Desk \\(data version ${LATEST_VERSION + 3}; this version reads up to ${LATEST_VERSION}\\)`)),
      choices: ['restore', 'fresh'],
    });
    // The newer app can still open it, under its new name.
    const aside = new DatabaseSync(problem?.movedTo ?? '', { readOnly: true });
    expect((aside.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(LATEST_VERSION + 3);
    aside.close();
  });

  it('a damaged profile is remembered until the trader decides: every open shows the same problem, and no empty profile takes its place', async () => {
    const deps = profileDir();
    const path = await profileWithBackup(deps, 'kept in the backup');
    writeFileSync(path, randomBytes(64 * 1024));
    const first = await openProfileDesk(deps);
    expect(first.problem?.kind).toBe('damaged');
    const marker = join(deps.dataDir, 'default.recovery.json');
    expect(JSON.parse(readFileSync(marker, 'utf8'))).toMatchObject({ kind: 'damaged', file: path, movedTo: first.problem?.movedTo });

    // A quit and a new start, or a data worker restarted while the screen waited: the same screen, nothing opened.
    for (let start = 0; start < 2; start++) {
      const again = await openProfileDesk(deps);
      expect(again.desk).toBeNull();
      expect(again.problem).toEqual(first.problem);
      expect(existsSync(path)).toBe(false);
    }
    expect(readdirSync(deps.dataDir).filter((f) => f.includes('.broken-'))).toHaveLength(1);

    // The trader decides: the note goes, and the next start opens the profile as chosen.
    const fresh = await opened(recoverProfileDesk(deps, first.problem!, { choice: 'fresh' }));
    expect(draftNames(fresh)).toEqual([]);
    expect(existsSync(marker)).toBe(false);
    await fresh.close();
    cleanups.pop();
    const next = await opened(openProfileDesk(deps));
    expect(draftNames(next)).toEqual([]);
  });

  it('offers every backup with what it holds; refuses one from a newer data version, and restores an empty one only when confirmed', async () => {
    const deps = profileDir();
    const path = join(deps.dataDir, 'default.sqlite');
    const at = (day: number) => Date.UTC(2025, 10, 20 + day, 8, 0);
    // An empty profile's backup, one holding the trader's work, and one a newer version wrote.
    let desk = await opened(openProfileDesk(deps));
    await desk.close();
    cleanups.pop();
    const store = openStore(path);
    const empty = backupNow(store.db, path, at(0));
    addListings(store, 30);
    addTrade(store, 'T1');
    createRepos(store).drafts.create('Friday’s repricing');
    const full = backupNow(store.db, path, at(1));
    const newer = backupNow(store.db, path, at(2));
    store.close();
    const raise = new DatabaseSync(newer.path);
    raise.exec(`PRAGMA user_version = ${LATEST_VERSION + 1}`);
    raise.close();
    writeFileSync(path, randomBytes(64 * 1024));

    const { problem } = await openProfileDesk(deps);
    expect(problem?.choices).toEqual(['restore', 'fresh']);
    expect(problem?.backups.map((b) => [b.takenAt, b.dataVersion, b.rows?.listings, b.rows?.drafts, b.rows?.trades, b.empty, b.refusal === null])).toEqual([
      [at(2), LATEST_VERSION + 1, 30, 1, 1, false, false],
      [at(1), LATEST_VERSION, 30, 1, 1, false, true],
      [at(0), LATEST_VERSION, 0, 0, 0, true, true],
    ]);
    const restore = (backup: Backup, confirmEmpty?: true) =>
      recoverProfileDesk(deps, problem!, { choice: 'restore', backup: basename(backup.path), ...(confirmEmpty ? { confirmEmpty } : {}) });

    await expect(restore(newer)).rejects.toMatchObject({
      kind: 'conflict',
      message: `The backup of 2025-11-22 08:00 UTC cannot be restored. It was saved by a newer version of Marketplace Desk (data version ${LATEST_VERSION + 1}; this version reads up to ${LATEST_VERSION}), so this version cannot restore it.`,
    });
    await expect(restore(empty)).rejects.toMatchObject({ kind: 'conflict', message: expect.stringMatching(/^The backup of 2025-11-20 08:00 UTC is empty: it holds no listings, buy orders, drafts or trades/) });
    await expect(recoverProfileDesk(deps, problem!, { choice: 'restore' })).rejects.toMatchObject({ kind: 'invalid', message: 'Choose which backup to restore' });
    await expect(recoverProfileDesk(deps, problem!, { choice: 'restore', backup: '../default.sqlite' })).rejects.toMatchObject({ kind: 'not_found' });
    // Refused: nothing was put in the place, and the problem stands.
    expect(existsSync(path)).toBe(false);
    expect((await openProfileDesk(deps)).problem?.movedTo).toBe(problem?.movedTo);

    desk = await opened(restore(empty, true));
    expect(draftNames(desk)).toEqual([]);
    await desk.close();
    cleanups.pop();
    // Damaged again, the backup of the trader's work comes back whole.
    writeFileSync(path, randomBytes(64 * 1024));
    const again = await openProfileDesk(deps);
    desk = await opened(recoverProfileDesk(deps, again.problem!, { choice: 'restore', backup: basename(full.path) }));
    expect(draftNames(desk)).toEqual(['Friday’s repricing']);
    expect(desk.workspace().repos.listings.all()).toHaveLength(30);
  });

  it('another desk on the profile: says so, moves nothing, and opens when tried again after it closed', async () => {
    const deps = profileDir();
    const first = await opened(openProfileDesk(deps));
    const { problem } = await openProfileDesk(deps);
    expect(problem).toMatchObject({ kind: 'locked', movedTo: null, backups: [], choices: ['retry'], message: expect.stringMatching(/^Another Marketplace Desk has this profile open/) });
    await expect(recoverProfileDesk(deps, problem!, { choice: 'fresh' })).rejects.toMatchObject({ kind: 'invalid' });
    await first.close();
    cleanups.pop();
    const second = await opened(recoverProfileDesk(deps, problem!, { choice: 'retry' }));
    expect(second.status().profile).toBe('default');
    expect(readdirSync(deps.dataDir).filter((f) => f.includes('broken'))).toEqual([]);
  });
});

// A read-only folder: root writes anywhere, so as root a read-only tmpfs stands in for it.
const readOnly = (() => {
  if (process.getuid?.() !== 0) return { how: 'chmod' as const, skip: null };
  const probe = mkdtempSync(join(tmpdir(), 'desk-ro-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', probe], { stdio: 'pipe' });
    execFileSync('umount', [probe]);
    return { how: 'mount' as const, skip: null };
  } catch {
    return { how: 'mount' as const, skip: 'running as root where mount -t tmpfs is not permitted: no folder is read-only to root' };
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
})();

describe('a profile in a read-only folder', () => {
  it.skipIf(readOnly.skip !== null)(`says the folder cannot be written, moves nothing, and offers to try again${readOnly.skip ? ` (skipped: ${readOnly.skip})` : ''}`, async () => {
    const deps = profileDir();
    const folder = join(deps.dataDir, 'profiles');
    const inFolder = { ...deps, dataDir: folder };
    if (readOnly.how === 'mount') {
      execFileSync('mkdir', ['-p', folder]);
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', folder]);
      cleanups.push(() => void execFileSync('umount', [folder]));
    }
    const desk = await opened(openProfileDesk(inFolder));
    await desk.close();
    cleanups.pop();
    if (readOnly.how === 'mount') execFileSync('mount', ['-o', 'remount,ro', folder]);
    else execFileSync('chmod', ['0555', folder]);
    cleanups.push(() => void execFileSync('chmod', ['0755', folder]));

    const { problem } = await openProfileDesk(inFolder);
    expect(problem).toMatchObject({
      kind: 'read_only', movedTo: null, choices: ['retry'],
      message: `The profile in ${folder} cannot be written (the folder or the file is read-only, or the desk is not allowed to write there). Make it writable, then try again.`,
    });
    expect(existsSync(join(folder, 'default.sqlite'))).toBe(true);
    if (readOnly.how === 'mount') execFileSync('mount', ['-o', 'remount,rw', folder]);
    else execFileSync('chmod', ['0755', folder]);
    const again = await opened(recoverProfileDesk(inFolder, problem!, { choice: 'retry' }));
    expect(again.status().profile).toBe('default');
  });
});
