import { mkdir, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { app } from 'electron';
import { APP_DISPLAY_NAME } from '../../core/shell/app-identity.ts';
import { autostartEntry, autostartExecPath, START_HIDDEN_FLAG, shouldStartHidden } from '../../core/shell/login-item.ts';

/**
 * The "start at login" option. Windows and macOS keep the setting through
 * Electron; Linux has no such API there, so an XDG autostart entry is written.
 * Either way the app starts hidden, in the tray.
 */

export interface LoginItemDeps {
  readonly platform?: NodeJS.Platform;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly execPath?: string;
  /** File name of the Linux autostart entry. */
  readonly entryName?: string;
}

function linuxEntryPath(deps: LoginItemDeps): string {
  const env = deps.env ?? process.env;
  const config = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(config, 'autostart', deps.entryName ?? 'marketplace-desk.desktop');
}

export async function setStartAtLogin(enabled: boolean, deps: LoginItemDeps = {}): Promise<void> {
  const platform = deps.platform ?? process.platform;
  if (platform !== 'linux') {
    app.setLoginItemSettings({ openAtLogin: enabled, args: [START_HIDDEN_FLAG] });
    return;
  }
  const file = linuxEntryPath(deps);
  if (!enabled) {
    await rm(file, { force: true });
    return;
  }
  const execPath = autostartExecPath(deps.execPath ?? process.execPath, deps.env ?? process.env);
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, autostartEntry({ name: APP_DISPLAY_NAME, execPath, comment: 'Keeps listings marked as automated and watches trades' }), 'utf8');
}

/** Whether this launch came from the login item and should stay in the tray. */
export function launchedHidden(argv: readonly string[] = process.argv, platform: NodeJS.Platform = process.platform): boolean {
  const openedAtLogin = platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin;
  return shouldStartHidden(argv, openedAtLogin);
}
