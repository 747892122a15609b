/**
 * The composition root of the main process: with desktop/, the only code that
 * imports `electron`. It builds the desk (the core), the IPC router over it,
 * and hands both to the thin desktop adapters: window, tray, taskbar,
 * notifications, keychain, power and network events.
 *
 * `index.ts` calls `startMainProcess` with the simulator for sandbox mode; the
 * boot test calls it with a temp profile and a fast clock, and drives the
 * result through ipcMain as the preload would.
 */
import { join } from 'node:path';
import { app, type BrowserWindow, ipcMain, session } from 'electron';
import type { UpdateView } from '../src-shared/updates.ts';
import { systemClock, type Clock } from './core/clock.ts';
import { createDesk, type Desk, type DeskDeps } from './core/desk/desk.ts';
import type { SecretStore } from './core/secrets.ts';
import { openAppLog, type AppLog, type AppLogOptions } from './core/shell/app-log.ts';
import { logDeskEvents } from './core/shell/desk-log.ts';
import { APP_ENTRY_URL } from './core/shell/app-origin.ts';
import { APP_ID } from './core/shell/app-identity.ts';
import { appPaths } from './core/shell/app-paths.ts';
import type { ExternalLinkPolicy } from './core/shell/external-links.ts';
import { shouldStartHidden } from './core/shell/login-item.ts';
import { createWindowStateFile } from './core/shell/window-state-file.ts';
import { claimSingleInstance, createQuitSwitch, holdQuitFor, revealOnActivate } from './desktop/app-life.ts';
import { applyDevServerCsp, registerAppScheme, serveRenderer } from './desktop/app-protocol.ts';
import { bindRouter } from './desktop/ipc.ts';
import { createKeychainSecretStore } from './desktop/keychain.ts';
import { setStartAtLogin } from './desktop/login-item.ts';
import { createMainWindow, revealWindow } from './desktop/main-window.ts';
import { createNotifier, prepareNotifications } from './desktop/notifier.ts';
import { createShellServices } from './desktop/shell-services.ts';
import type { ElectronUpdateSource } from './desktop/updater.ts';
import { wirePowerEvents } from './desktop/power-events.ts';
import { createTaskbarIndicator } from './desktop/taskbar.ts';
import { createTray } from './desktop/tray.ts';
import { hardenEveryWebContents, hardenSession, openIfAllowed } from './desktop/web-hardening.ts';
import { createDeskRouter } from './ipc/desk-router.ts';
import type { Router } from './ipc/router.ts';
import { shellStateOf } from './ipc/shell-state.ts';

export interface MainProcessDeps {
  /** Starts the embedded simulator sandbox mode talks to. */
  readonly openSandbox: NonNullable<DeskDeps['openSandbox']>;
  /** Default: the OS keychain under the app's name. */
  readonly secrets?: SecretStore;
  /** Default: the system clock. */
  readonly clock?: Clock;
  /** Folder of the built main bundle; the preload and renderer sit beside it. */
  readonly mainDir?: string;
  readonly argv?: readonly string[];
  /** How often connectivity is polled (default 5 s). */
  readonly onlinePollMs?: number;
  /** Log level and file sizes (default: info, 1 MiB × 5 in the profile's logs folder). */
  readonly log?: Omit<AppLogOptions, 'dir'>;
  /** Default: electron-updater in a packaged app, none in development. */
  readonly updateSource?: ElectronUpdateSource | null;
}

/** The running app, for the boot test. */
export interface RunningApp {
  readonly desk: Desk;
  readonly router: Router;
  readonly log: AppLog;
}

export interface MainProcess {
  /** Settles once the app is up (null for a second instance that gave way), or rejects when it could not start. */
  readonly started: Promise<RunningApp | null>;
}

export function startMainProcess(deps: MainProcessDeps): MainProcess {
  // Must run before `ready`: the renderer is served from app://desk/, not file://.
  registerAppScheme();
  let reveal: () => void = () => undefined;
  if (!claimSingleInstance(() => reveal())) {
    app.quit();
    return { started: Promise.resolve(null) };
  }
  const started = app.whenReady().then(async () => {
    const log = openAppLog({ dir: app.getPath('logs'), level: app.isPackaged ? 'info' : 'debug', ...deps.log });
    try {
      return await start(deps, log, (r) => (reveal = r));
    } catch (error) {
      log.error('could not start', { error });
      log.close();
      throw error;
    }
  });
  started.catch((error: unknown) => {
    console.error('Marketplace Desk could not start:', error);
    app.exit(1);
  });
  return { started };
}

async function start(deps: MainProcessDeps, log: AppLog, setReveal: (reveal: () => void) => void): Promise<RunningApp> {
  log.info('starting', { version: app.getVersion(), electron: process.versions.electron ?? null, node: process.versions.node, platform: process.platform, arch: process.arch, packaged: app.isPackaged });
  const onProcessError = (error: unknown) => log.error('unhandled failure in main', { error });
  process.on('uncaughtExceptionMonitor', onProcessError);
  process.on('unhandledRejection', onProcessError);
  const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
  const paths = appPaths({
    packaged: app.isPackaged,
    mainDir: deps.mainDir ?? import.meta.dirname,
    appPath: app.getAppPath(),
    resourcesPath: process.resourcesPath,
  });
  prepareNotifications(APP_ID);
  const quit = createQuitSwitch();
  const clock = deps.clock ?? systemClock;
  const desk = await createDesk({
    dataDir: join(app.getPath('userData'), 'profiles'),
    secrets: deps.secrets ?? createKeychainSecretStore(),
    version: app.getVersion(),
    openSandbox: deps.openSandbox,
    clock,
  });
  // The key, once known, is scrubbed from every line; a new one is learned when it is set.
  const learnKey = () => void desk.keys.read().then((key) => log.addSecret(key), () => undefined);
  learnKey();
  desk.keys.on('status', learnKey);
  const stopDeskLog = logDeskEvents(desk, log);
  const links = (): ExternalLinkPolicy => {
    const url = desk.settings.get().serviceUrl;
    return { serviceOrigins: url.startsWith('https:') ? [new URL(url).origin] : [] };
  };
  // Logs, bug reports and updates; the window and the router's events are connected once they exist.
  let win: BrowserWindow | null = null;
  let pushUpdate: (view: UpdateView) => void = () => undefined;
  const services = await createShellServices({
    desk, log, clock,
    window: () => (win && !win.isDestroyed() ? win : null),
    quit: () => quit.quit(),
    onUpdate: (view) => pushUpdate(view),
    ...(deps.updateSource === undefined ? {} : { updateSource: deps.updateSource }),
  });
  const platform = { openLink: (url: string) => void openIfAllowed(url, { links }), support: services.support, updates: services.updates };
  const { router, emit } = createDeskRouter(desk, platform, {
    checkOutputs: !app.isPackaged,
    onUnexpected: (where, error) => log.error('unexpected failure', { where, error }),
  });

  hardenSession(session.defaultSession);
  hardenEveryWebContents(app, { links, onRefused: (what, url) => log.warn('refused', { what, url }) });
  if (devServerUrl) applyDevServerCsp(session.defaultSession, devServerUrl);
  else serveRenderer(session.defaultSession, paths.rendererDir);

  const windowState = createWindowStateFile(join(app.getPath('userData'), 'window-state.json'));
  const mainWindow = await createMainWindow({
    preloadPath: paths.preload,
    rendererUrl: devServerUrl ?? APP_ENTRY_URL,
    windowState,
    links,
    startHidden: shouldStartHidden(deps.argv ?? process.argv, app.getLoginItemSettings().wasOpenedAtLogin),
    isQuitting: () => quit.quitting,
    iconPath: paths.appIcon,
    now: () => clock.now(),
    onError: (error) => log.warn('window', { error }),
    onRendererGone: (details, reloaded) => log.error('renderer process gone', { reason: details.reason, exitCode: details.exitCode, reloaded }),
  });
  win = mainWindow;
  const reveal = () => revealWindow(mainWindow);
  setReveal(reveal);
  revealOnActivate(reveal);
  const unbind = bindRouter(ipcMain, withCallLog(router, log), {
    trusted: devServerUrl ? { devServerUrl } : {},
    target: () => (mainWindow.isDestroyed() ? null : mainWindow.webContents),
    onRefused: (channel, url) => log.warn('refused a call from another page', { channel, url }),
  });

  // Tray, taskbar and notifications follow the desk's state.
  const tray = createTray({
    iconDir: paths.trayIconDir,
    initial: shellStateOf(desk),
    onOpen: reveal,
    onToggleAutomation: () => void desk.updateSettings({ heartbeatEnabled: !desk.settings.get().heartbeatEnabled }).catch(() => undefined),
    onCheckTrades: () => void desk.workspace().trades.checkNow().catch(() => undefined),
    onQuit: () => quit.quit(),
    onRestartToUpdate: () => void services.updates.restartToUpdate(),
  });
  const taskbar = createTaskbarIndicator({
    window: () => (mainWindow.isDestroyed() ? null : mainWindow),
    attentionIconPath: join(paths.trayIconDir, 'attention.png'),
  });
  const notifier = createNotifier({
    iconPath: paths.appIcon,
    muted: () => !desk.settings.get().notificationsEnabled,
    onOpen: (trade) => {
      reveal();
      emit('app:navigate', { view: 'trades', ...(trade ? { tradeId: trade.trade_id } : {}) });
    },
  });
  const refreshShell = () => {
    const update = services.updates.view();
    const state = { ...shellStateOf(desk), update: update.state === 'ready' && update.version ? { version: update.version, restartPending: update.restartPending } : null };
    tray.update(state);
    taskbar.update(state);
  };
  pushUpdate = (view) => {
    emit('updates:state', view);
    refreshShell();
  };
  router.subscribe((event) => {
    if (event === 'heartbeat:state' || event === 'trades:changed' || event === 'apply:state' || event === 'scheduler:state' || event === 'settings:changed') refreshShell();
  });
  const followTrades = () => {
    const trades = desk.workspace().trades;
    trades.on('needsAction', (list) => notifier.notify(list));
    trades.on('trades', (list) => notifier.retainOnly(list));
  };
  followTrades();
  desk.events.on('workspace', followTrades);

  const power = wirePowerEvents({
    beatNow: () => desk.workspace().heartbeat.beatNow(),
    checkTradesNow: () => desk.workspace().trades.checkNow(),
    onConnectivity: (online) => desk.setOnline(online),
    onError: (error) => log.debug('wake failed', { error }),
    // The desk's clock: the same as Date.now in the app, and the boot test's fast time.
    now: () => clock.now(),
    ...(deps.onlinePollMs === undefined ? {} : { onlinePollMs: deps.onlinePollMs }),
  });
  desk.settings.on('changed', (next, previous) => {
    if (next.startAtLogin !== previous.startAtLogin) void setStartAtLogin(next.startAtLogin).catch(() => undefined);
  });

  // Closing the window keeps the app in the tray; only Quit ends it.
  app.on('window-all-closed', () => undefined);
  holdQuitFor(async () => {
    log.info('quitting', { applies: desk.workspace().apply.handles().length });
    power.dispose();
    unbind();
    tray.destroy();
    // A batch on its way gets its outcome journaled; the rest waits for the next start.
    await withTimeout(desk.workspace().apply.suspend(), QUIT_DRAIN_MS);
    await desk.close();
    // The window wrote its size and place as it closed.
    await windowState.settled();
    stopDeskLog();
    log.info('closed');
  }, {
    onError: (error) => log.error('closing failed', { error }),
    finish: () => {
      process.off('uncaughtExceptionMonitor', onProcessError);
      process.off('unhandledRejection', onProcessError);
      services.finishQuit();
    },
  });
  return { desk, router, log };
}

/**
 * Each call's channel, outcome and duration at debug level, failures other
 * than the trader's own at info: enough to follow a bug report. Inputs are
 * never logged (one of them carries the key on its way to the keychain).
 */
function withCallLog(router: Router, log: AppLog): Router {
  return {
    ...router,
    async invoke(channel, input) {
      const started = performance.now();
      const result = await router.invoke(channel, input);
      const ms = Math.round(performance.now() - started);
      if (result.ok) log.debug('call', { channel, ms });
      else log.info('call failed', { channel, ms, kind: result.error.kind, message: result.error.message });
      return result;
    },
  };
}

/**
 * How long a quit waits for batches in flight. The client's own timeouts end
 * a request well before; this only bounds a wait that something unforeseen
 * keeps open, so Quit always quits.
 */
const QUIT_DRAIN_MS = 60_000;

function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
