import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SavedWindowState } from '../../src-main/core/shell/window-bounds.ts';
import type { WindowStateStore } from '../../src-main/core/shell/window-state-file.ts';
import { app, BrowserWindow, resetFakeElectron } from './fake-electron.ts';

vi.mock('electron', () => import('./fake-electron.ts'));
const { createAppWindow } = await import('../../src-main/main-thread/desktop/app-window.ts');

/** A window state file in memory: what the last window saved, the next one reads. */
function memoryStore(): WindowStateStore & { last: SavedWindowState | null } {
  const store = {
    last: null as SavedWindowState | null,
    load: async () => store.last,
    save: async (s: SavedWindowState) => void (store.last = s),
    settled: async () => undefined,
  };
  return store;
}

function keeper(over: { onOpened?: (win: unknown) => void; windowState?: WindowStateStore } = {}) {
  return createAppWindow({
    preloadPath: '/app/out/preload/index.cjs',
    rendererUrl: 'app://desk/index.html',
    windowState: over.windowState ?? memoryStore(),
    links: { serviceOrigins: [] },
    isQuitting: () => false,
    ...(over.onOpened ? { onOpened: over.onOpened } : {}),
  });
}

/** The fake behind what the keeper returns (the same object). */
const fake = (win: unknown): BrowserWindow => {
  const found = BrowserWindow.instances.find((w) => w === win);
  if (!found) throw new Error('not a window of the double');
  return found;
};

beforeEach(() => resetFakeElectron());

describe('the app window, open only while the trader looks at it', () => {
  it('opens on reveal and shows once its first frame is ready', async () => {
    const opened: unknown[] = [];
    const windows = keeper({ onOpened: (w) => opened.push(w) });
    expect(windows.current()).toBeNull();
    const win = fake(await windows.reveal());
    expect(win.loadedUrl).toBe('app://desk/index.html');
    await new Promise((r) => setImmediate(r));
    expect(win).toMatchObject({ visible: true, focused: true });
    expect(windows.current()).toBe(win);
    expect(opened).toEqual([win]);
  });

  it('is destroyed, renderer and all, when closed to the tray; the app goes on; opening again builds a new page where it was left', async () => {
    const state = memoryStore();
    const windows = keeper({ windowState: state });
    const first = fake(await windows.reveal());
    first.setBounds({ x: 40, y: 30, width: 1100, height: 760 });
    first.close();
    expect(first.destroyed).toBe(true);
    expect(first.webContents.isDestroyed()).toBe(true);
    expect(windows.current()).toBeNull();
    expect(BrowserWindow.getAllWindows()).toEqual([]);
    expect(app.quit).not.toHaveBeenCalled();
    expect(app.exitCode).toBeNull();

    const second = fake(await windows.reveal());
    expect(second).not.toBe(first);
    expect(BrowserWindow.instances).toHaveLength(2);
    expect(second.loadedUrl).toBe('app://desk/index.html');
    expect(second.webContents.isDestroyed()).toBe(false);
    expect(second.bounds).toEqual({ x: 40, y: 30, width: 1100, height: 760 });
  });

  it('brings an open window to the front instead of opening another, whatever screen is asked', async () => {
    const windows = keeper();
    const win = fake(await windows.reveal());
    win.minimize();
    win.hide();
    expect(await windows.reveal('#/trades')).toBe(win);
    expect(win).toMatchObject({ minimized: false, visible: true, focused: true });
    expect(win.loadedUrl).toBe('app://desk/index.html');
    expect(BrowserWindow.instances).toHaveLength(1);
  });

  it('opens a new window at the screen asked (a notification clicked while in the tray)', async () => {
    const windows = keeper();
    fake(await windows.reveal()).close();
    const win = fake(await windows.reveal('#/trades?trade=42'));
    expect(win.loadedUrl).toBe('app://desk/index.html#/trades?trade=42');
  });

  it('opens one window for reveals that come together', async () => {
    const windows = keeper();
    const [a, b, c] = await Promise.all([windows.reveal(), windows.reveal(), windows.reveal('#/drafts')]);
    expect(a).toBe(b);
    expect(b).toBe(c);
    expect(BrowserWindow.instances).toHaveLength(1);
  });
});
