import type { DeskServices } from '../desk/desk-services.ts';
import type { Unsubscribe } from '../events.ts';
import type { AppLog } from './app-log.ts';

/** What the log follows of the desk. */
export type LoggedServices = Pick<DeskServices,
  'onWorkspace' | 'onStatus' | 'settings' | 'keys' | 'alerts' | 'mode' | 'baseUrl' | 'heartbeat' | 'scheduler' | 'trades' | 'apply'>;

/**
 * What the log records of the desk's own life, for a bug report: a change of
 * workspace, of the heartbeat's status, of the scheduler's block, which
 * settings changed (names only), trades needing action (counts and IDs),
 * each apply's start and end, and what became of each alert (the webhook's
 * address masked: its token never reaches a log). State changes only, not every tick: a
 * day in the tray stays a few hundred lines.
 */
export function logDeskEvents(desk: LoggedServices, log: Pick<AppLog, 'debug' | 'info' | 'warn' | 'error'>): Unsubscribe {
  let workspaceSubs: Unsubscribe[] = [];
  const follow = () => {
    for (const off of workspaceSubs) off();
    log.info('workspace open', { mode: desk.mode(), service: desk.baseUrl() });
    const scheduler = desk.scheduler();
    const trades = desk.trades();
    let heartbeat = desk.heartbeat().state.status;
    let blocked = scheduler.state.blocked;
    const jobs = new Map<string, string>();
    workspaceSubs = [
      desk.heartbeat().on('state', (s) => {
        if (s.status !== heartbeat) log.info('heartbeat', { status: s.status, refreshAt: s.refreshAt, error: s.lastError });
        else if (s.lastError) log.debug('heartbeat error', { error: s.lastError });
        heartbeat = s.status;
      }),
      scheduler.on('state', (s) => {
        if (s.blocked !== blocked) log.warn('scheduler', { blocked: s.blocked, error: s.blockedError });
        blocked = s.blocked;
      }),
      trades.on('needsAction', (list) => log.info('trades need action', { count: list.length, trades: list.map((t) => `${t.trade_type}:${t.trade_id}:${t.status}`) })),
      trades.on('error', (error) => log.debug('trade check failed', { error })),
      desk.apply().on('progress', (p) => {
        if (jobs.get(p.jobId) === p.state) return;
        jobs.set(p.jobId, p.state);
        const level = p.state === 'stopped' ? 'warn' : 'info';
        log[level]('apply', { draftId: p.draftId, runId: p.runId, state: p.state, total: p.itemsTotal, done: p.itemsDone, failed: p.itemsFailed, unknown: p.itemsUnknown, stopReason: p.stopReason });
      }),
    ];
  };
  follow();
  const deskSubs = [
    desk.onWorkspace(follow),
    desk.onStatus((s) => log.info('status', { mode: s.mode, online: s.online })),
    desk.settings.on('changed', (next, previous) => {
      const changed = (Object.keys(next) as (keyof typeof next)[]).filter((k) => next[k] !== previous[k]);
      if (changed.length > 0) log.info('settings changed', { fields: changed });
    }),
    desk.keys.on('status', (k) => log.info('key', { set: k.set, state: k.state, keychainAvailable: k.keychainAvailable })),
    desk.alerts.on('news', ({ what, ...fields }) => {
      if (what === 'delivered') log.info('alert delivered', fields);
      else if (what === 'retrying') log.info('alert to be tried again', fields);
      else log.warn('alert not delivered', { ...fields, dropped: what === 'dropped' });
    }),
  ];
  return () => {
    for (const off of [...workspaceSubs, ...deskSubs]) off();
  };
}
