import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { backupNow } from '../../src-main/core/profile/backups.ts';
import { openStore } from '../../src-main/core/store/db.ts';
import { createRepos } from '../../src-main/core/store/index.ts';
import { connectDesk, type DeskConnection } from '../../src-main/main-thread/desk-connection.ts';
import { until } from '../desktop/boot-support.ts';
import { memoryKeychain } from '../support/memory-keychain.ts';
import { call } from '../support/router-call.ts';
import { DESK_WORKER } from './desk-worker-entry.ts';

/**
 * The data worker dies while the recovery screen waits for the trader: the
 * worker main starts again opens the profile again, and finds the note of
 * the file moved aside, so the screen keeps its problem, instead of an
 * empty profile opening quietly in the damaged file's place.
 */

let dir = '';
let connection: DeskConnection | undefined;
afterAll(async () => {
  await connection?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a worker restarted while the recovery screen waits', () => {
  it('answers the same problem, and opens the profile only once the trader chooses', async () => {
    dir = await mkdtemp(join(tmpdir(), 'desk-recovery-restart-'));
    const path = join(dir, 'default.sqlite');
    const store = openStore(path);
    createRepos(store).drafts.create('kept in the backup');
    backupNow(store.db, path, Date.UTC(2025, 10, 25, 8, 0));
    store.close();
    writeFileSync(path, randomBytes(64 * 1024));

    connection = await connectDesk({
      spawn: () => new Worker(DESK_WORKER),
      secrets: memoryKeychain(),
      config: { dataDir: dir, version: 'test', clock: null, sandbox: {}, initialSettings: { mode: 'live', serviceUrl: 'http://127.0.0.1:9' } },
      platform: { openLink: () => undefined },
      log: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    const { problem } = await call(connection.router, 'profile:problem', {});
    expect(problem?.kind).toBe('damaged');

    await connection.kill();
    await until('the worker to be back', () => connection?.desk.storeState() === 'ready', 30_000);
    expect(await call(connection.router, 'profile:problem', {})).toEqual({ problem });
    expect(existsSync(path)).toBe(false);

    expect(await call(connection.router, 'profile:recover', { choice: 'restore', backup: problem?.backups[0]?.name })).toEqual({ opened: true, problem: null });
    expect((await call(connection.router, 'drafts:list', {})).drafts.map((d) => d.name)).toEqual(['kept in the backup']);
  });
});
