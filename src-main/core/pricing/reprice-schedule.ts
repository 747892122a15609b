import type { ApplyService } from '../apply/apply-draft.ts';
import type { ApplyHandle } from '../apply/apply-run.ts';
import type { Clock } from '../clock.ts';
import { createEmitter, type Unsubscribe } from '../events.ts';
import type { ActivityRepo } from '../store/activity-repo.ts';
import type { PricingService } from './pricing-service.ts';
import type { RepriceResult } from './reprice-job.ts';

/**
 * Repricing on a schedule: every N hours (the trader's choice) the desk
 * reads its sources, reprices, and applies on its own the changes the price
 * guard does not mark; the marked ones wait in a draft of their own for the
 * trader, who is told (the activity log, a notification, a webhook where one
 * is set: `repriced` is the event they follow). The apply goes in the
 * scheduler's background lane, after the heartbeat, the trade reads and the
 * trader's own applies; it waits while the trader applies a draft, and rows
 * any other draft holds a change of are left out when it is built. It is
 * an apply like any other: in the activity log, undone in one step.
 */

/** What a scheduled reprice did, for the trader and the alerts. */
export interface RepricedNews {
  readonly runId: number;
  /** Prices applied on their own (the apply's run, for an undo), and how many it refused. */
  readonly applied: number;
  readonly failed: number;
  readonly applyRunId: number | null;
  /** Changes the price guard marked, waiting in a draft for the trader. */
  readonly waiting: number;
  readonly waitingDraftId: string | null;
  readonly waitingDraftName: string | null;
  /** Of those, how many by what the guard said of them (drop, floor, rise, under_cost, under_margin, jump). */
  readonly waitingWhy: Readonly<Record<string, number>>;
  /** Rows a rule would move but could not. */
  readonly held: number;
  readonly problem: string | null;
}

export interface RepriceSchedule {
  /** When it runs next (wall ms), null while off. */
  nextAt(): number | null;
  running(): boolean;
  /** Runs one scheduled reprice now (what the timer does). */
  runNow(): Promise<RepricedNews>;
  start(): void;
  stop(): Promise<void>;
  on(event: 'repriced', listener: (news: RepricedNews) => void): Unsubscribe;
  on(event: 'changed', listener: () => void): Unsubscribe;
}

const HOUR = 3_600_000;

export function createRepriceSchedule(deps: {
  pricing: PricingService;
  apply: Pick<ApplyService, 'apply' | 'handles' | 'on'>;
  activity: Pick<ActivityRepo, 'recordNote'>;
  draftName: (draftId: string) => string | null;
  clock: Clock;
}): RepriceSchedule {
  const { pricing, clock } = deps;
  const emitter = createEmitter<{ repriced: RepricedNews; changed: undefined }>();
  let dueAt: number | null = null;
  let loop: Promise<void> | null = null;
  let wake = new AbortController();
  let started = false;
  let current: Promise<RepricedNews> | null = null;
  const ours = new Set<number>();

  const plan = () => {
    const { enabled, everyHours } = pricing.settings().schedule;
    if (!enabled) return null;
    // The first plan after a start counts from the last scheduled run (its stored time); then on the monotonic clock.
    const last = pricing.runs(50).find((r) => r.kind === 'scheduled');
    const since = last === undefined ? Infinity : Math.max(0, clock.now() - last.startedAt);
    return clock.monotonic() + Math.max(0, everyHours * HOUR - since);
  };

  /** Holds the background apply while the trader applies another draft: it goes on once theirs has ended. */
  function yieldToTrader(handle: ApplyHandle): Unsubscribe {
    const others = () => deps.apply.handles().some((h) => !ours.has(h.runId) && !['done', 'cancelled', 'stopped'].includes(h.job.progress().state));
    const check = () => {
      const state = handle.job.progress().state;
      if (others() && state === 'running') handle.job.pause();
      else if (!others() && state === 'paused') handle.job.resume();
    };
    check();
    return deps.apply.on('progress', check);
  }

  async function applyOnItsOwn(result: RepriceResult): Promise<{ applied: number; failed: number; applyRunId: number | null; problem: string | null }> {
    if (result.draftId === null) return { applied: 0, failed: 0, applyRunId: null, problem: null };
    // Never beside a trader's apply: wait for it (a stop or a quit ends the wait).
    while (started && deps.apply.handles().some((h) => !['done', 'cancelled', 'stopped'].includes(h.job.progress().state))) await clock.sleep(5_000);
    try {
      const handle = deps.apply.apply(result.draftId, { lane: 'background' });
      ours.add(handle.runId);
      pricing.noteRun(result.runId, { state: 'applying', apply_run_id: handle.runId });
      const off = yieldToTrader(handle);
      const end = await handle.done.finally(off);
      pricing.noteRun(result.runId, { state: 'applied' });
      return { applied: end.itemsDone, failed: end.itemsFailed + end.itemsUnknown, applyRunId: handle.runId, problem: end.stopReason?.message ?? null };
    } catch (error) {
      const problem = error instanceof Error ? error.message : String(error);
      pricing.noteRun(result.runId, { state: 'failed', problem });
      return { applied: 0, failed: 0, applyRunId: null, problem };
    }
  }

  async function once(): Promise<RepricedNews> {
    // Prices as fresh as the sources allow (a wait a source asked for is kept).
    await pricing.sources.readNow().catch(() => undefined);
    const result = await pricing.reprice('scheduled', `Scheduled reprice ${new Date(clock.now()).toISOString().slice(0, 16).replace('T', ' ')}`);
    const done = await applyOnItsOwn(result);
    const waitingDraftName = result.heldDraftId === null ? null : deps.draftName(result.heldDraftId);
    const news: RepricedNews = {
      runId: result.runId, applied: done.applied, failed: done.failed, applyRunId: done.applyRunId,
      waiting: result.marked, waitingDraftId: result.heldDraftId, waitingDraftName, waitingWhy: result.marks, held: result.held, problem: done.problem,
    };
    deps.activity.recordNote({
      endpoint: 'edit_listing', account: null,
      targets: [result.draftId, result.heldDraftId].filter((d) => d !== null),
      note: noteOf(news),
    });
    emitter.emit('repriced', news);
    return news;
  }

  function runNow(): Promise<RepricedNews> {
    current ??= once().finally(() => {
      current = null;
      emitter.emit('changed', undefined);
    });
    emitter.emit('changed', undefined);
    return current;
  }

  async function run(): Promise<void> {
    while (started) {
      dueAt ??= plan();
      const signal = wake.signal;
      if (dueAt !== null && clock.monotonic() >= dueAt) {
        dueAt = clock.monotonic() + pricing.settings().schedule.everyHours * HOUR;
        emitter.emit('changed', undefined);
        // Not awaited here: a stop ends the loop at once, the run goes on with its apply.
        const run = runNow().catch(() => undefined);
        await Promise.race([run, new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))]);
        continue;
      }
      const wait = dueAt === null ? HOUR : Math.min(dueAt - clock.monotonic(), HOUR);
      await clock.sleep(wait, signal).catch(() => undefined);
      if (signal.aborted) wake = new AbortController();
    }
  }

  // A change of the schedule plans it again.
  pricing.on('changed', () => {
    const next = plan();
    if ((next === null) !== (dueAt === null) || (next !== null && dueAt !== null && Math.abs(next - dueAt) > 1_000 && !current)) {
      dueAt = next;
      wake.abort();
    }
  });

  function on(event: 'repriced', listener: (news: RepricedNews) => void): Unsubscribe;
  function on(event: 'changed', listener: () => void): Unsubscribe;
  function on(event: 'repriced' | 'changed', listener: ((news: RepricedNews) => void) | (() => void)): Unsubscribe {
    return event === 'repriced' ? emitter.on('repriced', listener as (news: RepricedNews) => void) : emitter.on('changed', () => (listener as () => void)());
  }

  return {
    nextAt: () => (dueAt === null ? null : Math.round(clock.now() + Math.max(0, dueAt - clock.monotonic()))),
    running: () => current !== null,
    runNow,
    start() {
      if (started) return;
      started = true;
      dueAt = plan();
      loop = run();
    },
    async stop() {
      // A run under way ends with its apply, which the workspace suspends as it closes.
      started = false;
      wake.abort();
      await loop;
    },
    on,
  };
}

/** The activity log's line for a scheduled reprice. */
export function noteOf(news: RepricedNews): string {
  const parts = [`Scheduled reprice: ${news.applied} ${news.applied === 1 ? 'price' : 'prices'} applied on their own`];
  if (news.failed > 0) parts.push(`${news.failed} refused or unknown`);
  if (news.waiting > 0) parts.push(`${news.waiting} marked by the price guard ${news.waiting === 1 ? 'waits' : 'wait'} in “${news.waitingDraftName ?? 'a draft'}”`);
  if (news.held > 0) parts.push(`${news.held} held (see Pricing)`);
  if (news.problem !== null) parts.push(news.problem);
  return parts.join('; ');
}
