import type { Desk } from '../core/desk/desk.ts';
import type { ShellState } from '../core/shell/tray-state.ts';

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
    blocked: ws.scheduler.state.blocked,
    sandbox: ws.mode === 'sandbox',
  };
}
