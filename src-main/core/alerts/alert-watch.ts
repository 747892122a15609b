import type { ApplyProgress } from '../apply/apply-run.ts';
import type { Clock } from '../clock.ts';
import type { Unsubscribe } from '../events.ts';
import type { Heartbeat, HeartbeatState } from '../heartbeat/index.ts';
import type { RepricedNews } from '../pricing/reprice-schedule.ts';
import { TOLD_TOGETHER_ABOVE } from '../trades/action-words.ts';
import type { TradeWatcher, WatchedTrade } from '../trades/trade-watcher.ts';
import { tradeAlert, type Alert } from './alert.ts';

/**
 * What of a workspace's life becomes an alert: trades that newly need
 * action (the watcher tells each trade and status once, across restarts;
 * many at once are one alert, as the desktop notifications fold them),
 * automation that lapsed after it held (and its return), an apply that
 * ended, and a scheduled reprice that left marked changes waiting. Only listens: nothing here waits on a receiver.
 */
export interface WatchedWorkspace {
  readonly trades: Pick<TradeWatcher, 'on'>;
  readonly heartbeat: Pick<Heartbeat, 'on' | 'state'>;
  /** The applies' progress (ApplyService's `progress` event). */
  readonly apply: { on(event: 'progress', listener: (progress: ApplyProgress) => void): Unsubscribe };
  /** The name of a draft, for an apply's alert; null when it is gone. */
  draftName(draftId: string): string | null;
  /** Scheduled reprices (RepriceSchedule's `repriced` event): marked changes left waiting are told. */
  readonly reprices?: { on(event: 'repriced', listener: (news: RepricedNews) => void): Unsubscribe };
}

export function watchForAlerts(ws: WatchedWorkspace, clock: Clock, raise: (alert: Alert) => void): Unsubscribe {
  const offs = [
    ws.trades.on('needsAction', (trades) => {
      for (const alert of tradeAlerts(trades)) raise(alert);
    }),
    watchAutomation(ws.heartbeat, clock, raise),
    watchApplies(ws, raise),
    ws.reprices?.on('repriced', (news) => {
      const alert = repriceAlert(news);
      if (alert) raise(alert);
    }) ?? (() => undefined),
  ];
  return () => {
    for (const off of offs) off();
  };
}

/** One alert per trade; more than TOLD_TOGETHER_ABOVE at once, one for them all. */
export function tradeAlerts(trades: readonly WatchedTrade[]): Alert[] {
  const all = trades.map(tradeAlert);
  if (all.length === 0) return [];
  return all.length > TOLD_TOGETHER_ABOVE ? [{ type: 'trade.needs_action', trades: all }] : all.map((t) => ({ type: 'trade.needs_action', trades: [t] }));
}

/**
 * Lapsed: the mark held (active or expiring) and ran out. A desk that starts
 * without the mark, or a heartbeat the trader switched off, is no news;
 * restored follows only a lapse that was told.
 */
function watchAutomation(heartbeat: WatchedWorkspace['heartbeat'], clock: Clock, raise: (alert: Alert) => void): Unsubscribe {
  let held = isHeld(heartbeat.state);
  let lapsedAt: number | null = null;
  return heartbeat.on('state', (state) => {
    if (isHeld(state)) {
      if (lapsedAt !== null) raise({ type: 'automation.restored', lapsedForMs: clock.monotonic() - lapsedAt });
      lapsedAt = null;
      held = true;
    } else if (state.status === 'lapsed' && held) {
      held = false;
      lapsedAt = clock.monotonic();
      raise({ type: 'automation.lapsed', lastBeatAt: state.lastBeatAt, why: state.lastError?.message ?? null });
    } else if (state.status === 'off') {
      held = false;
      lapsedAt = null;
    }
  });
}

/** A scheduled reprice that left changes marked by the price guard waiting: one alert; none when nothing waits. */
export function repriceAlert(news: RepricedNews): Alert | null {
  if (news.waiting === 0 || news.waitingDraftId === null) return null;
  return { type: 'reprice.waiting', waiting: news.waiting, why: news.waitingWhy, draftId: news.waitingDraftId, draftName: news.waitingDraftName, applied: news.applied };
}

const isHeld = (state: HeartbeatState) => state.status === 'active' || state.status === 'expiring';

const ENDED = ['done', 'cancelled', 'stopped'] as const;

/** Each apply job once, when it ends: done, cancelled or stopped, with its unknown outcomes counted. */
function watchApplies(ws: Pick<WatchedWorkspace, 'apply' | 'draftName'>, raise: (alert: Alert) => void): Unsubscribe {
  const told = new Set<string>();
  return ws.apply.on('progress', (p) => {
    const ended = ENDED.find((state) => state === p.state);
    if (ended === undefined || told.has(p.jobId)) return;
    told.add(p.jobId);
    raise({
      type: 'apply.ended',
      draftName: ws.draftName(p.draftId),
      state: ended,
      total: p.itemsTotal,
      done: p.itemsDone,
      failed: p.itemsFailed,
      unknown: p.itemsUnknown,
      stopReason: p.stopReason?.message ?? null,
    });
  });
}
