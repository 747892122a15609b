import { performance } from 'node:perf_hooks';
import type { Clock } from '../../../src-main/core/clock.ts';
import type { WindowFigures } from './probe.ts';

/**
 * The scale bench's measurement of one job of the desk, run through the
 * bridge as the renderer asks for it, while the heartbeat runs: the data
 * worker's event-loop delay and heap during it (from the probe in its
 * thread), how late the heartbeat's planned beats were sent (each job starts
 * `leadMs` before a beat is due, so one falls inside it), and how long a
 * `ledger:page` asked meanwhile waited for its answer.
 */

export interface JobFigures {
  readonly job: string;
  /** From the request to its end (for the apply: until the work in the background is done). */
  readonly ms: number;
  readonly loopDelayMaxMs: number;
  /**
   * The latest of the beats planned during the job and sent (one is due as
   * it starts), real ms, as the desk's heartbeat state tells; null if none
   * was. The parent adds what the simulator saw of the beat due at the start.
   */
  readonly heartbeatLateMs: number | null;
  /** When the beat due at the job's start was planned (desk ms), to find its request in the simulator's log. */
  readonly alignedBeatAt: number | null;
  /** The slowest of the pages asked while the job ran, and how many were asked. */
  readonly pageMaxMs: number;
  readonly pages: number;
  /** The worker's used heap at its peak during the job, over its size after a GC before it. */
  readonly heapGrowthMb: number;
  /** Why the job failed, when it did (the figures are then of the failure). */
  readonly error?: string;
}

export interface JobContext {
  invoke<T = unknown>(channel: string, input?: unknown): Promise<T>;
  probe: { gc(): Promise<unknown>; start(): Promise<unknown>; stop(): Promise<WindowFigures> };
  /** The desk's clock (scaled), and the scale: real ms = desk ms ÷ scale. */
  readonly clock: Clock;
  readonly scale: number;
}

interface BeatState {
  lastBeatAt: number | null;
  nextBeatAt: number | null;
  lastError: unknown;
}

/** How long before the planned beat a job starts, unless told: the beat falls just after the request. */
export const DEFAULT_LEAD_MS = 15;
/** A lead must stay well inside the heartbeat's interval (5 minutes of desk time: 5 s at ×60). */
export const MAX_LEAD_MS = 4_000;
/** The longest the bench waits for the heartbeat's plan, real ms. */
const BEAT_WAIT_MS = 20_000;
/** Between the answer to one page and the next question. */
const PAGE_GAP_MS = 25;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

export async function measureJob(ctx: JobContext, job: string, work: () => Promise<void>, leadMs = DEFAULT_LEAD_MS): Promise<JobFigures> {
  await ctx.probe.gc();
  await ctx.probe.start();
  const aligned = await alignWithBeat(ctx, Math.min(MAX_LEAD_MS, Math.max(DEFAULT_LEAD_MS, leadMs)));
  const beats = beatWatch(ctx, aligned);
  const started = performance.now();
  let running = true;
  let error: string | undefined;
  const done = work().catch((e: unknown) => void (error = e instanceof Error ? e.message : String(e))).finally(() => (running = false));
  const pageTimes: number[] = [];
  const asking = (async () => {
    await sleep(10);
    for (let i = 0; running; i++) {
      const asked = performance.now();
      await ctx.invoke('ledger:page', { domain: 'listings', filter: {}, offset: (i * 700) % 40_000, limit: 100 }).catch(() => undefined);
      pageTimes.push(performance.now() - asked);
      await beats.look();
      await sleep(PAGE_GAP_MS);
    }
  })();
  await done;
  const ms = performance.now() - started;
  await asking;
  const window = await ctx.probe.stop();
  const heartbeatLateMs = await beats.latest();
  return {
    job,
    ms: Math.round(ms),
    loopDelayMaxMs: round(window.loopDelayMaxMs),
    heartbeatLateMs: heartbeatLateMs === null ? null : round(heartbeatLateMs),
    alignedBeatAt: aligned?.nextBeatAt ?? null,
    pageMaxMs: round(Math.max(0, ...pageTimes)),
    pages: pageTimes.length,
    heapGrowthMb: round(window.heapPeakMb - window.heapBaselineMb),
    ...(error === undefined ? {} : { error }),
  };
}

/**
 * The beats sent during a job, each against the plan seen before it: the
 * aligned one at the job's start, and any later one (the apply
 * run for many seconds). The plans are the desk's own timestamps, so a
 * reading that waited behind the job still tells when each beat was sent.
 */
function beatWatch(ctx: JobContext, aligned: BeatState | null) {
  let plan = aligned;
  let lateMax: number | null = null;
  const see = (state: BeatState) => {
    if (plan?.nextBeatAt != null && state.lastBeatAt !== null && state.lastBeatAt !== plan.lastBeatAt) {
      lateMax = Math.max(lateMax ?? 0, Math.max(0, (state.lastBeatAt - plan.nextBeatAt) / ctx.scale));
    }
    plan = state;
  };
  return {
    async look() {
      see(await ctx.invoke<BeatState>('heartbeat:state'));
    },
    /** The latest beat's lateness (real ms), once the beat planned at the start has been sent; null if none was planned. */
    async latest(): Promise<number | null> {
      if (!aligned) return lateMax;
      const end = performance.now() + BEAT_WAIT_MS;
      while (lateMax === null && performance.now() < end) {
        await this.look();
        if (lateMax === null) await sleep(20);
      }
      return lateMax;
    },
  };
}

/**
 * Waits until the heartbeat's next beat is due `leadMs` from now, so it falls
 * inside the job about to start. Returns the state that planned it (null
 * when the heartbeat has no plan, e.g. it is off). A beat after a failed one
 * is a retry whose request may wait for the endpoint's rate slot: the job
 * waits for a regular beat, unless the heartbeat does not recover in time.
 */
async function alignWithBeat(ctx: JobContext, leadMs: number): Promise<BeatState | null> {
  const end = performance.now() + BEAT_WAIT_MS;
  while (performance.now() < end) {
    const state = await ctx.invoke<BeatState>('heartbeat:state');
    if (state.nextBeatAt === null || (state.lastError !== null && performance.now() < end - BEAT_WAIT_MS / 2)) {
      await sleep(100);
      continue;
    }
    const inMs = (state.nextBeatAt - ctx.clock.now()) / ctx.scale;
    if (inMs >= leadMs) {
      await sleep(inMs - leadMs);
      return state;
    }
    // Due now or overdue: let that beat go first, and aim for the next.
    await sleep(inMs + 50);
  }
  return null;
}

const round = (n: number) => Math.round(n * 10) / 10;

/** Waits until `check` holds, polling; false if it did not within `ms`. */
export async function waitUntil(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    if (await check()) return true;
    await sleep(20);
  }
  return false;
}
