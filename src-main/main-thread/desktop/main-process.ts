/**
 * The composition root of the main process: with desktop/, the only code that
 * imports `electron`. It starts the data worker, which runs the desk (the
 * core, its store and the IPC router over it: `../worker/desk-worker.ts`), and
 * connects the bridge and the thin desktop adapters to it: window, tray,
 * taskbar, notifications, power and network events, logs and updates. The
 * main thread itself holds no store, so nothing the desk does can freeze
 * the window.
 *
 * `index.ts` calls `startMainProcess`; the boot test calls it with a temp
 * profile, a fast clock and the worker's TypeScript entry, and drives the
 * result through ipcMain as the preload would.
 */
import type { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { app, ipcMain, session } from 'electron';
import type { UpdateView } from '../../../src-shared/updates.ts';
import { scaledClock, systemClock } from '../../core/clock.ts';
import type { SecretStore } from '../../core/secrets.ts';
import { openAppLog, type AppLog, type AppLogOptions } from '../../core/shell/app-log.ts';
import { APP_ENTRY_URL } from '../../core/shell/app-origin.ts';
import { APP_ID } from '../../core/shell/app-identity.ts';
import { appPaths, userDataDirFrom } from '../../core/shell/app-paths.ts';
import type { ExternalLinkPolicy } from '../../core/shell/external-links.ts';
import { createWindowStateFile } from '../../core/shell/window-state-file.ts';
import { claimSingleInstance, createQuitSwitch, holdQuitFor, revealOnActivate } from './app-life.ts';
import { applyDevServerCsp, registerAppScheme, serveRenderer } from './app-protocol.ts';
import { bindRouter } from './ipc.ts';
import { createKeychainSecretStore } from '../keychain.ts';
import { launchedHidden, setStartAtLogin } from './login-item.ts';
import { createAppWindow, type AppWindow } from './app-window.ts';
import { showDeskIndicators } from './desk-indicators.ts';
import { prepareNotifications } from './notifier.ts';
import { recoverInWindow } from './profile-recovery.ts';
import { createShellServices } from './shell-services.ts';
import type { ElectronUpdateSource } from './updater.ts';
import { wirePowerEvents } from './power-events.ts';
import { hardenEveryWebContents, hardenSession, openIfAllowed } from './web-hardening.ts';
import { withCallLog } from '../../ipc/call-log.ts';
import type { Router } from '../../ipc/router.ts';
import type { DeskWorkerConfig } from '../../core/data/desk-worker-config.ts';
import { connectDesk, type DeskConnection, type MainDesk } from '../desk-connection.ts';
import { deskWorkerSpawner, spawnAhead } from '../desk-worker-spawn.ts';
import { stopDesk } from '../desk-stop.ts';

export interface MainProcessDeps {
  /** Options of the built-in simulator sandbox mode talks to (it runs in the data worker). */
  readonly sandbox?: DeskWorkerConfig['sandbox'];
  /** Default: the OS keychain under the app's name. */
  readonly secrets?: SecretStore;
  /** Time runs `scale` times faster from `origin` (the boot test); default the system clock. */
  readonly timeScale?: { readonly scale: number; readonly origin: number };
  /** The data worker's script; default `desk-worker.cjs` beside the main bundle. */
  readonly workerScript?: URL | string;
  /** Where the data worker keeps V8's compiled code between starts; default `compile-cache` in the user data folder. */
  readonly compileCache?: string;
  /** The worker's Node flags, when they must not be this process's (a bench run under a loader the app does not have). */
  readonly workerExecArgv?: readonly string[];
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
  /** The desk as the main thread sees it (a view and commands; the desk runs in the data worker). */
  readonly desk: MainDesk;
  readonly router: Router;
  readonly connection: DeskConnection;
  readonly log: AppLog;
}

export interface MainProcess {
  /** Settles once the app is up (null for a second instance that gave way), or rejects when it could not start. */
  readonly started: Promise<RunningApp | null>;
}

export function startMainProcess(deps: MainProcessDeps): MainProcess {
  // Before anything reads it (the single-instance lock lives there too): a profile elsewhere, e.g. a test's.
  const userData = userDataDirFrom(deps.argv ?? process.argv);
  if (userData) {
    app.setPath('userData', userData);
    app.setAppLogsPath(join(userData, 'logs'));
  }
  // Must run before `ready`: the renderer is served from app://desk/, not file://.
  registerAppScheme();
  let reveal: () => void = () => undefined;
  if (!claimSingleInstance(() => reveal())) {
    app.quit();
    return { started: Promise.resolve(null) };
  }
  const mainDir = deps.mainDir ?? import.meta.dirname;
  // The data worker boots and loads the desk's code while Electron gets ready.
  const spawn = spawnAhead(deskWorkerSpawner({
    mainDir,
    compileCache: deps.compileCache ?? join(app.getPath('userData'), 'compile-cache'),
    ...(deps.workerScript ? { script: deps.workerScript } : {}),
    ...(deps.workerExecArgv ? { execArgv: deps.workerExecArgv } : {}),
  }));
  const started = app.whenReady().then(async () => {
    const log = openAppLog({ dir: app.getPath('logs'), level: app.isPackaged ? 'info' : 'debug', ...deps.log });
    try {
      return await start(deps, { log, mainDir, spawn }, (r) => (reveal = r));
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

async function start(deps: MainProcessDeps, begun: { log: AppLog; mainDir: string; spawn: () => Worker }, setReveal: (reveal: () => void) => void): Promise<RunningApp | null> {
  const { log, mainDir, spawn } = begun;
  log.info('starting', { version: app.getVersion(), electron: process.versions.electron ?? null, node: process.versions.node, platform: process.platform, arch: process.arch, packaged: app.isPackaged });
  const onProcessError = (error: unknown) => log.error('unhandled failure in main', { error });
  process.on('uncaughtExceptionMonitor', onProcessError);
  process.on('unhandledRejection', onProcessError);
  const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
  const paths = appPaths({
    packaged: app.isPackaged,
    mainDir,
    appPath: app.getAppPath(),
    resourcesPath: process.resourcesPath,
  });
  prepareNotifications(APP_ID);
  const quit = createQuitSwitch();
  const clock = deps.timeScale ? scaledClock(deps.timeScale.scale, deps.timeScale.origin) : systemClock;
  // The desk's view of the service URL: which links may open in the browser.
  let serviceUrl = '';
  const links = (): ExternalLinkPolicy => ({ serviceOrigins: serviceUrl.startsWith('https:') ? [new URL(serviceUrl).origin] : [] });
  // Logs, bug reports and updates; the window and the router's events are connected once they exist.
  let appWindow: AppWindow | null = null;
  let pushUpdate: (view: UpdateView) => void = () => undefined;
  // Draws the tray and taskbar again once they exist.
  let refreshShell: () => void = () => undefined;
  let services: Awaited<ReturnType<typeof createShellServices>> | null = null;
  const platform = {
    openLink: (url: string) => void openIfAllowed(url, { links }),
    support: { openLogsFolder: () => shell().support.openLogsFolder(), saveDiagnostics: () => shell().support.saveDiagnostics() },
    updates: { view: () => shell().updates.view(), checkNow: () => shell().updates.checkNow(), restartToUpdate: () => shell().updates.restartToUpdate() },
  };
  const shell = () => {
    if (!services) throw new Error('the shell services are not ready');
    return services;
  };
  const connection = await connectDesk({
    spawn,
    secrets: deps.secrets ?? createKeychainSecretStore(),
    config: {
      dataDir: join(app.getPath('userData'), 'profiles'),
      version: app.getVersion(),
      clock: deps.timeScale ? { scale: deps.timeScale.scale, origin: deps.timeScale.origin } : null,
      sandbox: deps.sandbox ?? {},
    },
    platform,
    log,
  });
  const { desk, router, emit } = connection;

  hardenSession(session.defaultSession);
  hardenEveryWebContents(app, { links, onRefused: (what, url) => log.warn('refused', { what, url }) });
  if (devServerUrl) applyDevServerCsp(session.defaultSession, devServerUrl);
  else serveRenderer(session.defaultSession, paths.rendererDir);

  const windowState = createWindowStateFile(join(app.getPath('userData'), 'window-state.json'));
  // While the profile cannot be opened, closing the window ends the app: there is no desk to keep in the tray.
  let recovering = false;
  // The window exists only while it is open: closing it to the tray destroys it and its renderer.
  const win: AppWindow = createAppWindow({
    preloadPath: paths.preload,
    rendererUrl: devServerUrl ?? APP_ENTRY_URL,
    windowState,
    links,
    isQuitting: () => recovering || quit.quitting,
    iconPath: paths.appIcon,
    now: () => clock.monotonic(),
    onError: (error) => log.warn('window', { error }),
    onRendererGone: (details, reloaded) => log.error('renderer process gone', { reason: details.reason, exitCode: details.exitCode, reloaded }),
    onOpened: () => refreshShell(),
  });
  appWindow = win;
  const reveal = () => void win.reveal().catch(() => undefined);
  setReveal(reveal);
  revealOnActivate(reveal);
  const unbind = bindRouter(ipcMain, withCallLog(router, log), {
    trusted: devServerUrl ? { devServerUrl } : {},
    target: () => win.current()?.webContents ?? null,
    onRefused: (channel, url) => log.warn('refused a call from another page', { channel, url }),
  });

  // A profile that cannot be opened: the window shows the recovery screen until the trader's choice opens it.
  const problem = connection.problem();
  if (problem !== null) {
    const recovered = await recoverInWindow({ problem, whenOpen: () => connection.whenOpen(), openWindow: () => win.reveal(), setRecovering: (on) => (recovering = on), log });
    if (!recovered) {
      unbind();
      await connection.close();
      app.quit();
      return null;
    }
  }

  // The key, once known, is scrubbed from every line; a new one is learned when it is set.
  log.addSecret(desk.knownKey());
  desk.on('key', (key) => log.addSecret(key));
  serviceUrl = desk.view().settings.serviceUrl;
  desk.on('view', ({ view }) => (serviceUrl = view.settings.serviceUrl));
  services = await createShellServices({
    desk, log, clock,
    key: () => desk.knownKey(),
    window: () => appWindow?.current() ?? null,
    quit: () => quit.quit(),
    onUpdate: (view) => pushUpdate(view),
    ...(deps.updateSource === undefined ? {} : { updateSource: deps.updateSource }),
  });

  // Tray, taskbar and notifications follow the desk's state.
  const indicators = showDeskIndicators({ desk, win, paths, reveal, emit, quit: () => quit.quit(), updates: () => shell().updates });
  refreshShell = indicators.refresh;
  pushUpdate = (view) => {
    emit('updates:state', view);
    indicators.refresh();
  };

  const power = wirePowerEvents({
    beatNow: () => desk.beatNow(),
    checkTradesNow: () => desk.checkTradesNow(),
    onConnectivity: (online) => void desk.setOnline(online).catch(() => undefined),
    onError: (error) => log.debug('wake failed', { error }),
    // The desk's monotonic clock (the gap between wakes is a duration): performance.now in the app, and the boot test's fast time.
    now: () => clock.monotonic(),
    ...(deps.onlinePollMs === undefined ? {} : { onlinePollMs: deps.onlinePollMs }),
  });
  // At login the app starts in the tray, with no window until the trader opens it.
  if (!launchedHidden(deps.argv ?? process.argv)) await win.reveal();
  desk.on('view', ({ view, previous }) => {
    if (view.settings.startAtLogin !== previous.settings.startAtLogin) void setStartAtLogin(view.settings.startAtLogin).catch(() => undefined);
  });

  // Closing the window keeps the app in the tray; only Quit ends it.
  app.on('window-all-closed', () => undefined);
  holdQuitFor(async () => {
    log.info('quitting', { applies: desk.view().appliesRunning });
    power.dispose();
    unbind();
    indicators.destroy();
    // A batch on its way gets its outcome journaled, then the store closes and the worker ends.
    await stopDesk(connection, log);
    // The window wrote its size and place as it closed.
    await windowState.settled();
    log.info('closed');
  }, {
    onError: (error) => log.error('closing failed', { error }),
    finish: () => {
      process.off('uncaughtExceptionMonitor', onProcessError);
      process.off('unhandledRejection', onProcessError);
      shell().finishQuit();
    },
  });
  return { desk, router, connection, log };
}
