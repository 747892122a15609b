import { app, type BrowserWindow } from 'electron';
import type { UpdateView } from '../../../src-shared/updates.ts';
import type { Clock } from '../../core/clock.ts';
import type { AppLog } from '../../core/shell/app-log.ts';
import { diagnosticsBundle } from '../../core/shell/diagnostics.ts';
import { createUpdateController, type UpdateController } from '../../core/shell/update-controller.ts';
import type { SupportHost } from '../../ipc/handlers/platform.ts';
import type { MainDesk } from '../desk-connection.ts';
import { createSupport } from './support.ts';
import type { ElectronUpdateSource } from './updater.ts';

/**
 * What a tray app that runs all day needs besides its job: logs a trader can
 * send and updates. Built by the composition root; this file holds how they
 * reach the desk (settings, applies) and how a quit ends (exit, or install).
 */
export interface ShellServicesDeps {
  readonly desk: MainDesk;
  /** The key as last known, to scrub from the bundle once more. */
  readonly key: () => string | null;
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
  const applyRunning = () => desk.view().appliesRunning > 0;
  const updates = createUpdateController({
    source,
    unavailableReason: app.isPackaged
      ? 'This installation is updated by its package manager.'
      : 'Updates apply to installed copies, not to a development run.',
    enabled: () => desk.view().settings.autoUpdate,
    applyRunning,
    restart: () => {
      restartAsked = true;
      log.info('restarting to update', { version: updates.view().version });
      deps.quit();
    },
    onChange: (view) => {
      if (view.state === 'ready' || view.state === 'error' || view.state === 'refused') log.info('update', { state: view.state, version: view.version, message: view.message });
      deps.onUpdate(view);
    },
    clock: deps.clock,
  });
  updates.refresh();
  desk.on('view', ({ view, previous }) => {
    if (view.settings.autoUpdate !== previous.settings.autoUpdate) updates.refresh();
    // A restart asked for during an apply goes once every apply has ended.
    if (previous.appliesRunning > 0 && view.appliesRunning === 0) updates.applyEnded();
  });

  const support = createSupport({
    logsDir: app.getPath('logs'),
    window: deps.window,
    async bundle() {
      const fromDesk = await desk.diagnostics();
      return diagnosticsBundle({
        createdAt: new Date(deps.clock.now()).toISOString(),
        versions: { app: app.getVersion(), electron: process.versions.electron ?? null, chrome: process.versions.chrome ?? null, node: process.versions.node, platform: `${process.platform} ${process.arch}` },
        ...fromDesk,
        updates: updates.view(),
        logs: log.recent(256 * 1024),
      }, [deps.key()]);
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
  // Loaded only where it applies: it reads resources/app-update.yml, which only a packaged app has. The
  // updater's own module comes with it: it loads builder-util-runtime and electron-updater's HTTP client.
  const [{ default: electronUpdater }, { electronUpdateSource }] = await Promise.all([import('electron-updater'), import('./updater.ts')]);
  return electronUpdateSource(electronUpdater.autoUpdater, log);
}
