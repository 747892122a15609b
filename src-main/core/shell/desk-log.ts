import type { Desk } from '../desk/desk.ts';
import type { Workspace } from '../desk/workspace.ts';
import type { Unsubscribe } from '../events.ts';
import type { AppLog } from './app-log.ts';

/**
 * What the log records of the desk's own life, for a bug report: a change of
 * workspace, of the heartbeat's status, of the scheduler's block, which
 * settings changed (names only), trades needing action (counts and IDs),
 * and each apply's start and end. State changes only, not every tick: a
 * day in the tray stays a few hundred lines.
 */
export function logDeskEvents(desk: Desk, log: Pick<AppLog, 'debug' | 'info' | 'warn' | 'error'>): Unsubscribe {
  let workspaceSubs: Unsubscribe[] = [];
  const follow = (ws: Workspace) => {
    for (const off of workspaceSubs) off();
    log.info('workspace open', { mode: ws.mode, service: ws.baseUrl });
    let heartbeat = ws.heartbeat.state.status;
    let blocked = ws.scheduler.state.blocked;
    const jobs = new Map<string, string>();
    workspaceSubs = [
      ws.heartbeat.on('state', (s) => {
        if (s.status !== heartbeat) log.info('heartbeat', { status: s.status, refreshAt: s.refreshAt, error: s.lastError });
        else if (s.lastError) log.debug('heartbeat error', { error: s.lastError });
        heartbeat = s.status;
      }),
      ws.scheduler.on('state', (s) => {
        if (s.blocked !== blocked) log.warn('scheduler', { blocked: s.blocked, error: s.blockedError });
        blocked = s.blocked;
      }),
      ws.trades.on('needsAction', (list) => log.info('trades need action', { count: list.length, trades: list.map((t) => `${t.trade_type}:${t.trade_id}:${t.status}`) })),
      ws.trades.on('error', (error) => log.debug('trade check failed', { error })),
      ws.apply.on('progress', (p) => {
        if (jobs.get(p.jobId) === p.state) return;
        jobs.set(p.jobId, p.state);
        const level = p.state === 'stopped' ? 'warn' : 'info';
        log[level]('apply', { draftId: p.draftId, runId: p.runId, state: p.state, total: p.itemsTotal, done: p.itemsDone, failed: p.itemsFailed, unknown: p.itemsUnknown, stopReason: p.stopReason });
      }),
    ];
  };
  follow(desk.workspace());
  const deskSubs = [
    desk.events.on('workspace', follow),
    desk.events.on('status', (s) => log.info('status', { mode: s.mode, online: s.online })),
    desk.settings.on('changed', (next, previous) => {
      const changed = (Object.keys(next) as (keyof typeof next)[]).filter((k) => next[k] !== previous[k]);
      if (changed.length > 0) log.info('settings changed', { fields: changed });
    }),
    desk.keys.on('status', (k) => log.info('key', { set: k.set, state: k.state, keychainAvailable: k.keychainAvailable })),
  ];
  return () => {
    for (const off of [...workspaceSubs, ...deskSubs]) off();
  };
}
