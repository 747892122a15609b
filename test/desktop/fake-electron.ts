/**
 * A stand-in for the `electron` module in tests of the desktop layer
 * (`vi.mock('electron', () => import('./fake-electron.ts'))`): the Electron
 * binary cannot run here. Each fake records what the code under test asked
 * of it and lets the test fire the events Electron would.
 */
import { EventEmitter } from 'node:events';
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

export class FakeWebContents extends EventEmitter {
  url = 'app://desk/index.html';
  destroyed = false;
  windowOpenHandler: WindowOpenHandler | null = null;
  sent: Array<[string, unknown]> = [];
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
}

interface Bounds { x: number; y: number; width: number; height: number }

export class BrowserWindow extends EventEmitter {
  static instances: BrowserWindow[] = [];
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
  constructor(options: Record<string, unknown>) {
    super();
    this.options = options;
    this.bounds = {
      x: typeof options.x === 'number' ? options.x : 0,
      y: typeof options.y === 'number' ? options.y : 0,
      width: Number(options.width),
      height: Number(options.height),
    };
    BrowserWindow.instances.push(this);
  }
  loadURL(url: string): Promise<void> {
    this.loadedUrl = url;
    return Promise.resolve();
  }
  show(): void { this.visible = true; this.emit('show'); }
  hide(): void { this.visible = false; }
  focus(): void { this.focused = true; }
  restore(): void { this.minimized = false; }
  minimize(): void { this.minimized = true; }
  maximize(): void { this.maximized = true; this.visible = true; }
  isMinimized(): boolean { return this.minimized; }
  isMaximized(): boolean { return this.maximized; }
  isVisible(): boolean { return this.visible; }
  isDestroyed(): boolean { return this.destroyed; }
  getNormalBounds(): Bounds { return { ...this.bounds }; }
  setBounds(bounds: Bounds): void { this.bounds = bounds; this.emit('move'); }
  setProgressBar(progress: number, options?: unknown): void { this.progress.push([progress, options]); }
  setOverlayIcon(image: unknown, description: string): void { this.overlays.push([image, description]); }
  /** What a click on the window's close button does. */
  close(): void {
    const event = fakeEvent();
    this.emit('close', event);
    if (!event.defaultPrevented) {
      this.destroyed = true;
      this.visible = false;
      this.emit('closed');
    }
  }
}

class FakeApp extends EventEmitter {
  hasLock = true;
  requestSingleInstanceLock = vi.fn(() => this.hasLock);
  quit = vi.fn(() => { this.emit('before-quit', fakeEvent()); });
  setAppUserModelId = vi.fn();
  setBadgeCount = vi.fn(() => true);
  setLoginItemSettings = vi.fn();
  getLoginItemSettings = vi.fn(() => ({ openAtLogin: false, wasOpenedAtLogin: false }));
}

export const app = new FakeApp();

export const screen = {
  displays: [{ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1040 } }],
  getPrimaryDisplay() { return screen.displays[0]; },
  getAllDisplays() { return screen.displays; },
};

export const shell = { openExternal: vi.fn((_url: string) => Promise.resolve()) };

export const protocol = {
  registerSchemesAsPrivileged: vi.fn(),
};

export const nativeImage = {
  createFromPath: (path: string) => ({ path }),
};

export interface FakeMenuItem { id?: string; label?: string; type?: string; enabled?: boolean; click?: () => void }

export const Menu = {
  buildFromTemplate: (template: FakeMenuItem[]) => ({ items: template }),
};

export class Tray extends EventEmitter {
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
  /** Clicks the menu item with this id. */
  clickItem(id: string): void {
    const item = this.menu?.items.find((i) => i.id === id);
    if (!item?.click) throw new Error(`no menu item ${id}`);
    item.click();
  }
}

export class Notification extends EventEmitter {
  static instances: Notification[] = [];
  static supported = true;
  static isSupported(): boolean { return Notification.supported; }
  readonly options: { title?: string; body?: string; icon?: string; groupId?: string };
  shown = false;
  constructor(options: { title?: string; body?: string }) {
    super();
    this.options = options;
    Notification.instances.push(this);
  }
  show(): void { this.shown = true; }
}

export const powerMonitor = new EventEmitter();

export const net = { isOnline: vi.fn(() => true) };

type InvokeHandler = (event: unknown, ...args: unknown[]) => unknown;

export const ipcMain = {
  handlers: new Map<string, InvokeHandler>(),
  handle(channel: string, handler: InvokeHandler) {
    if (ipcMain.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    ipcMain.handlers.set(channel, handler);
  },
  removeHandler(channel: string) { ipcMain.handlers.delete(channel); },
};

/** Fresh fakes for every test. */
export function resetFakeElectron(): void {
  BrowserWindow.instances = [];
  Tray.instances = [];
  Notification.instances = [];
  Notification.supported = true;
  app.removeAllListeners();
  app.hasLock = true;
  for (const fn of [app.requestSingleInstanceLock, app.quit, app.setAppUserModelId, app.setBadgeCount, app.setLoginItemSettings, app.getLoginItemSettings]) {
    fn.mockClear();
  }
  shell.openExternal.mockClear();
  protocol.registerSchemesAsPrivileged.mockClear();
  powerMonitor.removeAllListeners();
  net.isOnline.mockReset();
  net.isOnline.mockReturnValue(true);
  ipcMain.handlers.clear();
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
