import type { ApplyJobTracker } from '../core/apply/apply-job.ts';
import type { Heartbeat } from '../core/heartbeat/index.ts';
import type { Scheduler } from '../core/scheduler/index.ts';
import type { Settings } from '../core/settings/settings.ts';
import type { SettingsService } from '../core/settings/settings-service.ts';
import type { ShellState } from '../core/shell/tray-state.ts';
import type { TradeWatcher } from '../core/trades/trade-watcher.ts';

/** What the tray's state is drawn from: the settings, and the current workspace's services. */
export interface ShellStateSources {
  readonly settings: Pick<SettingsService, 'get'>;
  mode(): Settings['mode'];
  applyJob(): Pick<ApplyJobTracker, 'current'>;
  heartbeat(): Pick<Heartbeat, 'state'>;
  trades(): Pick<TradeWatcher, 'trades'>;
  scheduler(): Pick<Scheduler, 'state'>;
}

/**
 * The desk's state as the tray and taskbar show it: automation, trades that
 * wait for the trader, a running apply, and whether the key was refused.
 */
export function shellStateOf(desk: ShellStateSources): ShellState {
  // The tray and taskbar show an apply while it runs; the screen keeps the finished one.
  const latest = desk.applyJob().current();
  const job = latest && (latest.state === 'running' || latest.state === 'paused' || latest.state === 'cancelling') ? latest : null;
  const enabled = desk.settings.get().heartbeatEnabled;
  return {
    heartbeat: enabled ? desk.heartbeat().state.status : 'off',
    automationPaused: !enabled,
    tradesNeedingAction: desk.trades().trades().filter((t) => t.needsAction).length,
    job,
    blocked: blockedBy(desk.scheduler().state),
    sandbox: desk.mode() === 'sandbox',
  };
}

/**
 * A stop on `auth` whose error has no status never reached the service: no
 * key was set (or it could not be read), which is not a refusal.
 */
function blockedBy(state: Scheduler['state']): ShellState['blocked'] {
  if (state.blocked === 'auth' && state.blockedError?.status === undefined) return 'no_key';
  return state.blocked;
}
