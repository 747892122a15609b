import type { HeartbeatStatus } from '../heartbeat/heartbeat.ts';
import { APP_DISPLAY_NAME } from './app-identity.ts';
import { type JobProgressView, jobProgressLine } from './job-progress.ts';

/**
 * What the tray shows, as a pure function of the app's state, so every
 * combination is tested without a tray. The tray is the trader's view of the
 * app while the window is hidden: the icon says at a glance whether the
 * account is marked as automated and whether a trade waits, the tooltip says
 * it in words.
 */

export interface ShellState {
  readonly heartbeat: HeartbeatStatus;
  /** The trader paused automation: no heartbeat, no writes. */
  readonly automationPaused: boolean;
  /** Pending trades where the trader must act (accept, send or confirm). */
  readonly tradesNeedingAction: number;
  /** The bulk apply in progress, if any. */
  readonly job: JobProgressView | null;
  /** The key was refused (401/403), or none is set (`no_key`): work is stopped until one is. */
  readonly blocked?: 'auth' | 'forbidden' | 'no_key' | null;
  /** Running against the built-in simulator rather than the real service. */
  readonly sandbox?: boolean;
  /** A downloaded, verified update; `restartPending` once the trader asked and an apply holds it. */
  readonly update?: { readonly version: string; readonly restartPending: boolean } | null;
}

/** One icon per state; files `build/icons/tray/<name>.png` (+ `@2x`). */
export const TRAY_ICON_NAMES = ['active', 'expiring', 'lapsed', 'off', 'attention'] as const;
export type TrayIconName = (typeof TRAY_ICON_NAMES)[number];

export type TrayMenuId = 'open' | 'toggle-automation' | 'check-trades' | 'job' | 'update' | 'quit';

export interface TrayMenuItem {
  readonly id: TrayMenuId;
  readonly label: string;
  readonly enabled: boolean;
  /** A separator goes before this item. */
  readonly separatorBefore?: boolean;
}

export interface TrayPresentation {
  readonly icon: TrayIconName;
  readonly tooltip: string;
  readonly menu: readonly TrayMenuItem[];
}

/** Windows cuts tray tooltips at 127 characters. */
export const TOOLTIP_MAX = 127;

/**
 * The icon picks the most urgent thing: a trade waiting on the trader (money
 * at stake, and the partner waits), then a lapsed or blocked heartbeat
 * (listings no longer shown as automated), then the heartbeat's own state.
 */
export function trayIcon(state: ShellState): TrayIconName {
  if (state.tradesNeedingAction > 0) return 'attention';
  if (state.blocked) return 'lapsed';
  if (state.automationPaused) return 'off';
  return state.heartbeat;
}

export function trayTooltip(state: ShellState): string {
  const lines = [
    state.sandbox ? `${APP_DISPLAY_NAME} (sandbox)` : APP_DISPLAY_NAME,
    automationLine(state),
    state.tradesNeedingAction > 0 ? tradesLine(state.tradesNeedingAction) : null,
    jobProgressLine(state.job),
  ].filter((line): line is string => line !== null);
  // Whole lines only: a line cut in half says something else.
  let text = '';
  for (const line of lines) {
    const next = text === '' ? line : `${text}\n${line}`;
    if (next.length > TOOLTIP_MAX) break;
    text = next;
  }
  return text;
}

function automationLine(state: ShellState): string {
  if (state.blocked === 'no_key') return 'No API key set: add one in the app';
  if (state.blocked === 'auth') return 'API key refused: replace it to resume';
  if (state.blocked === 'forbidden') return 'Account not allowed to automate: see the app';
  if (state.automationPaused) return 'Automation paused';
  switch (state.heartbeat) {
    case 'active':
      return 'Listings marked as automated';
    case 'expiring':
      return 'Automated mark expiring soon: retrying';
    case 'lapsed':
      return 'Automated mark lapsed: listings not shown as automated';
    case 'off':
      return 'Automation off';
  }
}

function tradesLine(n: number): string {
  return n === 1 ? '1 trade needs action' : `${n} trades need action`;
}

export function trayMenu(state: ShellState): TrayMenuItem[] {
  const job = jobProgressLine(state.job);
  return [
    { id: 'open', label: `Open ${APP_DISPLAY_NAME}`, enabled: true },
    {
      id: 'toggle-automation',
      label: state.automationPaused ? 'Resume automation' : 'Pause automation',
      // Nothing to resume into while the key is refused.
      enabled: !state.blocked,
      separatorBefore: true,
    },
    { id: 'check-trades', label: 'Check trades now', enabled: !state.blocked },
    ...(job === null ? [] : [{ id: 'job' as const, label: job, enabled: true }]),
    ...(state.update ? [updateItem(state.update)] : []),
    { id: 'quit', label: `Quit ${APP_DISPLAY_NAME}`, enabled: true, separatorBefore: true },
  ];
}

/** The trader restarts when it suits; during an apply the restart waits for it to end. */
function updateItem(update: NonNullable<ShellState['update']>): TrayMenuItem {
  return update.restartPending
    ? { id: 'update', label: `Update ${update.version}: restarts when the apply ends`, enabled: false, separatorBefore: true }
    : { id: 'update', label: 'Update ready — restart', enabled: true, separatorBefore: true };
}

export function trayPresentation(state: ShellState): TrayPresentation {
  return { icon: trayIcon(state), tooltip: trayTooltip(state), menu: trayMenu(state) };
}
