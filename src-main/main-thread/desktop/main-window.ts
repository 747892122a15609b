import { BrowserWindow, type RenderProcessGoneDetails, screen } from 'electron';
import type { ExternalLinkPolicy } from '../../core/shell/external-links.ts';
import { createReloadBudget } from '../../core/shell/renderer-crash.ts';
import { DEFAULT_WINDOW_SIZING, restoreWindowBounds, type SavedWindowState } from '../../core/shell/window-bounds.ts';
import type { WindowStateStore } from '../../core/shell/window-state-file.ts';
import { hardenWebContents } from './web-hardening.ts';

/**
 * The app window, hardened per Electron's security checklist. It shows once
 * its first frame is painted. Closing it destroys it, renderer and all: the
 * desk goes on in the tray (`app-window.ts` opens a new one when the trader
 * asks). Its size and place are remembered.
 */

export interface MainWindowDeps {
  /** The built preload (`out/preload/index.cjs`): CommonJS, as a sandboxed preload must be. */
  readonly preloadPath: string;
  /** `app://desk/index.html` in production, the dev server's URL in development. */
  readonly rendererUrl: string;
  readonly windowState: WindowStateStore;
  /** The link allowlist's policy, or a function read at each link. */
  readonly links: ExternalLinkPolicy | (() => ExternalLinkPolicy);
  /** True once a Quit began: a renderer that dies then is not brought back. */
  readonly isQuitting: () => boolean;
  readonly iconPath?: string;
  readonly title?: string;
  /** Told when the page fails to load or the window state cannot be saved. */
  readonly onError?: (error: unknown) => void;
  /** Delay before a move or resize is written, so a drag writes once. Default 500 ms. */
  readonly saveDelayMs?: number;
  /** Told when the renderer process died, and whether the window reloads it (for the log). */
  readonly onRendererGone?: (details: RenderProcessGoneDetails, reloaded: boolean) => void;
  /** The monotonic clock the reload budget reads (it counts reloads within a duration). Default performance.now. */
  readonly now?: () => number;
}

export async function createMainWindow(deps: MainWindowDeps): Promise<BrowserWindow> {
  const saved = await deps.windowState.load().catch(() => null);
  const primary = screen.getPrimaryDisplay();
  const others = screen.getAllDisplays().filter((d) => d.id !== primary.id);
  const restored = restoreWindowBounds(saved, [primary, ...others].map((d) => d.workArea));

  const win = new BrowserWindow({
    ...restored.bounds,
    minWidth: DEFAULT_WINDOW_SIZING.minWidth,
    minHeight: DEFAULT_WINDOW_SIZING.minHeight,
    show: false,
    title: deps.title ?? 'Marketplace Desk',
    backgroundColor: '#16173a',
    autoHideMenuBar: true,
    ...(deps.iconPath === undefined ? {} : { icon: deps.iconPath }),
    // Inline literals on purpose: each of these is checked by the tests and by
    // Electronegativity, which cannot follow options held in a variable.
    webPreferences: {
      preload: deps.preloadPath,
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
      // A middle-click would otherwise try to open links in a new window.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  hardenWebContents(win.webContents, { links: deps.links });

  win.once('ready-to-show', () => {
    // maximize() shows the window too.
    if (restored.maximized) win.maximize();
    win.show();
    win.focus();
  });

  const persist = () => {
    if (win.isDestroyed()) return;
    deps.windowState.save(currentState(win)).catch((error: unknown) => deps.onError?.(error));
  };
  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  const persistSoon = () => {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(persist, deps.saveDelayMs ?? 500);
  };
  win.on('resize', persistSoon);
  win.on('move', persistSoon);
  win.on('maximize', persistSoon);
  win.on('unmaximize', persistSoon);

  // Closing ends the window and its renderer; the app stays in the tray ('window-all-closed' keeps it).
  win.on('close', () => {
    clearTimeout(saveTimer);
    persist();
  });

  // A dead renderer leaves a blank window while main keeps working: bring the page back.
  const reloads = createReloadBudget({ now: deps.now ?? (() => performance.now()) });
  win.webContents.on('render-process-gone', (_event, details) => {
    // 'clean-exit' is the window closing; while quitting nothing should come back.
    const reload = details.reason !== 'clean-exit' && !deps.isQuitting() && reloads.take();
    deps.onRendererGone?.(details, reload);
    if (reload) win.webContents.reload();
  });

  win.loadURL(deps.rendererUrl).catch((error: unknown) => deps.onError?.(error));
  return win;
}

function currentState(win: BrowserWindow): SavedWindowState {
  const b = win.getNormalBounds();
  return {
    bounds: { x: Math.round(b.x), y: Math.round(b.y), width: Math.round(b.width), height: Math.round(b.height) },
    maximized: win.isMaximized(),
  };
}

/** Brings the window to the front: from the tray, a notification, a second launch or the dock. */
export function revealWindow(win: BrowserWindow): void {
  if (win.isDestroyed()) return;
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}
