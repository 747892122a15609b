import { copyFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaledClock } from '../../src-main/core/clock.ts';
import type { WorkerLogLine } from '../../src-main/core/data/desk-methods.ts';
import { listBackups } from '../../src-main/core/profile/backup-files.ts';
import { openStore } from '../../src-main/core/store/db.ts';
import { LATEST_VERSION } from '../../src-main/core/store/migrations.ts';
import { connectDesk, type DeskConnection } from '../../src-main/main-thread/desk-connection.ts';
import { addListings } from '../core/profile/profile-rows.ts';
import { until } from '../desktop/boot-support.ts';
import { memoryKeychain } from '../support/memory-keychain.ts';
import { call } from '../support/router-call.ts';
import { DESK_WORKER } from './desk-worker-entry.ts';

/**
 * The daily backups as the app makes them: the data worker started through
 * main's own connection (desk-connection.ts), the desk composed in it by the
 * worker's entry as at every start, nothing handed in but a clock that runs
 * 21,600 times faster (a day in 4 s). Three days pass; then each backup is
 * restored from Settings' channel and holds the profile as it was when it
 * was taken. The live service it is pointed at never answers and no key is
 * set, so the trader's edits alone change the profile.
 */

const SCALE = 21_600;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let dir: string;
let connection: DeskConnection;
const logged: WorkerLogLine[] = [];
const origin = Date.now();
const clock = scaledClock(SCALE, origin);
const profile = () => join(dir, 'default.sqlite');
const dailies = () => listBackups(profile()).filter((b) => b.kind === 'daily');

/** What the profile holds, read on a connection of the test's own beside the desk's. */
function contents(): { drafts: string[]; listings: number; theme: unknown } {
  const db = new DatabaseSync(profile(), { readOnly: true });
  try {
    const drafts = (db.prepare('SELECT name FROM drafts ORDER BY created_at, draft_id').all() as { name: string }[]).map((d) => d.name);
    const settings = db.prepare(`SELECT value FROM settings WHERE key = 'app.settings'`).get() as { value: string } | undefined;
    const theme = settings ? (JSON.parse(settings.value) as { theme?: unknown }).theme : undefined;
    return { drafts, listings: Number((db.prepare('SELECT count(*) AS n FROM listings').get() as { n: number }).n), theme };
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'desk-daily-backups-'));
  const store = openStore(profile());
  addListings(store, 40);
  store.close();
  const line = (level: WorkerLogLine['level']) => (message: string, fields?: Record<string, unknown>) => void logged.push({ level, message, ...(fields ? { fields } : {}) });
  connection = await connectDesk({
    spawn: () => new Worker(DESK_WORKER),
    secrets: memoryKeychain(),
    config: {
      dataDir: dir, version: '3.1.4', clock: { scale: SCALE, origin }, sandbox: {},
      initialSettings: { mode: 'live', serviceUrl: 'http://127.0.0.1:9' },
    },
    platform: { openLink: () => undefined },
    log: { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') },
  });
});

afterAll(async () => {
  await connection?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('daily backups of the desk the app composes', () => {
  it('makes one a day for three days, lists them, and restores each to the profile it was taken from', async () => {
    const { router } = connection;
    const taken = new Map<string, { drafts: string[]; listings: number }>();
    // The first is taken 30 s (simulated) after the desk opened: of the profile as it was seeded.
    for (let day = 1; day <= 3; day++) {
      const made = await until(`daily backup ${day}`, () => (dailies().length === day ? dailies()[0] : null), 60_000);
      taken.set(made.path, contents());
      await call(router, 'drafts:create', { name: `after backup ${day}` });
      await call(router, 'settings:update', { theme: day % 2 === 0 ? 'dark' : 'light' });
    }
    // The third came within three days, and none more until the third day is over.
    expect(clock.now() - origin).toBeLessThan(3 * DAY);
    await until('the third day to end', () => clock.now() - origin >= 3 * DAY - HOUR, 60_000);
    const kept = dailies().reverse();
    expect(kept).toHaveLength(3);
    for (let i = 1; i < kept.length; i++) expect((kept[i]?.takenAt ?? 0) - (kept[i - 1]?.takenAt ?? 0)).toBeGreaterThanOrEqual(DAY);
    expect(logged.filter((l) => l.message === 'daily backup made')).toHaveLength(3);

    // Settings lists them, newest first, with what each holds and the version that wrote it.
    const listed = await call(router, 'backups:list', {});
    expect(listed.problem).toBeNull();
    expect(listed.backups.map((b) => [b.file, b.kind, b.appVersion, b.rows?.listings, b.rows?.drafts])).toEqual(
      kept.reverse().map((b, i) => [b.path, 'daily', '3.1.4', 40, 2 - i]),
    );
    expect(listed.backups.every((b) => b.sizeBytes > 4096 && b.refusal === null && !b.empty)).toBe(true);

    // Each restored in turn, through the worker: the profile is what it was when that backup was taken.
    for (const backup of listed.backups) {
      const before = contents();
      const restored = await call(router, 'backups:restore', { backup: backup.name });
      expect(restored.restored.name).toBe(backup.name);
      expect(restored.savedAs).toMatchObject({ kind: 'before-restore', rows: { drafts: before.drafts.length, listings: before.listings } });
      // Drafts, listings and settings: each as that day left them.
      expect(contents()).toEqual(taken.get(backup.file));
      // The desk that answers is the reopened one, on the restored profile.
      expect((await call(router, 'drafts:list', {})).drafts.map((d) => d.name).sort()).toEqual([...(taken.get(backup.file)?.drafts ?? [])].sort());
    }
    expect(logged.filter((l) => l.level === 'error')).toEqual([]);
  }, 120_000);

  it('refuses a backup from a newer data version and an empty one unless confirmed, the desk open as it was meanwhile', async () => {
    const { router } = connection;
    const [newest] = listBackups(profile());
    // A backup a newer version wrote, and one of an empty profile, beside the desk's own.
    const newer = join(dir, 'backups', 'default.backup-20300101T000000000Z.sqlite');
    const empty = join(dir, 'backups', 'default.backup-20000101T000000000Z.sqlite');
    copyFileSync(newest?.path ?? '', newer);
    const raise = new DatabaseSync(newer);
    raise.exec(`PRAGMA user_version = ${LATEST_VERSION + 1}`);
    raise.close();
    const blank = openStore(empty);
    blank.close();
    const before = contents();

    const refusedNewer = await router.invoke('backups:restore', { backup: basename(newer) });
    expect(refusedNewer).toMatchObject({ ok: false, error: { kind: 'conflict', message: expect.stringMatching(/cannot be restored\. It was saved by a newer version of Marketplace Desk/) } });
    const refusedEmpty = await router.invoke('backups:restore', { backup: basename(empty) });
    expect(refusedEmpty).toMatchObject({ ok: false, error: { kind: 'conflict', message: expect.stringMatching(/is empty: it holds no listings, buy orders, drafts or trades/) } });
    expect(contents()).toEqual(before);
    expect((await call(router, 'drafts:list', {})).drafts).toHaveLength(before.drafts.length);

    // Confirmed, the empty one is restored: the trader meant it.
    await call(router, 'backups:restore', { backup: basename(empty), confirmEmpty: true });
    expect(contents()).toMatchObject({ drafts: [], listings: 0 });
  });
});
