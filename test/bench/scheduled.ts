import type { EndpointName } from '../../src-main/core/api/endpoints.ts';
import { createHeartbeat } from '../../src-main/core/heartbeat/heartbeat.ts';
import { estimateDurationMs } from '../../src-main/core/scheduler/estimate.ts';
import { createMemorySeenTradesStore } from '../../src-main/core/trades/seen-trades.ts';
import { createTradeWatcher } from '../../src-main/core/trades/trade-watcher.ts';
import { worstWindows, type Live } from '../core/scheduler/support/live.ts';
import { packDraft, requestCounts, startPrepared, type Draft, type Scenario, type WallStep } from './scenarios.ts';

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
  /** Times the service's own record of the automated mark showed an account unmarked after the first beat. */
  markLapses: number;
  /** The desk's wall-clock steps during the run, in words; null when the clock was left alone. */
  wallSteps: string | null;
  /** Most requests in any 60-s window over the limit of that scope (≤ 1 means within). */
  worstWindowUse: number;
  tradePolls: number;
}

/**
 * Seeds a scenario, then returns its run, done the way the app would do it:
 * the draft packed into ≤100-item batches, one job through the scheduler, the
 * heartbeat and the trade watcher running beside it, everything over HTTP
 * against the sandbox on one scaled clock. Every duration is measured on the
 * desk's monotonic clock, so a scenario that steps the desk's wall clock is
 * measured as truly as one that does not. A run still going `giveUpAfterMs`
 * (simulated) after it started is cancelled and reported as it stands.
 */
export async function prepareScheduled(scenario: Scenario, scale: number, options: { giveUpAfterMs?: number } = {}): Promise<() => Promise<ScheduledFigures>> {
  const sent: { endpoint: EndpointName; at: number }[] = [];
  const { live, drafts } = await startPrepared(scenario, scale, { onSend: (endpoint, at) => sent.push({ endpoint, at }) });
  return () => runPrepared(live, drafts, sent, scenario.wallSteps ?? [], options.giveUpAfterMs ?? Infinity);
}

const stepWords = (steps: readonly WallStep[]) =>
  steps.length === 0 ? null : steps.map((s) => `${s.stepMs < 0 ? '−' : '+'}${Math.abs(s.stepMs) / 3_600_000} h at ${s.afterMs / 60_000} min`).join(', ');

async function runPrepared(
  live: Live,
  drafts: readonly Draft[],
  sent: { endpoint: EndpointName; at: number }[],
  wallSteps: readonly WallStep[],
  giveUpAfterMs: number,
): Promise<ScheduledFigures> {
  const { sandbox, scheduler, clock, serviceClock } = live;
  const stop = new AbortController();
  try {
    const tasks = packDraft(drafts);
    const linked = [...sandbox.accounts.linked];
    const heartbeat = createHeartbeat({ scheduler, clock, linkedAccounts: () => linked });
    // Planned beats on the desk's monotonic clock (the state shows them on its wall clock, which may step).
    const planned: number[] = [];
    heartbeat.on('state', (s) => {
      const at = s.nextBeatAt === null ? null : s.nextBeatAt - clock.now() + clock.monotonic();
      if (at !== null && Math.abs((planned.at(-1) ?? -Infinity) - at) > 1) planned.push(at);
    });
    const watcher = createTradeWatcher({ scheduler, clock, seen: createMemorySeenTradesStore() });
    sandbox.log.reset();
    sent.length = 0;
    // The service's time (its log's) is the desk's monotonic time plus this.
    const serviceAhead = serviceClock.now() - clock.monotonic();
    planned.push(clock.monotonic());
    heartbeat.start();
    watcher.start();
    // The service's own record of the mark, sampled: each time an account is seen unmarked after being marked is a lapse.
    let markLapses = 0;
    const marked = new Map<string, boolean>();
    const sampler = setInterval(() => {
      if (heartbeat.state.lastBeatAt === null) return;
      for (const account of [sandbox.accounts.main, ...linked]) {
        const now = sandbox.admin.userAgent(account).automated;
        if (marked.get(account) === true && !now) markLapses += 1;
        marked.set(account, now);
      }
    }, 20);

    const t0 = clock.monotonic();
    const job = scheduler.startJob(tasks);
    for (const step of wallSteps) void serviceClock.sleep(step.afterMs, stop.signal).then(() => clock.stepWall(step.stepMs), () => undefined);
    if (Number.isFinite(giveUpAfterMs)) void serviceClock.sleep(giveUpAfterMs, stop.signal).then(() => job.cancel(), () => undefined);
    const final = await job.done;
    const timeTakenMs = clock.monotonic() - t0;
    stop.abort();
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
      heartbeatArrivalLateMs: lateness(beatsArrived.map((r) => r.at - serviceAhead)),
      beats: beatsArrived.length,
      heartbeatMinMarkLeftMs: Number.isFinite(minMarkLeft) ? minMarkLeft : 600_000,
      heartbeatLapsed: markLapses > 0 || beatsArrived.some((r) => r.status !== 200),
      markLapses,
      wallSteps: stepWords(wallSteps),
      worstWindowUse: Math.max(...worstWindows(sandbox).map((w) => w.worst / w.limit)),
      tradePolls: sandbox.log.requests.filter((r) => r.endpoint === 'load_pending').length,
    };
  } finally {
    stop.abort();
    await live.close();
  }
}
