import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { app, resetFakeElectron } from './fake-electron.ts';

vi.mock('electron', () => import('./fake-electron.ts'));
const { launchedHidden, setStartAtLogin } = await import('../../src-main/main-thread/desktop/login-item.ts');

let config: string;
beforeEach(async () => { resetFakeElectron(); config = await mkdtemp(join(tmpdir(), 'xdg-config-')); });
afterEach(async () => { await rm(config, { recursive: true, force: true }); });

describe('start at login', () => {
  it('registers a hidden login start with Electron on Windows and macOS', async () => {
    await setStartAtLogin(true, { platform: 'win32' });
    expect(app.setLoginItemSettings).toHaveBeenCalledExactlyOnceWith({ openAtLogin: true, args: ['--hidden'] });
  });

  it('writes and removes an XDG autostart entry on Linux', async () => {
    const deps = { platform: 'linux' as const, env: { XDG_CONFIG_HOME: config, APPIMAGE: '/home/t/Desk.AppImage' }, execPath: '/tmp/.mount/desk' };
    const entryFile = join(config, 'autostart', 'marketplace-desk.desktop');
    await setStartAtLogin(true, deps);
    const entry = await readFile(entryFile, 'utf8');
    expect(entry).toContain('Exec="/home/t/Desk.AppImage" --hidden');
    await setStartAtLogin(false, deps);
    expect(existsSync(entryFile)).toBe(false);
    expect(app.setLoginItemSettings).not.toHaveBeenCalled();
  });

  it('knows a login start from its flag or from macOS', () => {
    expect(launchedHidden(['/opt/desk', '--hidden'], 'linux')).toBe(true);
    expect(launchedHidden(['/opt/desk'], 'linux')).toBe(false);
    app.getLoginItemSettings.mockReturnValueOnce({ openAtLogin: true, wasOpenedAtLogin: true });
    expect(launchedHidden(['/Applications/Desk.app'], 'darwin')).toBe(true);
  });
});
