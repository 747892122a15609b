import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import { app, resetFakeElectron } from './fake-electron.ts';

/**
 * A packaged Linux AppImage of `version` as electron-updater finds one:
 * resources/app-update.yml naming the feed (electron-builder writes it from
 * `publish`), the running file in $APPIMAGE, and a cache folder of its own.
 * Returns the folder holding it all; `leavePackagedAppImage` removes it.
 */
export async function packagedAppImage(feedUrl: string, version: string): Promise<string> {
  resetFakeElectron();
  const root = await mkdtemp(join(tmpdir(), 'desk-updater-'));
  await writeFile(join(root, 'app-update.yml'), `provider: generic\nurl: ${feedUrl}\nupdaterCacheDirName: marketplace-desk-updater\n`);
  await writeFile(join(root, 'old.AppImage'), 'old version');
  Object.defineProperty(process, 'resourcesPath', { value: root, configurable: true });
  vi.stubEnv('APPIMAGE', join(root, 'old.AppImage'));
  // electron-updater's cache folder, per platform.
  vi.stubEnv('XDG_CACHE_HOME', join(root, 'cache'));
  vi.stubEnv('LOCALAPPDATA', join(root, 'cache'));
  if (process.platform === 'darwin') vi.stubEnv('HOME', root);
  app.isPackaged = true;
  app.version = version;
  app.setPath('userData', join(root, 'user-data'));
  return root;
}

export async function leavePackagedAppImage(root: string): Promise<void> {
  vi.unstubAllEnvs();
  await rm(root, { recursive: true, force: true });
}
