/**
 * Composition root of the main process: with desktop/, the only code that
 * imports `electron`. It builds the desk (the core), the IPC router over it,
 * and hands both to the thin desktop adapters: window, tray, taskbar,
 * notifications, keychain, power and network events.
 */
import { join } from 'node:path';
import { app, ipcMain, session } from 'electron';
import { createDesk } from './core/desk/desk.ts';
import { startSandbox } from './sandbox/index.ts';
import { APP_ENTRY_URL } from './core/shell/app-origin.ts';
import { APP_ID } from './core/shell/app-identity.ts';
import type { ExternalLinkPolicy } from './core/shell/external-links.ts';
import { shouldStartHidden } from './core/shell/login-item.ts';
import { createWindowStateFile } from './core/shell/window-state-file.ts';
import { claimSingleInstance, createQuitSwitch, revealOnActivate } from './desktop/app-life.ts';
import { applyDevServerCsp, registerAppScheme, serveRenderer } from './desktop/app-protocol.ts';
import { bindRouter } from './desktop/ipc.ts';
import { createKeychainSecretStore } from './desktop/keychain.ts';
import { setStartAtLogin } from './desktop/login-item.ts';
import { createMainWindow, revealWindow } from './desktop/main-window.ts';
import { createNotifier, prepareNotifications } from './desktop/notifier.ts';
import { wirePowerEvents } from './desktop/power-events.ts';
import { createTaskbarIndicator } from './desktop/taskbar.ts';
import { createTray } from './desktop/tray.ts';
import { hardenEveryWebContents, hardenSession, openIfAllowed } from './desktop/web-hardening.ts';
import { createDeskRouter } from './ipc/desk-router.ts';
import { shellStateOf } from './ipc/shell-state.ts';

// Must run before `ready`: the renderer is served from app://desk/, not file://.
registerAppScheme();
const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;

if (!claimSingleInstance(() => reveal())) {
  app.quit();
} else {
  app.whenReady().then(start).catch((error: unknown) => {
    console.error('Marketplace Desk could not start:', error);
    app.exit(1);
  });
}

let reveal: () => void = () => undefined;

async function start(): Promise<void> {
  prepareNotifications(APP_ID);
  const quit = createQuitSwitch();
  const desk = await createDesk({
    dataDir: join(app.getPath('userData'), 'profiles'),
    secrets: createKeychainSecretStore(),
    version: app.getVersion(),
    openSandbox: (clock) => startSandbox({ clock }),
  });
  const links = (): ExternalLinkPolicy => {
    const url = desk.settings.get().serviceUrl;
    return { serviceOrigins: url.startsWith('https:') ? [new URL(url).origin] : [] };
  };
  const { router, emit } = createDeskRouter(desk, { openLink: (url) => void openIfAllowed(url, { links }) }, {
    checkOutputs: !app.isPackaged,
    onUnexpected: (where, error) => console.error(`unexpected failure in ${where}:`, error),
  });

  hardenSession(session.defaultSession);
  hardenEveryWebContents(app, { links });
  if (devServerUrl) applyDevServerCsp(session.defaultSession, devServerUrl);
  else serveRenderer(session.defaultSession, join(import.meta.dirname, '../renderer'));

  // build/electron-builder.yml copies build/icons/tray and the 256 px icon to resources/icons.
  const iconDir = app.isPackaged ? join(process.resourcesPath, 'icons/tray') : join(app.getAppPath(), 'build/icons/tray');
  const appIcon = join(iconDir, '../256x256.png');
  const win = await createMainWindow({
    preloadPath: join(import.meta.dirname, '../preload/index.cjs'),
    rendererUrl: devServerUrl ?? APP_ENTRY_URL,
    windowState: createWindowStateFile(join(app.getPath('userData'), 'window-state.json')),
    links,
    startHidden: shouldStartHidden(process.argv, app.getLoginItemSettings().wasOpenedAtLogin),
    isQuitting: () => quit.quitting,
    iconPath: appIcon,
  });
  reveal = () => revealWindow(win);
  revealOnActivate(reveal);
  const unbind = bindRouter(ipcMain, router, {
    trusted: devServerUrl ? { devServerUrl } : {},
    target: () => (win.isDestroyed() ? null : win.webContents),
  });

  // Tray, taskbar and notifications follow the desk's state.
  const tray = createTray({
    iconDir,
    initial: shellStateOf(desk),
    onOpen: reveal,
    onToggleAutomation: () => void desk.updateSettings({ heartbeatEnabled: !desk.settings.get().heartbeatEnabled }).catch(() => undefined),
    onCheckTrades: () => void desk.workspace().trades.checkNow().catch(() => undefined),
    onQuit: () => quit.quit(),
  });
  const taskbar = createTaskbarIndicator({
    window: () => (win.isDestroyed() ? null : win),
    attentionIconPath: join(iconDir, 'attention.png'),
  });
  const notifier = createNotifier({
    iconPath: appIcon,
    muted: () => !desk.settings.get().notificationsEnabled,
    onOpen: (trade) => {
      reveal();
      emit('app:navigate', { view: 'trades', ...(trade ? { tradeId: trade.trade_id } : {}) });
    },
  });
  const refreshShell = () => {
    const state = shellStateOf(desk);
    tray.update(state);
    taskbar.update(state);
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
  });
  desk.settings.on('changed', (next, previous) => {
    if (next.startAtLogin !== previous.startAtLogin) void setStartAtLogin(next.startAtLogin).catch(() => undefined);
  });

  // Closing the window keeps the app in the tray; only Quit ends it.
  app.on('window-all-closed', () => undefined);
  let closing = false;
  app.on('will-quit', (event) => {
    if (closing) return;
    closing = true;
    event.preventDefault();
    power.dispose();
    unbind();
    tray.destroy();
    void desk.close().finally(() => app.exit(0));
  });
}
