import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDraftService } from '../../src-main/core/drafts/draft-service.ts';
import { backupNow } from '../../src-main/core/profile/backups.ts';
import { openStore } from '../../src-main/core/store/db.ts';
import { createRepos } from '../../src-main/core/store/index.ts';
import { createSettingsService } from '../../src-main/core/settings/settings-service.ts';
import type { MainProcess } from '../../src-main/main-thread/desktop/main-process.ts';
import type { ProfileProblem } from '../../src-shared/profile.ts';
import { memoryKeychain } from '../support/memory-keychain.ts';
import { DESK_WORKER } from '../worker/desk-worker-entry.ts';
import { bootFolder, endBoot, invoke, until } from './boot-support.ts';
import { app, BrowserWindow, ipcMain, resetFakeElectron, Tray } from './fake-electron.ts';

vi.mock('electron', () => import('./fake-electron.ts'));
const { startMainProcess } = await import('../../src-main/main-thread/desktop/main-process.ts');

/**
 * The main process booted on a profile of random bytes: where it used to
 * end with exit code 1 and no window, it opens its window on the recovery
 * screen's channels, having moved the file aside, and opens the desk with
 * the backup restored when the trader chooses it; the window then becomes
 * the desk's. Closing the window instead ends the app cleanly.
 */

let dir: string;
let mainDir: string;
const backupTakenAt = Date.UTC(2025, 10, 25, 8, 0);

beforeEach(async () => ({ dir, mainDir } = await bootFolder('desk-boot-recovery-')));
afterEach(() => endBoot(dir));

const profiles = () => join(dir, 'user-data', 'profiles');

/** A profile holding the trader's settings and one live draft, backed up, then overwritten with random bytes. */
function damagedProfileWithBackup(): { path: string; garbage: Buffer } {
  const path = join(profiles(), 'default.sqlite');
  const store = openStore(path);
  const repos = createRepos(store);
  createSettingsService(repos.settings).update({ theme: 'dark', notificationsEnabled: false });
  const drafts = createDraftService({ store, repos });
  drafts.create('kept in the backup');
  drafts.dispose();
  backupNow(store.db, path, backupTakenAt);
  store.close();
  const garbage = randomBytes(96 * 1024);
  writeFileSync(path, garbage);
  return { path, garbage };
}

function boot(): MainProcess {
  return startMainProcess({
    sandbox: { seed: 23, inventorySize: 50, tradeSchedule: false },
    secrets: memoryKeychain(),
    timeScale: { scale: 60, origin: Date.now() },
    workerScript: DESK_WORKER,
    mainDir,
    argv: ['/opt/marketplace-desk/marketplace-desk'],
    onlinePollMs: 20,
  });
}

const problemShown = (): Promise<ProfileProblem> => until('the recovery channels to answer', async () =>
  ipcMain.handlers.has('profile:problem') ? (await invoke<{ problem: ProfileProblem | null }>('profile:problem')).problem : null);

describe('the main process on a profile that cannot be opened', () => {
  it('opens a window with the choices, the file moved aside, and the desk on the restored backup once chosen', async () => {
    const { path, garbage } = damagedProfileWithBackup();
    const main = boot();
    const problem = await problemShown();

    expect(app.exitCode).toBeNull();
    expect(BrowserWindow.instances).toHaveLength(1);
    const win = BrowserWindow.instances[0];
    expect(win?.loadedUrl).toBe('app://desk/index.html');
    await until('the window to show', () => win?.visible);
    expect(problem).toMatchObject({
      kind: 'damaged',
      file: path,
      message: expect.stringMatching(/^The profile’s data file is damaged and cannot be read/),
      backups: [{ takenAt: backupTakenAt, rows: { drafts: 1 } }],
      choices: ['restore', 'fresh'],
    });
    // Moved aside, never deleted.
    expect(readFileSync(problem.movedTo ?? '')).toEqual(garbage);
    // No desk yet: the rest of the bridge says so rather than answering.
    await expect(invoke('drafts:list')).rejects.toThrow(/drafts:list failed/);

    expect(await invoke('profile:recover', { choice: 'restore', backup: problem.backups[0]?.name })).toEqual({ opened: true, problem: null });
    const running = await main.started;
    expect(running).not.toBeNull();
    // The same window is the desk's now, with the tray beside it.
    expect(BrowserWindow.instances).toHaveLength(1);
    expect(Tray.instances).toHaveLength(1);
    expect(await invoke('profile:problem')).toEqual({ problem: null });
    // The trader's settings and the live ledger's draft are the backup's.
    expect(await invoke('settings:get')).toMatchObject({ theme: 'dark', notificationsEnabled: false, mode: 'sandbox' });
    await invoke('settings:update', { mode: 'live' });
    const listed = await invoke<{ drafts: Array<{ name: string }> }>('drafts:list');
    expect(listed.drafts.map((d) => d.name)).toEqual(['kept in the backup']);
    expect(readFileSync(problem.movedTo ?? '')).toEqual(garbage);
  });

  it('ends cleanly, moving nothing more, when the window is closed instead', async () => {
    damagedProfileWithBackup();
    const main = boot();
    const problem = await problemShown();
    // The recovery channels answer before the window is open: closing comes after it showed.
    (await until('the window to show', () => (BrowserWindow.instances[0]?.visible ? BrowserWindow.instances[0] : null))).close();
    expect(await main.started).toBeNull();
    await until('the app to quit', () => app.exitCode !== null);
    expect(app.exitCode).toBe(0);
    expect(existsSync(problem.movedTo ?? '')).toBe(true);
    expect(existsSync(join(profiles(), 'default.sqlite'))).toBe(false);
  });

  it('shows the recovery screen again on the next start after a quit, instead of opening an empty profile in the file’s place', async () => {
    const { path, garbage } = damagedProfileWithBackup();
    const first = boot();
    const problem = await problemShown();
    // The recovery channels answer before the window is open: closing comes after it showed.
    (await until('the window to show', () => (BrowserWindow.instances[0]?.visible ? BrowserWindow.instances[0] : null))).close();
    expect(await first.started).toBeNull();
    await until('the app to quit', () => app.exitCode !== null);

    // The trader starts the app again.
    resetFakeElectron();
    app.setPath('userData', join(dir, 'user-data'));
    const second = boot();
    expect(await problemShown()).toEqual(problem);
    expect(existsSync(path)).toBe(false);
    await expect(invoke('drafts:list')).rejects.toThrow(/drafts:list failed/);
    // This time the trader restores the backup: the desk opens on it.
    expect(await invoke('profile:recover', { choice: 'restore', backup: problem.backups[0]?.name })).toEqual({ opened: true, problem: null });
    expect(await second.started).not.toBeNull();
    await invoke('settings:update', { mode: 'live' });
    const listed = await invoke<{ drafts: Array<{ name: string }> }>('drafts:list');
    expect(listed.drafts.map((d) => d.name)).toEqual(['kept in the backup']);
    expect(readFileSync(problem.movedTo ?? '')).toEqual(garbage);
  });
});
