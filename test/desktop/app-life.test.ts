import { beforeEach, describe, expect, it, vi } from 'vitest';
import { app, type BrowserWindow, fakeEvent, resetFakeElectron } from './fake-electron.ts';

vi.mock('electron', () => import('./fake-electron.ts'));
const { claimSingleInstance, createQuitSwitch, revealOnActivate } = await import('../../src-main/main-thread/desktop/app-life.ts');
const { createMainWindow, revealWindow } = await import('../../src-main/main-thread/desktop/main-window.ts');

beforeEach(() => resetFakeElectron());

async function openWindow(quit: { readonly quitting: boolean }): Promise<BrowserWindow> {
  const win = await createMainWindow({
    preloadPath: '/p.cjs', rendererUrl: 'app://desk/index.html', links: { serviceOrigins: [] },
    isQuitting: () => quit.quitting, windowState: { load: async () => null, save: async () => undefined, settled: async () => undefined },
  });
  return win as unknown as BrowserWindow;
}

describe('single instance', () => {
  it('a second launch focuses the first instance\'s window', async () => {
    // Not yet shown: it has not painted its first frame.
    const win = await openWindow(createQuitSwitch());
    const seen: Array<readonly string[]> = [];
    expect(claimSingleInstance((argv) => { seen.push(argv); revealWindow(win as never); })).toBe(true);
    expect(win.visible).toBe(false);
    app.emit('second-instance', fakeEvent(), ['/opt/desk/desk', '--hidden'], '/home/t');
    expect(seen).toEqual([['/opt/desk/desk', '--hidden']]);
    expect(win).toMatchObject({ visible: true, focused: true });
  });

  it('tells the second instance to give way', () => {
    app.hasLock = false;
    const onSecond = vi.fn();
    expect(claimSingleInstance(onSecond)).toBe(false);
    expect(app.listenerCount('second-instance')).toBe(0);
  });
});

describe('quit switch', () => {
  it('quits only when asked: closing the window does not', async () => {
    const quit = createQuitSwitch();
    const win = await openWindow(quit);
    win.close();
    expect(win.destroyed).toBe(true);
    expect(quit.quitting).toBe(false);
    expect(app.quit).not.toHaveBeenCalled();
    quit.quit();
    expect(app.quit).toHaveBeenCalledOnce();
    expect(quit.quitting).toBe(true);
  });

  it('counts a quit Electron starts itself (Cmd+Q, logout)', () => {
    const quit = createQuitSwitch();
    expect(quit.quitting).toBe(false);
    app.emit('before-quit', fakeEvent());
    expect(quit.quitting).toBe(true);
  });

  it('reveals the window from the macOS dock', () => {
    const reveal = vi.fn();
    revealOnActivate(reveal);
    app.emit('activate', fakeEvent(), false);
    expect(reveal).toHaveBeenCalledOnce();
  });
});
