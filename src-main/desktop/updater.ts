import type { AppUpdater } from 'electron-updater';
import type { AppLog } from '../core/shell/app-log.ts';
import type { UpdateSource } from '../core/shell/update-controller.ts';

/**
 * electron-updater as the update controller's source. It reads the feed
 * named in resources/app-update.yml (written by electron-builder from the
 * `publish` settings in build/electron-builder.yml), downloads to its cache
 * and checks the file's sha512 against the feed before it calls it ready.
 *
 * It neither downloads nor installs on its own: the controller decides when
 * (never a restart during an apply), and the app installs only after its quit
 * has closed the store.
 */
export interface ElectronUpdateSource extends UpdateSource {
  /** Installs the downloaded update as the process ends; `runAfter` starts the new version. */
  install(runAfter: boolean): void;
}

export function electronUpdateSource(updater: AppUpdater, log: AppLog): ElectronUpdateSource {
  updater.autoDownload = false;
  updater.autoInstallOnAppQuit = false;
  updater.logger = {
    info: (message?: unknown) => log.debug('updater', { message: String(message) }),
    warn: (message?: unknown) => log.warn('updater', { message: String(message) }),
    error: (message?: unknown) => log.warn('updater', { message: String(message) }),
    debug: (message: string) => log.debug('updater', { message }),
  };
  // Errors are reported through the promises below; without a listener the emitter would throw.
  updater.on('error', () => undefined);
  return {
    async check() {
      const result = await updater.checkForUpdates();
      return result?.isUpdateAvailable ? result.updateInfo.version : null;
    },
    async download(onProgress) {
      const listener = (p: { percent: number }) => onProgress(p.percent);
      updater.on('download-progress', listener);
      try {
        await updater.downloadUpdate();
      } finally {
        updater.off('download-progress', listener);
      }
    },
    install(runAfter) {
      updater.quitAndInstall(true, runAfter);
    },
  };
}
