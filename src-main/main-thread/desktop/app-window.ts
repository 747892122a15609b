import type { BrowserWindow } from 'electron';
import { createMainWindow, revealWindow, type MainWindowDeps } from './main-window.ts';

/**
 * The app's window is there only while the trader looks at it: opened when
 * the app starts (unless at login), from the tray, a notification, a second
 * launch or the dock, and destroyed when closed, renderer and all, so a desk
 * left in the tray for weeks holds no Chromium page. Opening it again builds
 * a fresh page, which asks main for what it shows.
 */
export interface AppWindowDeps extends MainWindowDeps {
  /** Each new window, once created (the taskbar draws on it). */
  readonly onOpened?: (win: BrowserWindow) => void;
}

export interface AppWindow {
  /** The open window, or null while the app is in the tray only. */
  current(): BrowserWindow | null;
  /**
   * Brings the window to the front; with none open, opens one whose page
   * starts at `hash` (a screen, e.g. `#/trades?trade=…`; the renderer's own).
   * Resolves with the window.
   */
  reveal(hash?: string): Promise<BrowserWindow>;
}

export function createAppWindow(deps: AppWindowDeps): AppWindow {
  let win: BrowserWindow | null = null;
  let opening: Promise<BrowserWindow> | null = null;
  const current = () => (win && !win.isDestroyed() ? win : null);

  function open(hash: string): Promise<BrowserWindow> {
    opening ??= createMainWindow({ ...deps, rendererUrl: `${deps.rendererUrl}${hash}` })
      .then((opened) => {
        win = opened;
        opened.once('closed', () => {
          if (win === opened) win = null;
        });
        deps.onOpened?.(opened);
        return opened;
      })
      .finally(() => (opening = null));
    return opening;
  }

  return {
    current,
    reveal(hash = '') {
      const shown = current();
      if (shown) {
        revealWindow(shown);
        return Promise.resolve(shown);
      }
      const opened = open(hash);
      opened.catch((error: unknown) => deps.onError?.(error));
      return opened;
    },
  };
}
