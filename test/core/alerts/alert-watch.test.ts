import { describe, expect, it } from 'vitest';
import type { Alert } from '../../../src-main/core/alerts/alert.ts';
import { watchForAlerts, type WatchedWorkspace } from '../../../src-main/core/alerts/alert-watch.ts';
import type { ApplyProgress } from '../../../src-main/core/apply/apply-run.ts';
import { createEmitter } from '../../../src-main/core/events.ts';
import type { HeartbeatState } from '../../../src-main/core/heartbeat/index.ts';
import type { TradeWatcherEvents } from '../../../src-main/core/trades/trade-watcher.ts';
import { scaledClock } from '../../../src-main/core/clock.ts';
import { item, waitingTrade } from './alert-fixtures.ts';

/**
 * Which happenings of a workspace become alerts: trades newly needing
 * action; a lapse of automation only after the mark held (not at a start
 * without it, not when the trader switches the heartbeat off), and its
 * return only after a lapse was told; each apply once, when it ends.
 */

const state = (status: HeartbeatState['status'], over: Partial<HeartbeatState> = {}): HeartbeatState =>
  ({ status, refreshAt: null, lastBeatAt: null, nextBeatAt: null, accounts: [], lastError: null, clockOffsetMs: null, ...over });
const progress = (jobId: string, s: ApplyProgress['state'], over: Partial<ApplyProgress> = {}): ApplyProgress => ({
  jobId, draftId: 'd1', runId: 1, state: s, itemsTotal: 10, itemsDone: 8, itemsFailed: 1, itemsUnknown: 1, itemsLeft: 0, requestsSent: 3, etaMs: null, startedAt: 0, ...over,
});

function watched() {
  const trades = createEmitter<TradeWatcherEvents>();
  const beats = createEmitter<{ state: HeartbeatState }>();
  const applies = createEmitter<{ progress: ApplyProgress }>();
  const ws: WatchedWorkspace = {
    trades: { on: (e, l) => trades.on(e, l) },
    heartbeat: { on: (_e, l) => beats.on('state', l), state: state('lapsed') },
    apply: { on: (_e, l) => applies.on('progress', l) },
    draftName: () => 'Weekend sale',
  };
  const alerts: Alert[] = [];
  const off = watchForAlerts(ws, scaledClock(1), (a) => alerts.push(a));
  return { trades, beats, applies, alerts, off };
}

describe('what becomes an alert', () => {
  it('tells a lapse of automation only after the mark held, and its return only after a lapse', () => {
    const { beats, alerts } = watched();
    // A start without the mark, then the first beat: no news.
    beats.emit('state', state('lapsed'));
    beats.emit('state', state('active', { lastBeatAt: 1_000 }));
    expect(alerts).toEqual([]);
    beats.emit('state', state('expiring', { lastBeatAt: 1_000 }));
    beats.emit('state', state('lapsed', { lastBeatAt: 1_000, lastError: { kind: 'network', message: 'no answer within 30 s' } }));
    beats.emit('state', state('lapsed', { lastBeatAt: 1_000 }));
    expect(alerts).toEqual([{ type: 'automation.lapsed', lastBeatAt: 1_000, why: 'no answer within 30 s' }]);
    beats.emit('state', state('active', { lastBeatAt: 9_000 }));
    expect(alerts[1]).toMatchObject({ type: 'automation.restored' });
    // Switched off by the trader, then on again without the mark: no news.
    beats.emit('state', state('off'));
    beats.emit('state', state('lapsed'));
    expect(alerts).toHaveLength(2);
  });

  it('tells each apply once, when it ends, with its unknown outcomes counted', () => {
    const { applies, alerts } = watched();
    applies.emit('progress', progress('j1', 'running'));
    applies.emit('progress', progress('j1', 'done'));
    applies.emit('progress', progress('j1', 'done'));
    applies.emit('progress', progress('j2', 'stopped', { stopReason: { kind: 'auth', message: 'The key was rejected' } }));
    expect(alerts).toEqual([
      { type: 'apply.ended', draftName: 'Weekend sale', state: 'done', total: 10, done: 8, failed: 1, unknown: 1, stopReason: null },
      { type: 'apply.ended', draftName: 'Weekend sale', state: 'stopped', total: 10, done: 8, failed: 1, unknown: 1, stopReason: 'The key was rejected' },
    ]);
  });

  it('tells trades newly needing action, and nothing once unwatched', () => {
    const { trades, alerts, off } = watched();
    trades.emit('needsAction', [waitingTrade('1', [item('Key')])]);
    expect(alerts).toHaveLength(1);
    off();
    trades.emit('needsAction', [waitingTrade('2', [item('Key')])]);
    expect(alerts).toHaveLength(1);
  });
});
