import type { UpdateView } from '../../../src-shared/updates.ts';
import type { Handlers } from '../router.ts';
import type { Platform } from './platform.ts';
import { refused } from '../../core/errors.ts';

type ShellChannels = 'support:openLogsFolder' | 'support:saveDiagnostics' | 'updates:state' | 'updates:check' | 'updates:restart'
  | 'access:state' | 'access:createToken' | 'access:revokeToken' | 'access:changePassword' | 'access:signOut';

/** Where the host has no updates (a browser harness): said, not failed. */
const NO_UPDATES: UpdateView = { state: 'off', version: null, percent: null, restartPending: false, message: 'Updates are not available here.', checkedAt: null };

const NO_SIGN_IN = 'The desktop app has no sign-in: its window is yours alone.';

/** Handlers for the shell's own services: the logs folder, the bug-report bundle, updates, and on the server who may sign in. */
export function shellHandlers(platform: Platform): Pick<Handlers, ShellChannels> {
  const support = () => {
    if (!platform.support) throw refused('Logs are kept by the desktop app only.');
    return platform.support;
  };
  const access = () => {
    if (!platform.access) throw refused(NO_SIGN_IN);
    return platform.access;
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
    'access:state': () => platform.access?.view() ?? { shell: 'desktop' as const },
    'access:createToken': ({ name }) => access().createToken(name),
    'access:revokeToken': ({ id }) => access().revokeToken(id),
    'access:changePassword': async ({ current, next }) => {
      await access().changePassword(current, next);
      return { ok: true as const };
    },
    // A session is the page's own: the server's socket answers this for the page that asks.
    'access:signOut': () => {
      throw refused(platform.access ? 'Only a signed-in page can sign out.' : NO_SIGN_IN);
    },
  };
}
