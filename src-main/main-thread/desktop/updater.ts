import { basename } from 'node:path';
import type { AppUpdater } from 'electron-updater';
import { APP_ID } from '../../core/shell/app-identity.ts';
import type { AppLog } from '../../core/shell/app-log.ts';
import type { UpdateSource } from '../../core/shell/update-controller.ts';
import { downgradeRefusal, feedRequestRefusal, UpdateRefused } from '../../core/shell/update-policy.ts';
import { checkUpdateSignature, fileSha512, SIGNATURE_SUFFIX } from '../../core/shell/update-signature.ts';
import { UPDATE_FEED_URL, UPDATE_PUBLIC_KEYS } from '../../core/shell/update-trust.ts';
import { FeedBoundExecutor } from './update-feed-executor.ts';

/**
 * electron-updater as the update controller's source, on the feed pinned in
 * the app (update-trust.ts). electron-updater checks each file's sha512
 * against the feed; since the feed could lie about both, each downloaded
 * file must also carry a detached Ed25519 signature (`<file>.sig`) by a key
 * pinned in the app, over its version and sha512. An older version than the
 * one installed is refused, and so is any request or redirect off the feed's
 * host or off https. A refused file is deleted, logged and shown in Settings.
 *
 * It neither downloads nor installs on its own: the controller decides when
 * (never a restart during an apply), and the app installs only after its quit
 * has closed the store.
 */
export interface ElectronUpdateSource extends UpdateSource {
  /** Installs the downloaded update as the process ends; `runAfter` starts the new version. */
  install(runAfter: boolean): void;
}

/** What the source trusts; the app's own, or a test feed's. */
export interface UpdateTrust {
  readonly feedUrl: string;
  readonly publicKeys: readonly string[];
}

export const PINNED_TRUST: UpdateTrust = { feedUrl: UPDATE_FEED_URL, publicKeys: UPDATE_PUBLIC_KEYS };

export function electronUpdateSource(updater: AppUpdater, log: AppLog, trust: UpdateTrust = PINNED_TRUST): ElectronUpdateSource {
  const installed = updater.currentVersion.version;
  /** The version the last check found: what a downloaded file's signature must name. */
  let offered: string | null = null;

  const executor = new FeedBoundExecutor({
    refusal: (url) => feedRequestRefusal(trust.feedUrl, url),
    verify: async (url, file) => {
      const version = offered;
      if (version === null) throw new UpdateRefused(null, 'it was downloaded without a version checked first.', 'download before a check');
      const downgrade = downgradeRefusal(installed, version);
      if (downgrade) throw downgrade;
      const sha512 = await fileSha512(file);
      const signatureUrl = new URL(url.href);
      signatureUrl.pathname += SIGNATURE_SUFFIX;
      const name = basename(decodeURIComponent(url.pathname));
      const signature = await executor.fetchText(signatureUrl);
      if (signature === null) {
        throw new UpdateRefused(version, 'it carries no signature from the publisher.', `${name}: no ${name}${SIGNATURE_SUFFIX} on the feed`);
      }
      const check = checkUpdateSignature({ appId: APP_ID, version, sha512 }, signature, trust.publicKeys);
      if (!check.ok) {
        throw new UpdateRefused(
          version,
          "its signature does not match the publisher's key, so the file may have been altered.",
          `${name}: signature ${check.problem === 'malformed' ? 'is not a signature' : 'does not verify with any pinned key'} (sha512 ${sha512})`,
        );
      }
      log.info('update signature verified', { version, file: name, key: check.keyId });
    },
  }, (authInfo, callback) => updater.emit('login', authInfo, callback));
  // electron-updater keeps its HTTP client in a field its typings do not show.
  (updater as unknown as { httpExecutor: FeedBoundExecutor }).httpExecutor = executor;
  // The feed is the one pinned in the app, whatever resources/app-update.yml says.
  updater.setFeedURL({ provider: 'generic', url: trust.feedUrl });
  updater.autoDownload = false;
  updater.autoInstallOnAppQuit = false;
  updater.allowDowngrade = false;
  // Every file comes whole through `download`, where it is verified: a
  // differential download assembles it elsewhere, and follows redirects itself.
  updater.disableDifferentialDownload = true;
  updater.disableWebInstaller = true;
  updater.logger = {
    info: (message?: unknown) => log.debug('updater', { message: String(message) }),
    warn: (message?: unknown) => log.warn('updater', { message: String(message) }),
    error: (message?: unknown) => log.warn('updater', { message: String(message) }),
    debug: (message: string) => log.debug('updater', { message }),
  };
  // Errors are reported through the promises below; without a listener the emitter would throw.
  updater.on('error', () => undefined);

  const refused = (error: unknown): never => {
    if (error instanceof UpdateRefused) log.warn('update refused', { version: error.version ?? offered, reason: error.detail });
    throw error;
  };
  return {
    async check(signal) {
      offered = null;
      const result = await executor.during(signal, () => updater.checkForUpdates()).catch(refused);
      if (!result) return null;
      const version = result.updateInfo.version;
      // electron-updater reports an older version as "no update"; an older one offered is a warning sign, said as such.
      if (!result.isUpdateAvailable) {
        if (version !== installed) {
          const downgrade = downgradeRefusal(installed, version);
          if (downgrade) refused(downgrade);
        }
        return null;
      }
      offered = version;
      return version;
    },
    async download(onProgress) {
      const listener = (p: { percent: number }) => onProgress(p.percent);
      updater.on('download-progress', listener);
      try {
        await updater.downloadUpdate().catch(refused);
      } finally {
        updater.off('download-progress', listener);
      }
    },
    install(runAfter) {
      updater.quitAndInstall(true, runAfter);
    },
  };
}
