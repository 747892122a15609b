import { app, type BrowserWindow } from 'electron';
import type { UpdateView } from '../../src-shared/updates.ts';
import type { Clock } from '../core/clock.ts';
import type { Desk } from '../core/desk/desk.ts';
import type { AppLog } from '../core/shell/app-log.ts';
import { diagnosticsBundle } from '../core/shell/diagnostics.ts';
import { createUpdateController, type UpdateController } from '../core/shell/update-controller.ts';
import type { SupportHost } from '../ipc/handlers/platform.ts';
import { applyJobView, heartbeatView, schedulerView } from '../ipc/views.ts';
import { createSupport } from './support.ts';
import { electronUpdateSource, type ElectronUpdateSource } from './updater.ts';

/**
 * What a tray app that runs all day needs besides its job: logs a trader can
 * send and updates. Built by the composition root; this file holds how they
 * reach the desk (settings, applies) and how a quit ends (exit, or install).
 */
export interface ShellServicesDeps {
  readonly desk: Desk;
  readonly log: AppLog;
  readonly clock: Clock;
  readonly window: () => BrowserWindow | null;
  /** The app's own Quit (which closes everything first). */
  readonly quit: () => void;
  readonly onUpdate: (view: UpdateView) => void;
  /** Default: electron-updater's updater in a packaged app, none in development. */
  readonly updateSource?: ElectronUpdateSource | null;
}

export interface ShellServices {
  readonly support: SupportHost;
  readonly updates: UpdateController;
  /** Ends the process once the store is closed: installs a ready update (restarting into it when asked), or exits. */
  finishQuit(): void;
}

export async function createShellServices(deps: ShellServicesDeps): Promise<ShellServices> {
  const { desk, log } = deps;
  const source = deps.updateSource !== undefined ? deps.updateSource : await defaultUpdateSource(log);
  let restartAsked = false;
  const applyRunning = () => desk.workspace().apply.handles().length > 0;
  const updates = createUpdateController({
    source,
    unavailableReason: app.isPackaged
      ? 'This installation is updated by its package manager.'
      : 'Updates apply to installed copies, not to a development run.',
    enabled: () => desk.settings.get().autoUpdate,
    applyRunning,
    restart: () => {
      restartAsked = true;
      log.info('restarting to update', { version: updates.view().version });
      deps.quit();
    },
    onChange: (view) => {
      if (view.state === 'ready' || view.state === 'error') log.info('update', { state: view.state, version: view.version, message: view.message });
      deps.onUpdate(view);
    },
    clock: deps.clock,
  });
  updates.refresh();
  desk.settings.on('changed', (next, previous) => {
    if (next.autoUpdate !== previous.autoUpdate) updates.refresh();
  });
  // A restart asked for during an apply goes once every apply has ended (and left the handles list).
  const followApplies = () => desk.workspace().apply.on('progress', (p) => {
    if (p.state === 'done' || p.state === 'cancelled' || p.state === 'stopped') {
      void Promise.all(desk.workspace().apply.handles().map((h) => h.done)).then(() => updates.applyEnded());
    }
  });
  followApplies();
  desk.events.on('workspace', followApplies);

  const support = createSupport({
    logsDir: app.getPath('logs'),
    window: deps.window,
    async bundle() {
      const ws = desk.workspace();
      const key = await desk.keys.status();
      return diagnosticsBundle({
        createdAt: new Date(deps.clock.now()).toISOString(),
        versions: { app: app.getVersion(), electron: process.versions.electron ?? null, chrome: process.versions.chrome ?? null, node: process.versions.node, platform: `${process.platform} ${process.arch}` },
        settings: { ...desk.settings.get() },
        key: { set: key.set, state: key.state, keychainAvailable: key.keychainAvailable },
        status: { ...desk.status() },
        rateBudget: schedulerView(0, ws.scheduler),
        heartbeat: heartbeatView(0, ws.heartbeat.state),
        applies: ws.apply.handles().map((h) => applyJobView(h.progress())),
        unknownOutcomes: ws.apply.unknownOutcomes().length,
        updates: updates.view(),
        logs: log.recent(256 * 1024),
      }, [await desk.keys.read().catch(() => null)]);
    },
  });

  return {
    support,
    updates,
    finishQuit() {
      updates.stop();
      if (source && updates.view().state === 'ready') {
        log.info('installing update', { version: updates.view().version, restart: restartAsked });
        log.close();
        source.install(restartAsked);
        return;
      }
      log.close();
      app.exit(0);
    },
  };
}

async function defaultUpdateSource(log: AppLog): Promise<ElectronUpdateSource | null> {
  if (!app.isPackaged) return null;
  // Loaded only where it applies: it reads resources/app-update.yml, which only a packaged app has.
  const { default: electronUpdater } = await import('electron-updater');
  return electronUpdateSource(electronUpdater.autoUpdater, log);
}
