import { join } from 'node:path';
import { navigationHash } from '../../../src-shared/navigation.ts';
import type { UpdateView } from '../../../src-shared/updates.ts';
import type { AppPaths } from '../../core/shell/app-paths.ts';
import type { EmitEvent } from '../../ipc/router.ts';
import type { MainDesk } from '../desk-connection.ts';
import type { AppWindow } from './app-window.ts';
import { createNotifier } from './notifier.ts';
import { createTaskbarIndicator } from './taskbar.ts';
import { createTray } from './tray.ts';

/**
 * The tray, the taskbar and the notifications (trades, the desk's own), following the desk's
 * state as main holds it (the view the worker pushes) and the update's.
 */
export interface DeskIndicatorsDeps {
  readonly desk: MainDesk;
  readonly win: AppWindow;
  readonly paths: Pick<AppPaths, 'trayIconDir' | 'appIcon'>;
  /** Shows the window. */
  readonly reveal: () => void;
  /** Pushes an event to the window (a notification click asks it to show a trade). */
  readonly emit: EmitEvent;
  readonly quit: () => void;
  /** The update as it stands, and a restart into it. */
  readonly updates: () => { view(): UpdateView; restartToUpdate(): unknown };
}

export interface DeskIndicators {
  /** Draws the tray and the taskbar again (the window opened, the update moved on). */
  refresh(): void;
  destroy(): void;
}

export function showDeskIndicators(deps: DeskIndicatorsDeps): DeskIndicators {
  const { desk, win, paths, reveal } = deps;
  const tray = createTray({
    iconDir: paths.trayIconDir,
    initial: desk.view().tray,
    onOpen: reveal,
    onToggleAutomation: () => void desk.updateSettings({ heartbeatEnabled: !desk.view().settings.heartbeatEnabled }).catch(() => undefined),
    onCheckTrades: () => void desk.checkTradesNow().catch(() => undefined),
    onQuit: deps.quit,
    onRestartToUpdate: () => void deps.updates().restartToUpdate(),
  });
  const taskbar = createTaskbarIndicator({
    window: () => win.current(),
    attentionIconPath: join(paths.trayIconDir, 'attention.png'),
  });
  const open = (target: { view: string; tradeId?: string }) => {
    // An open page is told where to go; a new one starts there.
    if (win.current()) {
      reveal();
      deps.emit('app:navigate', target);
    } else void win.reveal(navigationHash(target)).catch(() => undefined);
  };
  const notifier = createNotifier({
    iconPath: paths.appIcon,
    muted: () => !desk.view().settings.notificationsEnabled,
    onOpen: (trade) => open({ view: 'trades', ...(trade ? { tradeId: trade.trade_id } : {}) }),
    onOpenView: (view) => open({ view }),
  });
  const refresh = () => {
    const update = deps.updates().view();
    const state = { ...desk.view().tray, update: update.state === 'ready' && update.version ? { version: update.version, restartPending: update.restartPending } : null };
    tray.update(state);
    taskbar.update(state);
  };
  desk.on('view', refresh);
  desk.on('needsAction', (list) => notifier.notify(list));
  desk.on('pending', (list) => notifier.retainOnly(list));
  desk.on('notice', (notice) => notifier.notice(notice));
  return { refresh, destroy: () => tray.destroy() };
}
