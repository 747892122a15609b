/**
 * How long the main thread is held while the desk does its heaviest work at
 * once: the event-loop delay (perf_hooks.monitorEventLoopDelay) of the
 * thread that runs the IPC router, the scheduler and the heartbeat, on a
 * 50,000-listing ledger, while
 *   - a bulk formula goes over every listing into the draft,
 *   - a 200,000-row CSV is previewed and committed,
 *   - a 47,000-change draft is reviewed and paged through,
 *   - a 5,000-change draft is applied against the simulator over HTTP,
 * with the heartbeat running. Everything goes through the router, as the
 * renderer's requests do. Goals: p99 ≤ 10 ms, max ≤ 50 ms.
 *
 * Run twice: with the desk in its data worker, as the app runs it, and with
 * the desk on the measured thread, as it ran before, for comparison. The
 * simulator runs in a worker thread of its own: in the app, the main thread
 * holds none.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { scaledClock, type Clock } from '../../src-main/core/clock.ts';
import type { SecretStore } from '../../src-main/core/secrets.ts';
import type { SettingsPatch } from '../../src-main/core/settings/settings.ts';
import { connectDesk } from '../../src-main/main-thread/desk-connection.ts';
import { DESK_WORKER } from '../worker/desk-worker-entry.ts';
import { createDesk, type Desk } from '../../src-main/core/desk/desk.ts';
import { createDeskRouter } from '../../src-main/ipc/routers/desk-router.ts';
import type { Router } from '../../src-main/ipc/router.ts';
import type { ServiceReady, ServiceWorkerData } from './service-worker.ts';
import { memoryKeychain } from '../support/memory-keychain.ts';
import { call, importCsvInParts } from '../support/router-call.ts';

export const MAIN_LOOP_GOALS = { p99Ms: 10, maxMs: 50 } as const;

const LEDGER = 50_000;
const REVIEWED = 47_000;
const APPLIED = 5_000;
const CSV_ROWS = 200_000;

export interface MainLoopFigures {
  mode: MainLoopMode;
  ledgerRows: number;
  mainLoopDelayP50Ms: number;
  mainLoopDelayP99Ms: number;
  mainLoopDelayMaxMs: number;
  /** A bulk formula over every listing, and a review of the 47,000-change draft, each alone (before the rest). */
  bulkAloneMs: number;
  reviewAloneMs: number;
  /** Wall time of each piece of work, all at once, from its request to its answer. */
  bulkMs: number;
  csvPreviewMs: number;
  csvCommitMs: number;
  reviewMs: number;
  applyMs: number;
  applyItemsDone: number;
  heartbeatLapsed: boolean;
  /** Beats during the work, and the latest of them after its planned time (real ms: the scaled lateness ÷ the scale). */
  heartbeatBeats: number;
  heartbeatLateMaxMs: number;
  goalsMet: boolean;
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  return [value, performance.now() - started];
}

/** A draft CSV of buy-order creates, one SKU per row. */
function draftCsv(rows: number): string {
  const lines = ['kind,sku,price_cents,quantity'];
  for (let i = 0; i < rows; i++) lines.push(`buyOrder.create,${100_000 + i};6,${100 + (i % 900)},1`);
  return `${lines.join('\n')}\n`;
}

/** Where the desk runs: in its data worker (the app), or on the measured thread itself (as it ran before it had a worker). */
export type MainLoopMode = 'worker' | 'main-thread';

/** The desk as the measurement drives it, wherever it runs. */
interface OpenDesk {
  readonly router: Router;
  close(): Promise<void>;
}

export async function runMainLoopScenario(scale: number, mode: MainLoopMode): Promise<MainLoopFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'desk-main-loop-'));
  const origin = Date.now();
  const clock = scaledClock(scale, origin);
  const service = await startService(scale, origin);
  const sandbox = service.ready;
  const settings = { mode: 'live', serviceUrl: sandbox.url, refuseUnautomatedPosts: false, heartbeatEnabled: true } as const;
  const keychain = memoryKeychain();
  await keychain.set('api-key:default', sandbox.apiKey);
  let desk: OpenDesk | null = null;
  try {
    const { applyDraft, bigDraft } = await prepareProfile(dir, sandbox, clock, keychain);
    desk = mode === 'worker'
      ? await openInWorker(dir, scale, origin, settings, keychain)
      : await openOnThisThread(dir, clock, settings, keychain);
    const { router } = desk;
    const csv = draftCsv(CSV_ROWS);
    const beatState = () => call(router, 'heartbeat:state', {});
    const heartbeat = async () => (await beatState()).status;
    await waitFor(async () => (await heartbeat()) === 'active', 60_000, 'the heartbeat to mark the account automated');
    // One bulk formula and one review alone first: what the boundary costs each (nothing else runs).
    const [, bulkAloneMs] = await timed(() => call(router, 'ledger:bulk', { domain: 'listings', selection: { filter: {} }, op: { op: 'multiply', percent: 99, rounding: 'nearest' } }));
    const [, reviewAloneMs] = await timed(() => call(router, 'drafts:review', { draftId: bigDraft }));

    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    // The histogram measures from its timer's first tick: a block before it would go unseen.
    await new Promise((r) => setTimeout(r, 20));
    let lapsed = false;
    // How late each beat came after the time its plan gave it (the desk's timers run where the desk runs).
    let planned: number | null = null;
    let lastBeat: number | null = null;
    let beats = 0;
    let lateMaxMs = 0;
    const watchHeartbeat = setInterval(() => {
      void beatState().then((s) => {
        lapsed ||= s.status === 'lapsed';
        if (s.lastBeatAt !== lastBeat) {
          if (lastBeat !== null && planned !== null && s.lastBeatAt !== null) {
            beats += 1;
            lateMaxMs = Math.max(lateMaxMs, (s.lastBeatAt - planned) / scale);
          }
          lastBeat = s.lastBeatAt;
        }
        planned = s.nextBeatAt;
      }, () => undefined);
    }, 250);

    const applying = timed(async () => {
      await call(router, 'drafts:apply', { draftId: applyDraft });
      const state = async () => (await call(router, 'apply:state', {})).job;
      await waitFor(async () => ['done', 'stopped', 'cancelled'].includes((await state())?.state ?? ''), 30 * 60_000, 'the apply to end');
      return { job: await state() };
    });
    const bulk = timed(() => call(router, 'ledger:bulk', { domain: 'listings', selection: { filter: {} }, op: { op: 'multiply', percent: 95, rounding: 'nearest' } }));
    const review = timed(async () => {
      await call(router, 'drafts:review', { draftId: bigDraft });
      for (let offset = 0; offset < REVIEWED; offset += 10_000) {
        await call(router, 'drafts:page', { draftId: bigDraft, show: 'all', offset, limit: 100 });
      }
    });
    const csvWork = (async () => {
      // Sent as the renderer sends a chosen file: a part at a time.
      const [preview, previewMs] = await timed(() => importCsvInParts((part) => call(router, 'drafts:importCsvPart', part), 'draft', csv));
      const [, commitMs] = await timed(() => call(router, 'drafts:importCommit', { token: preview.token }));
      return { previewMs, commitMs };
    })();
    const [[, bulkMs], [, reviewMs], csvTimes, [applied, applyMs]] = await Promise.all([bulk, review, csvWork, applying]);

    clearInterval(watchHeartbeat);
    delay.disable();
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const p99 = ms(delay.percentile(99));
    const max = ms(delay.max);
    return {
      mode,
      ledgerRows: LEDGER,
      mainLoopDelayP50Ms: ms(delay.percentile(50)),
      mainLoopDelayP99Ms: p99,
      mainLoopDelayMaxMs: max,
      bulkAloneMs: Math.round(bulkAloneMs),
      reviewAloneMs: Math.round(reviewAloneMs),
      bulkMs: Math.round(bulkMs),
      csvPreviewMs: Math.round(csvTimes.previewMs),
      csvCommitMs: Math.round(csvTimes.commitMs),
      reviewMs: Math.round(reviewMs),
      applyMs: Math.round(applyMs),
      applyItemsDone: applied.job?.itemsDone ?? 0,
      heartbeatLapsed: lapsed,
      heartbeatBeats: beats,
      heartbeatLateMaxMs: Math.round(lateMaxMs),
      goalsMet: p99 <= MAIN_LOOP_GOALS.p99Ms && max <= MAIN_LOOP_GOALS.maxMs && !lapsed,
    };
  } finally {
    await desk?.close();
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The profile before the measurement: the ledger, a 5,000-change draft to
 * apply, and a 47,000-change draft to review, folded as a day-old draft
 * would be. Made with a desk of its own, closed before the measured one opens.
 */
async function prepareProfile(dir: string, sandbox: ServiceReady, clock: Clock, secrets: SecretStore): Promise<{ applyDraft: string; bigDraft: string }> {
  const desk = await createDesk({
    dataDir: dir, secrets, clock, version: 'bench',
    initialSettings: { mode: 'live', serviceUrl: sandbox.url, refuseUnautomatedPosts: false, heartbeatEnabled: false },
  });
  try {
    const { router } = createDeskRouter(desk, { openLink: () => undefined }, { checkOutputs: false });
    seedLedger(desk, sandbox);
    const { id: applyDraft } = await call(router, 'drafts:create', { name: 'apply' });
    const first = await call(router, 'ledger:keys', { domain: 'listings', offset: 0, limit: APPLIED });
    await call(router, 'ledger:bulk', { domain: 'listings', selection: { ids: first.keys }, op: { op: 'addCents', cents: 1 } });
    const { id: bigDraft } = await call(router, 'drafts:create', { name: 'big' });
    const rest = await call(router, 'ledger:keys', { domain: 'listings', offset: REVIEWED, limit: LEDGER - REVIEWED });
    await call(router, 'ledger:bulk', { domain: 'listings', selection: { filter: {}, except: rest.keys }, op: { op: 'addCents', cents: 10 } });
    return { applyDraft, bigDraft };
  } finally {
    await desk.close();
  }
}

async function openOnThisThread(dir: string, clock: Clock, initialSettings: SettingsPatch, secrets: SecretStore): Promise<OpenDesk> {
  const desk = await createDesk({ dataDir: dir, secrets, clock, version: 'bench', initialSettings });
  const { router } = createDeskRouter(desk, { openLink: () => undefined }, { checkOutputs: false });
  return {
    router,
    close: () => desk.close(),
  };
}

async function openInWorker(dir: string, scale: number, origin: number, initialSettings: SettingsPatch, secrets: SecretStore): Promise<OpenDesk> {
  const quiet = () => undefined;
  const connection = await connectDesk({
    spawn: () => new Worker(DESK_WORKER),
    secrets,
    config: { dataDir: dir, version: 'bench', clock: { scale, origin }, sandbox: {}, initialSettings },
    platform: { openLink: quiet },
    log: { debug: quiet, info: quiet, warn: quiet, error: (message, fields) => console.error(message, fields) },
  });
  return {
    router: connection.router,
    close: () => connection.close(),
  };
}

/** Listings that exist on the simulated service and in the ledger, as if adopted earlier. */
function seedLedger(desk: Desk, sandbox: ServiceReady): void {
  const { repos, store } = desk.workspace();
  repos.accounts.upsert({ account_id: sandbox.main, kind: 'main' });
  repos.listings.upsertMany(sandbox.seeded.map((l) => ({ ...l, user_note: l.user_note ?? '' })));
  store.markLedgerChanged();
}

/** The simulator in its own worker thread (see service-worker.ts). */
async function startService(scale: number, origin: number): Promise<{ ready: ServiceReady; close(): Promise<void> }> {
  const worker = new Worker(new URL('./service-worker.ts', import.meta.url), { workerData: { scale, origin, listings: LEDGER } satisfies ServiceWorkerData });
  const ready = await new Promise<ServiceReady>((resolve, reject) => {
    worker.once('message', (m: ServiceReady) => resolve(m));
    worker.once('error', reject);
  });
  return {
    ready,
    async close() {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage('close');
      await exited;
    },
  };
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The figures as the bench prints them. */
export function formatMainLoop(f: MainLoopFigures): string {
  return [
    `Main thread while the desk works ${f.mode === 'worker' ? 'in its data worker (the app)' : 'on the main thread itself'} (${f.ledgerRows.toLocaleString('en')}-listing ledger; goals p99 ≤ ${MAIN_LOOP_GOALS.p99Ms} ms, max ≤ ${MAIN_LOOP_GOALS.maxMs} ms):`,
    `  event-loop delay      p50 ${f.mainLoopDelayP50Ms} ms, p99 ${f.mainLoopDelayP99Ms} ms, max ${f.mainLoopDelayMaxMs} ms`,
    `  alone: bulk / review  ${f.bulkAloneMs} ms / ${f.reviewAloneMs} ms (50,000 listings / ${REVIEWED.toLocaleString('en')}-change draft)`,
    `  all at once:`,
    `  bulk formula          ${f.bulkMs} ms (50,000 listings)`,
    `  CSV preview / commit  ${f.csvPreviewMs} ms / ${f.csvCommitMs} ms (${CSV_ROWS.toLocaleString('en')} rows)`,
    `  review                ${f.reviewMs} ms (${REVIEWED.toLocaleString('en')}-change draft, 5 pages)`,
    `  apply                 ${f.applyMs} ms (${f.applyItemsDone.toLocaleString('en')} of ${APPLIED.toLocaleString('en')} changes)`,
    `  heartbeat             ${f.heartbeatLapsed ? 'LAPSED' : 'never lapsed'}; ${f.heartbeatBeats} beats during the work, the latest ${f.heartbeatLateMaxMs} ms (real) after its plan`,
    `  goals met             ${f.goalsMet ? 'yes' : 'no'}`,
  ].join('\n');
}
