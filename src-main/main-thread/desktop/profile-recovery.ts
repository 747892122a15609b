import { app, type BrowserWindow } from 'electron';
import type { ProfileProblem } from '../../../src-shared/profile.ts';
import type { AppLog } from '../../core/shell/app-log.ts';

/**
 * A profile that could not be opened: instead of ending without a word, the
 * app opens its window, whose page shows the recovery screen (what
 * happened, where the file went, every backup or a fresh start), and waits
 * until the trader's choice opens the profile. Closing the window then ends
 * the app: there is no desk to keep in the tray.
 */
export interface RecoveryDeps {
  readonly problem: ProfileProblem;
  /** Settles once the desk is open. */
  whenOpen(): Promise<void>;
  /** Opens the app's window (the bridge already answers whatever window is open). */
  openWindow(): Promise<BrowserWindow>;
  /** Told when the window shows the recovery screen (true) and when it is done (false): closing it quits meanwhile. */
  setRecovering(recovering: boolean): void;
  readonly log: Pick<AppLog, 'info' | 'error'>;
}

/** The window once the profile opened (it stays the desk's window); null when the trader closed it first. */
export async function recoverInWindow(deps: RecoveryDeps): Promise<{ window: BrowserWindow } | null> {
  const { problem, log } = deps;
  log.error('the profile could not be opened', { kind: problem.kind, file: problem.file, movedTo: problem.movedTo, backups: problem.backups.length });
  deps.setRecovering(true);
  const closed = new Promise<'closed'>((resolve) => app.on('window-all-closed', () => resolve('closed')));
  const window = await deps.openWindow();
  const outcome = await Promise.race([deps.whenOpen().then(() => 'opened' as const), closed]);
  deps.setRecovering(false);
  if (outcome === 'closed') {
    log.info('closed before the profile was opened');
    return null;
  }
  log.info('the profile was opened from the recovery window');
  return { window };
}
