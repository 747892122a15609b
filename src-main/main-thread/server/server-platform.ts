import type { UpdateView } from '../../../src-shared/updates.ts';
import { refused } from '../../core/errors.ts';
import { allowedExternalUrl, type ExternalLinkPolicy } from '../../core/shell/external-links.ts';
import type { AccessHost, Platform } from '../../ipc/handlers/platform.ts';

/**
 * What the server shell answers where the desktop has a desktop: a link is
 * opened by the page that asked for it (checked against the same allowlist
 * first); the log is on standard output, so there is no folder to open; the
 * diagnostics are downloaded from Settings; updates come with the package.
 */

/** Where the log goes, as Settings says it: journald under systemd, the process's output elsewhere. */
export function logsWhere(env: NodeJS.ProcessEnv): string {
  if (env.JOURNAL_STREAM) return 'The log goes to journald: journalctl -u marketplace-desk (or the name of your unit).';
  return 'The log goes to the standard output of the process that runs the desk (docker logs <container> in a container).';
}

const SERVER_UPDATES: UpdateView = {
  state: 'off', version: null, percent: null, restartPending: false, checkedAt: null,
  message: 'This desk runs on a server and is updated with its package: install the new version (npm install -g marketplace-desk, or pull the new image), then restart the service.',
};

export interface ServerPlatformDeps {
  /** Which links may leave the desk (the service's own pages, trade offers). */
  readonly links: () => ExternalLinkPolicy;
  /** Opens an allowed link in the page that asked. */
  readonly openInPage: (url: string) => void;
  readonly logsWhere: string;
  readonly access: AccessHost;
}

export function serverPlatform(deps: ServerPlatformDeps): Platform {
  return {
    openLink(url) {
      const allowed = allowedExternalUrl(url, deps.links());
      if (allowed !== null) deps.openInPage(allowed);
    },
    support: {
      openLogsFolder: () => Promise.reject(refused(deps.logsWhere)),
      saveDiagnostics: () => Promise.reject(refused('On a server, Settings downloads the diagnostics as a file: use "Download diagnostics".')),
    },
    updates: {
      view: () => SERVER_UPDATES,
      checkNow: async () => SERVER_UPDATES,
      restartToUpdate: () => SERVER_UPDATES,
    },
    access: deps.access,
  };
}
