import type { DeskServices } from '../core/desk/desk-services.ts';
import { createEmitter, type Unsubscribe } from '../core/events.ts';
import type { SettingsPatch } from '../core/settings/settings.ts';
import type { TradeForNotice, TradeRef } from '../core/shell/notification-groups.ts';
import { repriceNotice, type DeskNotice } from '../core/shell/reprice-notice.ts';
import { applyJobView, heartbeatView, schedulerView } from '../ipc/views.ts';
import { shellStateOf } from '../ipc/shell-state.ts';
import type { DeskDiagnostics, DeskShellView } from '../core/data/desk-methods.ts';

/**
 * What the desktop shell (tray, taskbar, notifications, power events, logs,
 * updates, quit) needs of the desk, in the shape that crosses from the data
 * worker to the main thread: a view pushed on every change, so the tray is
 * drawn from what main already holds, and a few commands. Built in the
 * worker over the real desk; `../main-thread/desk-connection.ts` is its main-thread side.
 */
export type DeskShellEvents = {
  /** The view changed (sent only when it did). */
  view: DeskShellView;
  /** Trades needing action, as the watcher found them: the notifier announces the new ones. */
  needsAction: readonly TradeForNotice[];
  /** Every pending trade: announcements of the others are forgotten. */
  pending: readonly TradeRef[];
  /** A notification of the desk's own (a scheduled reprice left marked changes waiting). */
  notice: DeskNotice;
  /** The stored key, so main's log can scrub it (null when none is set). */
  key: string | null;
};

export interface DeskShell {
  view(): DeskShellView;
  updateSettings(patch: SettingsPatch): Promise<void>;
  checkTradesNow(): Promise<void>;
  beatNow(): Promise<void>;
  setOnline(online: boolean): void;
  diagnostics(): Promise<DeskDiagnostics>;
  /** For quitting: nothing more is sent; batches on their way get their outcome journaled. */
  suspendApplies(): Promise<void>;
  on<E extends keyof DeskShellEvents>(event: E, listener: (payload: DeskShellEvents[E]) => void): Unsubscribe;
  dispose(): void;
}

/** What the shell's view and commands use of the desk. */
export type ShellServices = Pick<DeskServices,
  'settings' | 'keys' | 'status' | 'updateSettings' | 'setOnline' | 'onWorkspace' | 'mode' | 'heartbeat' | 'scheduler' | 'trades' | 'apply' | 'applyJob' | 'pricing'>;

const viewOf = (desk: ShellServices): DeskShellView => {
  const s = desk.settings.get();
  return {
    tray: shellStateOf(desk),
    settings: { serviceUrl: s.serviceUrl, notificationsEnabled: s.notificationsEnabled, autoUpdate: s.autoUpdate, heartbeatEnabled: s.heartbeatEnabled, startAtLogin: s.startAtLogin },
    appliesRunning: desk.apply().handles().length,
  };
};

export function createDeskShell(desk: ShellServices): DeskShell {
  const emitter = createEmitter<DeskShellEvents>();
  let last = viewOf(desk);
  let lastJson = JSON.stringify(last);
  const refresh = () => {
    const next = viewOf(desk);
    const json = JSON.stringify(next);
    if (json === lastJson) return;
    last = next;
    lastJson = json;
    emitter.emit('view', next);
  };
  const learnKey = () => void desk.keys.read().then((key) => emitter.emit('key', key), () => undefined);

  let workspaceSubs: Unsubscribe[] = [];
  const follow = () => {
    for (const off of workspaceSubs) off();
    const trades = desk.trades();
    workspaceSubs = [
      desk.heartbeat().on('state', refresh),
      desk.scheduler().on('state', refresh),
      trades.on('trades', (list) => {
        refresh();
        emitter.emit('pending', list.map((t) => ({ trade_type: t.trade_type, trade_id: t.trade_id })));
      }),
      trades.on('needsAction', (list) => emitter.emit('needsAction', list)),
      desk.applyJob().on('changed', refresh),
      desk.pricing().schedule.on('repriced', (news) => {
        const notice = repriceNotice(news);
        if (notice) emitter.emit('notice', notice);
      }),
    ];
    refresh();
  };
  follow();
  const deskSubs = [
    desk.onWorkspace(follow),
    desk.settings.on('changed', refresh),
    desk.keys.on('status', () => {
      refresh();
      learnKey();
    }),
  ];
  learnKey();

  return {
    view: () => last,
    async updateSettings(patch) {
      await desk.updateSettings(patch);
    },
    checkTradesNow: () => desk.trades().checkNow().then(() => undefined),
    beatNow: () => desk.heartbeat().beatNow().then(() => undefined),
    setOnline: (online) => desk.setOnline(online),
    async diagnostics() {
      const apply = desk.apply();
      const key = await desk.keys.status();
      return {
        settings: { ...desk.settings.get() },
        key: { set: key.set, state: key.state, keychainAvailable: key.keychainAvailable },
        status: { ...desk.status() },
        rateBudget: schedulerView(0, desk.scheduler()),
        heartbeat: heartbeatView(0, desk.heartbeat().state),
        applies: apply.handles().map((h) => applyJobView(h.progress())),
        unknownOutcomes: apply.unknownOutcomes().length,
      };
    },
    suspendApplies: () => desk.apply().suspend(),
    on: (event, listener) => emitter.on(event, listener),
    dispose() {
      for (const off of [...workspaceSubs, ...deskSubs]) off();
    },
  };
}
