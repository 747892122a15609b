import type { Desk } from '../core/desk/desk.ts';
import type { Workspace } from '../core/desk/workspace.ts';
import { createEmitter, type Unsubscribe } from '../core/events.ts';
import type { SettingsPatch } from '../core/settings/settings.ts';
import type { TradeForNotice, TradeRef } from '../core/shell/notification-groups.ts';
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

const viewOf = (desk: Desk): DeskShellView => {
  const s = desk.settings.get();
  return {
    tray: shellStateOf(desk),
    settings: { serviceUrl: s.serviceUrl, notificationsEnabled: s.notificationsEnabled, autoUpdate: s.autoUpdate, heartbeatEnabled: s.heartbeatEnabled, startAtLogin: s.startAtLogin },
    appliesRunning: desk.workspace().apply.handles().length,
  };
};

export function createDeskShell(desk: Desk): DeskShell {
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
  const follow = (ws: Workspace) => {
    for (const off of workspaceSubs) off();
    workspaceSubs = [
      ws.heartbeat.on('state', refresh),
      ws.scheduler.on('state', refresh),
      ws.trades.on('trades', (list) => {
        refresh();
        emitter.emit('pending', list.map((t) => ({ trade_type: t.trade_type, trade_id: t.trade_id })));
      }),
      ws.trades.on('needsAction', (list) => emitter.emit('needsAction', list)),
      ws.applyJob.on('changed', refresh),
    ];
    refresh();
  };
  follow(desk.workspace());
  const deskSubs = [
    desk.events.on('workspace', follow),
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
    checkTradesNow: () => desk.workspace().trades.checkNow().then(() => undefined),
    beatNow: () => desk.workspace().heartbeat.beatNow().then(() => undefined),
    setOnline: (online) => desk.setOnline(online),
    async diagnostics() {
      const ws = desk.workspace();
      const key = await desk.keys.status();
      return {
        settings: { ...desk.settings.get() },
        key: { set: key.set, state: key.state, keychainAvailable: key.keychainAvailable },
        status: { ...desk.status() },
        rateBudget: schedulerView(0, ws.scheduler),
        heartbeat: heartbeatView(0, ws.heartbeat.state),
        applies: ws.apply.handles().map((h) => applyJobView(h.progress())),
        unknownOutcomes: ws.apply.unknownOutcomes().length,
      };
    },
    suspendApplies: () => desk.workspace().apply.suspend(),
    on: (event, listener) => emitter.on(event, listener),
    dispose() {
      for (const off of [...workspaceSubs, ...deskSubs]) off();
    },
  };
}
