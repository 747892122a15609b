import type { Desk } from '../core/desk/desk.ts';
import type { ShellState } from '../core/shell/tray-state.ts';
import type { Workspace } from '../core/desk/workspace.ts';

/**
 * The desk's state as the tray and taskbar show it: automation, trades that
 * wait for the trader, a running apply, and whether the key was refused.
 */
export function shellStateOf(desk: Desk): ShellState {
  const ws = desk.workspace();
  // The tray and taskbar show an apply while it runs; the screen keeps the finished one.
  const latest = ws.applyJob.current();
  const job = latest && (latest.state === 'running' || latest.state === 'paused' || latest.state === 'cancelling') ? latest : null;
  const enabled = desk.settings.get().heartbeatEnabled;
  return {
    heartbeat: enabled ? ws.heartbeat.state.status : 'off',
    automationPaused: !enabled,
    tradesNeedingAction: ws.trades.trades().filter((t) => t.needsAction).length,
    job,
    blocked: blockedBy(ws.scheduler.state),
    sandbox: ws.mode === 'sandbox',
  };
}

/**
 * A stop on `auth` whose error has no status never reached the service: no
 * key was set (or it could not be read), which is not a refusal.
 */
function blockedBy(state: Workspace['scheduler']['state']): ShellState['blocked'] {
  if (state.blocked === 'auth' && state.blockedError?.status === undefined) return 'no_key';
  return state.blocked;
}
