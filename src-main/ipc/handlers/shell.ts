import type { UpdateView } from '../../../src-shared/updates.ts';
import type { Handlers } from '../router.ts';
import type { Platform } from './platform.ts';
import { refused } from '../../core/errors.ts';

type ShellChannels = 'support:openLogsFolder' | 'support:saveDiagnostics' | 'updates:state' | 'updates:check' | 'updates:restart';

/** Where the host has no updates (a browser harness): said, not failed. */
const NO_UPDATES: UpdateView = { state: 'off', version: null, percent: null, restartPending: false, message: 'Updates are not available here.', checkedAt: null };

/** Handlers for the desktop shell's own services: the logs folder, the bug-report bundle, updates. */
export function shellHandlers(platform: Platform): Pick<Handlers, ShellChannels> {
  const support = () => {
    if (!platform.support) throw refused('Logs are kept by the desktop app only.');
    return platform.support;
  };
  return {
    'support:openLogsFolder': async () => {
      await support().openLogsFolder();
      return { ok: true as const };
    },
    'support:saveDiagnostics': async () => {
      const path = await support().saveDiagnostics();
      return { saved: path !== null, path };
    },
    'updates:state': () => platform.updates?.view() ?? NO_UPDATES,
    'updates:check': () => platform.updates?.checkNow() ?? NO_UPDATES,
    'updates:restart': () => platform.updates?.restartToUpdate() ?? NO_UPDATES,
  };
}
