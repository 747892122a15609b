import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SavedWindowState } from '../../src-main/core/shell/window-bounds.ts';
import type { WindowStateStore } from '../../src-main/core/shell/window-state-file.ts';
import { type BrowserWindow, fakeEvent, resetFakeElectron, screen, shell } from './fake-electron.ts';

vi.mock('electron', () => import('./fake-electron.ts'));
const { createMainWindow, revealWindow } = await import('../../src-main/main-thread/desktop/main-window.ts');

function memoryStore(initial: SavedWindowState | null = null): WindowStateStore & { saved: SavedWindowState[] } {
  const saved: SavedWindowState[] = [];
  return {
    saved,
    load: async () => initial,
    save: async (s) => { saved.push(s); },
    settled: async () => undefined,
  };
}

let quitting = false;
const deps = (over: Partial<Parameters<typeof createMainWindow>[0]> = {}) => ({
  preloadPath: '/app/out/preload/index.cjs',
  rendererUrl: 'app://desk/index.html',
  windowState: memoryStore(),
  links: { serviceOrigins: ['https://market.example'] },
  isQuitting: () => quitting,
  ...over,
});

async function open(over: Partial<Parameters<typeof createMainWindow>[0]> = {}) {
  const win = (await createMainWindow(deps(over))) as unknown as BrowserWindow;
  return win;
}

beforeEach(() => { resetFakeElectron(); quitting = false; });
afterEach(() => { vi.useRealTimers(); });

describe('createMainWindow', () => {
  it('creates the window with the hardened web preferences and loads the app', async () => {
    const win = await open();
    expect(win.options.webPreferences).toEqual({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      disableBlinkFeatures: 'Auxclick',
    });
    // webSecurity is left to Electron's default (on); nothing may switch it off.
    expect(win.options.webPreferences).not.toHaveProperty('webSecurity');
    expect(win.options.show).toBe(false);
    expect(win.loadedUrl).toBe('app://desk/index.html');
  });

  it('refuses every navigation, opening allowlisted links in the browser instead', async () => {
    const win = await open();
    const away = fakeEvent({ url: 'https://evil.example/' });
    win.webContents.emit('will-navigate', away);
    expect(away.defaultPrevented).toBe(true);
    expect(shell.openExternal).not.toHaveBeenCalled();

    const offer = fakeEvent({ url: 'https://steamcommunity.com/tradeoffer/42/' });
    win.webContents.emit('will-navigate', offer);
    expect(offer.defaultPrevented).toBe(true);
    expect(shell.openExternal).toHaveBeenCalledExactlyOnceWith('https://steamcommunity.com/tradeoffer/42/');

    const sub = fakeEvent({ url: 'https://evil.example/frame', isMainFrame: false });
    win.webContents.emit('will-frame-navigate', sub);
    expect(sub.defaultPrevented).toBe(true);
    const redirect = fakeEvent({ url: 'https://evil.example/' });
    win.webContents.emit('will-redirect', redirect);
    expect(redirect.defaultPrevented).toBe(true);
  });

  it('denies every new window and opens only allowlisted links', async () => {
    const win = await open();
    const handler = win.webContents.windowOpenHandler;
    expect(handler).not.toBeNull();
    expect(handler?.({ url: 'https://evil.example/phish' })).toEqual({ action: 'deny' });
    expect(handler?.({ url: 'app://desk/index.html' })).toEqual({ action: 'deny' });
    expect(shell.openExternal).not.toHaveBeenCalled();
    expect(handler?.({ url: 'https://market.example/help' })).toEqual({ action: 'deny' });
    expect(handler?.({ url: 'https://steamcommunity.com/tradeoffer/7/' })).toEqual({ action: 'deny' });
    expect(shell.openExternal.mock.calls).toEqual([['https://market.example/help'], ['https://steamcommunity.com/tradeoffer/7/']]);
  });

  it('blocks <webview> tags', async () => {
    const win = await open();
    const event = fakeEvent();
    win.webContents.emit('will-attach-webview', event, {}, { src: 'https://evil.example/' });
    expect(event.defaultPrevented).toBe(true);
  });

  it('shows and takes the focus once its first frame is ready', async () => {
    const win = await open();
    expect(win.visible).toBe(false);
    win.emit('ready-to-show');
    expect(win).toMatchObject({ visible: true, focused: true });
  });

  it('is destroyed on close, renderer and all, after saving where it was', async () => {
    const store = memoryStore();
    const win = await open({ windowState: store });
    win.emit('ready-to-show');
    win.close();
    expect(win.destroyed).toBe(true);
    expect(win.webContents.isDestroyed()).toBe(true);
    expect(store.saved).toHaveLength(1);
  });

  it('reloads a crashed renderer and reports it, but not in a loop nor while quitting', async () => {
    const gone = vi.fn();
    let now = 0;
    const win = await open({ onRendererGone: gone, now: () => now });
    win.webContents.crash('crashed', 139);
    expect(win.webContents.reloads).toBe(1);
    expect(gone).toHaveBeenLastCalledWith({ reason: 'crashed', exitCode: 139 }, true);
    win.webContents.crash('oom');
    win.webContents.crash('killed');
    win.webContents.crash('crashed');
    expect(win.webContents.reloads).toBe(3);
    expect(gone).toHaveBeenLastCalledWith({ reason: 'crashed', exitCode: 139 }, false);
    now = 61_000;
    quitting = true;
    win.webContents.crash('crashed');
    win.webContents.crash('clean-exit', 0);
    expect(win.webContents.reloads).toBe(3);
  });

  it('reopens where it was left and remembers moves once the drag settles', async () => {
    vi.useFakeTimers();
    const store = memoryStore({ bounds: { x: 100, y: 50, width: 1100, height: 700 }, maximized: false });
    const win = await open({ windowState: store });
    expect(win.bounds).toEqual({ x: 100, y: 50, width: 1100, height: 700 });
    win.setBounds({ x: 110, y: 50, width: 1100, height: 700 });
    win.setBounds({ x: 120, y: 60, width: 1100, height: 700 });
    expect(store.saved).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(600);
    expect(store.saved).toEqual([{ bounds: { x: 120, y: 60, width: 1100, height: 700 }, maximized: false }]);
  });

  it('keeps a window off an unplugged screen', async () => {
    screen.displays = [{ id: 1, workArea: { x: 0, y: 0, width: 1440, height: 876 } }];
    const store = memoryStore({ bounds: { x: 3000, y: 100, width: 1100, height: 700 }, maximized: false });
    const win = await open({ windowState: store });
    expect(win.options).not.toHaveProperty('x');
    expect(win.options).toMatchObject({ width: 1100, height: 700 });
    // Never smaller than the screens are laid out for.
    expect(win.options).toMatchObject({ minWidth: 1024, minHeight: 700 });
  });

  it('opens maximized when it was left maximized', async () => {
    const store = memoryStore({ bounds: { x: 0, y: 0, width: 1100, height: 700 }, maximized: true });
    const win = await open({ windowState: store });
    expect(win.maximized).toBe(false);
    win.emit('ready-to-show');
    expect(win).toMatchObject({ maximized: true, visible: true });
  });
});

describe('revealWindow', () => {
  it('restores, shows and focuses the window', async () => {
    const win = await open();
    win.minimize();
    revealWindow(win as never);
    expect(win).toMatchObject({ minimized: false, visible: true, focused: true });
  });

  it('leaves a destroyed window alone', async () => {
    const win = await open();
    win.close();
    revealWindow(win as never);
    expect(win.visible).toBe(false);
  });
});
