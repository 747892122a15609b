/**
 * A stand-in for the `electron` module in tests of the desktop layer
 * (`vi.mock('electron', () => import('./fake-electron.ts'))`): the Electron
 * binary cannot run here. Each fake records what the code under test asked
 * of it and lets the test fire the events Electron would. Signatures are
 * checked against Electron's own .d.ts where a fake claims to implement a
 * method (`implements Pick<Electron.X, …>`), so a call the real API would
 * refuse does not type-check against the fake either.
 *
 * CommonJS packages that `require('electron')` themselves (electron-updater)
 * bypass vi.mock: `provideToCommonJs()` puts this module in Node's require
 * cache under electron's name for them.
 */
import { EventEmitter } from 'node:events';
import type * as Http from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as Electron from 'electron';
import { vi } from 'vitest';

export interface FakeEvent {
  url: string;
  isMainFrame: boolean;
  defaultPrevented: boolean;
  preventDefault(): void;
}

export function fakeEvent(fields: Partial<Pick<FakeEvent, 'url' | 'isMainFrame'>> = {}): FakeEvent {
  return {
    url: fields.url ?? '',
    isMainFrame: fields.isMainFrame ?? true,
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
  };
}

type WindowOpenHandler = (details: { url: string }) => { action: 'allow' | 'deny' };

export class FakeWebContents extends EventEmitter implements Pick<Electron.WebContents, 'getURL' | 'isDestroyed' | 'reload'> {
  url = 'app://desk/index.html';
  destroyed = false;
  windowOpenHandler: WindowOpenHandler | null = null;
  sent: Array<[string, unknown]> = [];
  reloads = 0;
  setWindowOpenHandler(handler: WindowOpenHandler): void {
    this.windowOpenHandler = handler;
  }
  send(channel: string, payload: unknown): void {
    this.sent.push([channel, payload]);
  }
  getURL(): string {
    return this.url;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  reload(): void {
    this.reloads++;
  }
  /** What Electron reports when the renderer process dies. */
  crash(reason: Electron.RenderProcessGoneDetails['reason'] = 'crashed', exitCode = 139): void {
    this.emit('render-process-gone', fakeEvent(), { reason, exitCode } satisfies Electron.RenderProcessGoneDetails);
  }
}

interface Bounds { x: number; y: number; width: number; height: number }

export class BrowserWindow extends EventEmitter implements Pick<Electron.BrowserWindow,
  'show' | 'hide' | 'focus' | 'restore' | 'minimize' | 'maximize' | 'isMinimized' | 'isMaximized' | 'isVisible' | 'isFocused'
  | 'isDestroyed' | 'setProgressBar' | 'getNormalBounds'> {
  static instances: BrowserWindow[] = [];
  static getAllWindows(): BrowserWindow[] {
    return BrowserWindow.instances.filter((w) => !w.destroyed);
  }
  readonly options: Record<string, unknown> & { webPreferences?: Record<string, unknown> };
  readonly webContents = new FakeWebContents();
  visible = false;
  focused = false;
  minimized = false;
  maximized = false;
  destroyed = false;
  bounds: Bounds;
  loadedUrl: string | null = null;
  progress: Array<[number, unknown]> = [];
  overlays: Array<[unknown, string]> = [];
  constructor(options: Electron.BrowserWindowConstructorOptions) {
    super();
    this.options = options as Record<string, unknown>;
    this.bounds = {
      x: typeof options.x === 'number' ? options.x : 0,
      y: typeof options.y === 'number' ? options.y : 0,
      width: Number(options.width),
      height: Number(options.height),
    };
    BrowserWindow.instances.push(this);
  }
  /** Loads, then (as Electron does after the first paint) emits ready-to-show once. */
  loadURL(url: string): Promise<void> {
    const first = this.loadedUrl === null;
    this.loadedUrl = url;
    this.webContents.url = url;
    if (first) setImmediate(() => this.emit('ready-to-show'));
    return Promise.resolve();
  }
  show(): void { this.visible = true; this.emit('show'); }
  hide(): void { this.visible = false; this.focused = false; }
  focus(): void { this.focused = true; }
  restore(): void { this.minimized = false; }
  minimize(): void { this.minimized = true; }
  maximize(): void { this.maximized = true; this.visible = true; }
  isMinimized(): boolean { return this.minimized; }
  isMaximized(): boolean { return this.maximized; }
  isVisible(): boolean { return this.visible; }
  isFocused(): boolean { return this.focused; }
  isDestroyed(): boolean { return this.destroyed; }
  getNormalBounds(): Electron.Rectangle { return { ...this.bounds }; }
  setBounds(bounds: Bounds): void { this.bounds = bounds; this.emit('move'); }
  setProgressBar(progress: number, options?: Electron.ProgressBarOptions): void { this.progress.push([progress, options]); }
  setOverlayIcon(image: unknown, description: string): void { this.overlays.push([image, description]); }
  /** What a click on the window's close button does. */
  close(): void {
    const event = fakeEvent();
    this.emit('close', event);
    if (!event.defaultPrevented) this.destroy();
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.visible = false;
    this.webContents.destroyed = true;
    this.emit('closed');
    // As Electron: the last window closed, unless app.quit() is closing them.
    if (BrowserWindow.getAllWindows().length === 0 && !app.quitting) app.emit('window-all-closed');
  }
}

/** The folders app.getPath answers; a test points userData at a temp folder. */
type PathName = Parameters<Electron.App['getPath']>[0];

class FakeApp extends EventEmitter implements Pick<Electron.App, 'getPath' | 'setPath' | 'setAppLogsPath' | 'getVersion' | 'getAppPath' | 'whenReady' | 'exit' | 'relaunch'> {
  hasLock = true;
  isPackaged = false;
  version = '0.1.0';
  appPath = process.cwd();
  paths = new Map<PathName, string>();
  /** The code app.exit() was called with, or null while the app runs. */
  exitCode: number | null = null;
  relaunched = 0;
  requestSingleInstanceLock = vi.fn(() => this.hasLock);
  /**
   * Electron's quit sequence: before-quit, then every window is asked to
   * close (one that refuses cancels the quit), then will-quit (which may
   * also be prevented), then quit.
   */
  /** True while app.quit() closes the windows (no window-all-closed then). */
  quitting = false;
  quit = vi.fn(() => {
    const before = fakeEvent();
    this.emit('before-quit', before);
    if (before.defaultPrevented) return;
    this.quitting = true;
    try {
      for (const win of BrowserWindow.getAllWindows()) {
        win.close();
        if (!win.destroyed) return;
      }
    } finally {
      this.quitting = false;
    }
    const will = fakeEvent();
    this.emit('will-quit', will);
    if (will.defaultPrevented) return;
    this.emit('quit', fakeEvent(), 0);
    this.exitCode ??= 0;
  });
  setAppUserModelId = vi.fn();
  setBadgeCount = vi.fn(() => true);
  setLoginItemSettings = vi.fn();
  getLoginItemSettings = vi.fn(() => ({ openAtLogin: false, wasOpenedAtLogin: false }));
  getPath(name: PathName): string {
    const set = this.paths.get(name);
    if (set) return set;
    if (name === 'logs') return join(this.getPath('userData'), 'logs');
    return join(tmpdir(), 'fake-electron', name);
  }
  setPath(name: PathName, path: string): void {
    this.paths.set(name, path);
  }
  setAppLogsPath(path?: string): void {
    if (path === undefined) this.paths.delete('logs');
    else this.paths.set('logs', path);
  }
  getVersion(): string { return this.version; }
  getName(): string { return 'Marketplace Desk'; }
  getAppPath(): string { return this.appPath; }
  /** Settled at once, unless a test holds it (`holdReady`). */
  ready: Promise<void> = Promise.resolve();
  whenReady(): Promise<void> { return this.ready; }
  /** Electron not ready until the returned function is called. */
  holdReady(): () => void {
    let release: () => void = () => undefined;
    this.ready = new Promise((resolve) => (release = resolve));
    return release;
  }
  isReady(): boolean { return true; }
  exit(code = 0): void {
    this.exitCode = code;
  }
  relaunch(): void {
    this.relaunched++;
  }
}

export const app = new FakeApp();

export const screen = {
  displays: [{ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1040 } }],
  getPrimaryDisplay() { return screen.displays[0]; },
  getAllDisplays() { return screen.displays; },
};

export const shell = {
  openExternal: vi.fn((_url: string) => Promise.resolve()),
  /** Resolves to '' (no error), as Electron does when the folder opened. */
  openPath: vi.fn((_path: string) => Promise.resolve('')),
};

export const dialog = {
  /** What the next save dialog answers: a path, or null for Cancel. */
  nextSavePath: null as string | null,
  showSaveDialog: vi.fn((..._args: unknown[]): Promise<Electron.SaveDialogReturnValue> => {
    const path = dialog.nextSavePath;
    return Promise.resolve(path === null ? { canceled: true, filePath: '' } : { canceled: false, filePath: path });
  }),
};

export const protocol = {
  registerSchemesAsPrivileged: vi.fn(),
};

type ProtocolHandler = (request: Request) => Response | Promise<Response>;
type HeadersListener = (details: { responseHeaders?: Record<string, string[]> }, callback: (response: unknown) => void) => void;

/** A session: records the handlers the app installs, so a test can call them as Chromium would. */
export class FakeSession {
  readonly protocols = new Map<string, ProtocolHandler>();
  readonly handlers: { request?: unknown; check?: unknown; device?: unknown } = {};
  headerListeners: HeadersListener[] = [];
  readonly protocol = {
    handle: (scheme: string, handler: ProtocolHandler) => {
      if (this.protocols.has(scheme)) throw new Error(`second handler for ${scheme}:`);
      this.protocols.set(scheme, handler);
    },
  };
  readonly webRequest = {
    onHeadersReceived: (_filter: unknown, listener: HeadersListener) => this.headerListeners.push(listener),
  };
  setPermissionRequestHandler(handler: unknown): void { this.handlers.request = handler; }
  setPermissionCheckHandler(handler: unknown): void { this.handlers.check = handler; }
  setDevicePermissionHandler(handler: unknown): void { this.handlers.device = handler; }
  /** What a request the renderer makes for `url` gets back. */
  async fetch(url: string): Promise<Response> {
    const handler = this.protocols.get(new URL(url).protocol.slice(0, -1));
    if (!handler) throw new Error(`nothing serves ${url}`);
    return handler(new Request(url));
  }
}

export const session = {
  defaultSession: new FakeSession(),
  partitions: new Map<string, FakeSession>(),
  fromPartition(name: string): FakeSession {
    let s = session.partitions.get(name);
    if (!s) session.partitions.set(name, (s = new FakeSession()));
    return s;
  },
};

export const nativeImage = {
  createFromPath: (path: string) => ({ path }),
};

export interface FakeMenuItem { id?: string; label?: string; type?: string; enabled?: boolean; click?: () => void }

export const Menu = {
  buildFromTemplate: (template: FakeMenuItem[]) => ({ items: template }),
};

export class Tray extends EventEmitter implements Pick<Electron.Tray, 'setToolTip' | 'destroy'> {
  static instances: Tray[] = [];
  image: unknown;
  tooltip = '';
  menu: { items: FakeMenuItem[] } | null = null;
  calls = { setImage: 0, setToolTip: 0, setContextMenu: 0 };
  destroyed = false;
  constructor(image: unknown) {
    super();
    this.image = image;
    Tray.instances.push(this);
  }
  setImage(image: unknown): void { this.image = image; this.calls.setImage++; }
  setToolTip(text: string): void { this.tooltip = text; this.calls.setToolTip++; }
  setContextMenu(menu: { items: FakeMenuItem[] } | null): void { this.menu = menu; this.calls.setContextMenu++; }
  destroy(): void { this.destroyed = true; }
  /** The labels of the menu's items, separators left out. */
  labels(): string[] {
    return (this.menu?.items ?? []).filter((i) => i.type !== 'separator').map((i) => String(i.label));
  }
  /** Clicks the menu item with this id. */
  clickItem(id: string): void {
    const item = this.menu?.items.find((i) => i.id === id);
    if (!item?.click) throw new Error(`no menu item ${id}`);
    item.click();
  }
}

export class Notification extends EventEmitter implements Pick<Electron.Notification, 'show'> {
  static instances: Notification[] = [];
  static supported = true;
  static isSupported(): boolean { return Notification.supported; }
  readonly options: Electron.NotificationConstructorOptions;
  shown = false;
  constructor(options: Electron.NotificationConstructorOptions) {
    super();
    this.options = options;
    Notification.instances.push(this);
  }
  show(): void { this.shown = true; }
  /** What a click on the shown notification does. */
  click(): void { this.emit('click', fakeEvent()); }
}

export const powerMonitor = new EventEmitter();

/**
 * `net.request` is Electron's HTTP client (electron-updater downloads
 * through it); here Node's http carries it, so a test's local server
 * answers it for real.
 */
export const net = {
  isOnline: vi.fn(() => true),
  request(options: Record<string, unknown>) {
    const { session: _session, redirect: _redirect, ...rest } = options;
    // Required here rather than imported: an ESM import of node:http reads all its exports, whose
    // WebSocket getter loads Node's own bundled fetch (~750 kB of source), and the scale bench would
    // count that weight, which Electron's main process never carries, as the app's.
    const http = createRequire(import.meta.url)('node:http') as typeof Http;
    // A connection per request: builder-util-runtime adds a timeout listener to each
    // request's socket, and Node's keep-alive agent would pile them on one socket.
    return http.request({ ...rest, agent: false });
  },
};

type InvokeHandler = (event: unknown, ...args: unknown[]) => unknown;

export const ipcMain = {
  handlers: new Map<string, InvokeHandler>(),
  /** Channels listened to with `on`/`once` (fire-and-forget messages): the app uses none. */
  listeners: new Map<string, number>(),
  handle(channel: string, handler: InvokeHandler) {
    if (ipcMain.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    ipcMain.handlers.set(channel, handler);
  },
  removeHandler(channel: string) { ipcMain.handlers.delete(channel); },
  on(channel: string) { ipcMain.listeners.set(channel, (ipcMain.listeners.get(channel) ?? 0) + 1); },
  once(channel: string) { ipcMain.on(channel); },
};

/** Fresh fakes for every test. */
export function resetFakeElectron(): void {
  BrowserWindow.instances = [];
  Tray.instances = [];
  Notification.instances = [];
  Notification.supported = true;
  app.removeAllListeners();
  app.hasLock = true;
  app.isPackaged = false;
  app.version = '0.1.0';
  app.appPath = process.cwd();
  app.paths.clear();
  app.exitCode = null;
  app.relaunched = 0;
  app.ready = Promise.resolve();
  for (const fn of [app.requestSingleInstanceLock, app.quit, app.setAppUserModelId, app.setBadgeCount, app.setLoginItemSettings, app.getLoginItemSettings]) {
    fn.mockClear();
  }
  shell.openExternal.mockClear();
  shell.openPath.mockClear();
  dialog.showSaveDialog.mockClear();
  dialog.nextSavePath = null;
  protocol.registerSchemesAsPrivileged.mockClear();
  session.defaultSession = new FakeSession();
  session.partitions.clear();
  powerMonitor.removeAllListeners();
  net.isOnline.mockReset();
  net.isOnline.mockReturnValue(true);
  ipcMain.handlers.clear();
  ipcMain.listeners.clear();
  screen.displays = [{ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1040 } }];
  ipcRenderer.removeAllListeners();
  ipcRenderer.invoke.mockClear();
  contextBridge.exposed.clear();
}

/** The renderer side, for the preload's tests. */
export const ipcRenderer = Object.assign(new EventEmitter(), {
  invoke: vi.fn((_channel: string, ..._args: unknown[]) => Promise.resolve({ ok: true, value: null })),
});

export const contextBridge = {
  exposed: new Map<string, unknown>(),
  exposeInMainWorld(key: string, api: unknown) {
    if (contextBridge.exposed.has(key)) throw new Error(`${key} exposed twice`);
    contextBridge.exposed.set(key, api);
  },
};

/** Electron's own autoUpdater (macOS Squirrel); electron-updater emits on it before it quits to install. */
export const autoUpdater = new EventEmitter();

/**
 * Makes CommonJS `require('electron')` (inside node_modules, which vi.mock
 * does not reach) return this fake. Call before importing such a package.
 */
export function provideToCommonJs(): void {
  const require = createRequire(import.meta.url);
  const id = require.resolve('electron');
  const self = {
    app, BrowserWindow, Menu, Notification, Tray, autoUpdater, contextBridge, dialog, ipcMain, ipcRenderer,
    nativeImage, net, powerMonitor, protocol, screen, session, shell,
  };
  require.cache[id] = { id, filename: id, loaded: true, exports: self, children: [], paths: [], path: id } as unknown as NodeJS.Module;
}
