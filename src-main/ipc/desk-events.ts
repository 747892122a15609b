import type { Desk } from '../core/desk/desk.ts';
import type { Workspace } from '../core/desk/workspace.ts';
import type { Unsubscribe } from '../core/events.ts';
import type { EmitEvent } from './router.ts';
import { accountsView, appStatusView, heartbeatView, schedulerView } from './views.ts';

/**
 * Forwards the desk's events to the bridge. A mode switch replaces the
 * workspace, so its subscriptions are renewed and every view is pushed again
 * at once: the renderer never shows the previous workspace's state.
 */
export function connectDeskEvents(desk: Desk, emit: EmitEvent, extra: (ws: Workspace) => Unsubscribe[] = () => []): Unsubscribe {
  let workspaceSubs: Unsubscribe[] = [];

  const follow = (ws: Workspace) => {
    for (const off of workspaceSubs) off();
    workspaceSubs = [
      ws.heartbeat.on('state', (s) => emit('heartbeat:state', heartbeatView(s))),
      ws.scheduler.on('state', () => emit('scheduler:state', schedulerView(ws.scheduler))),
      ws.trades.on('trades', (list) => emit('trades:changed', [...list])),
      ws.trades.on('balance', (b) => emit('balance:changed', b)),
      ws.accounts.on('changed', (s) => emit('accounts:changed', accountsView(s))),
      ...extra(ws),
    ];
  };

  const pushAll = (ws: Workspace) => {
    emit('heartbeat:state', heartbeatView(ws.heartbeat.state));
    emit('scheduler:state', schedulerView(ws.scheduler));
    emit('trades:changed', [...ws.trades.trades()]);
    emit('accounts:changed', accountsView(ws.accounts.snapshot()));
    emit('ledger:changed', { listings: true, buyOrders: true });
  };

  follow(desk.workspace());
  const deskSubs = [
    desk.events.on('workspace', (ws) => {
      follow(ws);
      pushAll(ws);
    }),
    desk.events.on('status', (s) => emit('app:status', appStatusView(s))),
    desk.keys.on('status', (k) => emit('key:status', k)),
    desk.settings.on('changed', (s) => emit('settings:changed', s)),
  ];

  return () => {
    for (const off of [...workspaceSubs, ...deskSubs]) off();
  };
}
