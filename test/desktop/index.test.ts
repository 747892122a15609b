import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { CHANNEL_NAMES } from '../../src-shared/channels.ts';
import { until } from './boot-support.ts';
import { app, BrowserWindow, ipcMain, resetFakeElectron, Tray } from './fake-electron.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

/**
 * The entry file itself, as Electron runs it: a fresh profile starts in
 * sandbox mode against the built-in simulator, with every channel bound, a
 * window and a tray, and quits cleanly. (The boot test drives the same
 * composition in depth, through main-process.ts.)
 */
let dir: string;
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('src-main/main-thread/desktop/index.ts starts the app in sandbox mode, on the profile --user-data-dir names, and quits', async () => {
  resetFakeElectron();
  dir = await mkdtemp(join(tmpdir(), 'desk-index-'));
  // How the launch spec starts the real app on a temporary profile.
  const argv = process.argv;
  process.argv = [...argv, `--user-data-dir=${dir}`];
  try {
    await import('../../src-main/main-thread/desktop/index.ts');
  } finally {
    process.argv = argv;
  }
  expect([app.getPath('userData'), app.getPath('logs')]).toEqual([dir, join(dir, 'logs')]);
  await until('every channel to be bound', () => ipcMain.handlers.size === CHANNEL_NAMES.length);
  expect([...ipcMain.handlers.keys()].sort()).toEqual([...CHANNEL_NAMES].sort());
  await until('the window to open', () => BrowserWindow.instances.length === 1);
  expect(Tray.instances[0]?.tooltip).toMatch(/^Marketplace Desk \(sandbox\)/);
  app.quit();
  await until('the app to exit', () => app.exitCode !== null);
  expect(app.exitCode).toBe(0);
  // The profile and its log are in that folder.
  expect(readdirSync(join(dir, 'profiles')).length).toBeGreaterThan(0);
  expect(readFileSync(join(dir, 'logs', 'main.log'), 'utf8')).toMatch(/"msg":"closed"/);
});
