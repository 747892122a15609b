import type { EndpointName } from '../../src-main/core/api/endpoints.ts';
import { createHeartbeat } from '../../src-main/core/heartbeat/heartbeat.ts';
import { estimateDurationMs } from '../../src-main/core/scheduler/estimate.ts';
import { createMemorySeenTradesStore } from '../../src-main/core/trades/seen-trades.ts';
import { createTradeWatcher } from '../../src-main/core/trades/trade-watcher.ts';
import { worstWindows, type Live } from '../core/scheduler/support/live.ts';
import { packDraft, requestCounts, startPrepared, type Draft, type Scenario } from './scenarios.ts';

/** What one scenario run through the scheduler measured (times in simulated ms). */
export interface ScheduledFigures {
  items: number;
  requests: number;
  timeTakenMs: number;
  lowerBoundMs: number;
  ratio: number;
  count429: number;
  itemsDone: number;
  itemsFailed: number;
  itemsUnknown: number;
  /** Worst delay from a planned beat to the scheduler sending it. */
  heartbeatLateMs: number;
  /** Worst delay from a planned beat to the service receiving it (adds the HTTP round trip). */
  heartbeatArrivalLateMs: number;
  beats: number;
  /** Least time left on the automated mark when a beat arrived. */
  heartbeatMinMarkLeftMs: number;
  heartbeatLapsed: boolean;
  /** Most requests in any 60-s window over the limit of that scope (≤ 1 means within). */
  worstWindowUse: number;
  tradePolls: number;
}

/**
 * Seeds a scenario, then returns its run, done the way the app would do it:
 * the draft packed into ≤100-item batches, one job through the scheduler, the
 * heartbeat and the trade watcher running beside it, everything over HTTP
 * against the sandbox on one scaled clock.
 */
export async function prepareScheduled(scenario: Scenario, scale: number): Promise<() => Promise<ScheduledFigures>> {
  const sent: { endpoint: EndpointName; at: number }[] = [];
  const { live, drafts } = await startPrepared(scenario, scale, { onSend: (endpoint, at) => sent.push({ endpoint, at }) });
  return () => runPrepared(live, drafts, sent);
}

async function runPrepared(live: Live, drafts: readonly Draft[], sent: { endpoint: EndpointName; at: number }[]): Promise<ScheduledFigures> {
  const { sandbox, scheduler, clock } = live;
  try {
    const tasks = packDraft(drafts);
    const linked = [...sandbox.accounts.linked];
    const heartbeat = createHeartbeat({ scheduler, clock, linkedAccounts: () => linked });
    const planned: number[] = [];
    heartbeat.on('state', (s) => {
      if (s.nextBeatAt !== null && planned.at(-1) !== s.nextBeatAt) planned.push(s.nextBeatAt);
    });
    const watcher = createTradeWatcher({ scheduler, clock, seen: createMemorySeenTradesStore() });
    sandbox.log.reset();
    sent.length = 0;
    planned.push(clock.now());
    heartbeat.start();
    watcher.start();
    let lapsed = false;
    const sampler = setInterval(() => {
      for (const account of [sandbox.accounts.main, ...linked]) {
        if (heartbeat.state.lastBeatAt !== null && !sandbox.admin.userAgent(account).automated) lapsed = true;
      }
    }, 20);

    const t0 = clock.now();
    const final = await scheduler.startJob(tasks).done;
    const timeTakenMs = clock.now() - t0;
    clearInterval(sampler);
    heartbeat.stop();
    watcher.stop();

    const beatsSent = sent.filter((s) => s.endpoint === 'set_user_agent').map((s) => s.at);
    const beatsArrived = sandbox.log.requests.filter((r) => r.endpoint === 'set_user_agent');
    const lateness = (times: readonly number[]) => Math.max(0, ...times.map((at, i) => at - (planned[i] ?? at)));
    let minMarkLeft = Infinity;
    for (let i = 1; i < beatsArrived.length; i++) {
      minMarkLeft = Math.min(minMarkLeft, (beatsArrived[i - 1]?.at ?? 0) + 600_000 - (beatsArrived[i]?.at ?? 0));
    }
    const lowerBoundMs = estimateDurationMs(requestCounts(tasks));
    return {
      items: drafts.length,
      requests: tasks.length,
      timeTakenMs,
      lowerBoundMs,
      ratio: timeTakenMs / lowerBoundMs,
      count429: sandbox.log.counters.count429,
      itemsDone: final.itemsDone,
      itemsFailed: final.itemsFailed,
      itemsUnknown: final.itemsUnknown,
      heartbeatLateMs: lateness(beatsSent),
      heartbeatArrivalLateMs: lateness(beatsArrived.map((r) => r.at)),
      beats: beatsArrived.length,
      heartbeatMinMarkLeftMs: Number.isFinite(minMarkLeft) ? minMarkLeft : 600_000,
      heartbeatLapsed: lapsed || beatsArrived.some((r) => r.status !== 200),
      worstWindowUse: Math.max(...worstWindows(sandbox).map((w) => w.worst / w.limit)),
      tradePolls: sandbox.log.requests.filter((r) => r.endpoint === 'load_pending').length,
    };
  } finally {
    await live.close();
  }
}
