/**
 * What recording one answer of N pending trades costs the data worker: the
 * pending list, the ledger's sales (with a 2,000-listing ledger to search)
 * and History, as the workspace wires them behind the trade watcher, in a
 * real SQLite file. Three steps, each timed with the event loop's delay
 * while it runs (its longest step is the figure that matters: the
 * heartbeat, the sends and the pages wait that long):
 *   - the answer listing N trades,
 *   - the next answer, with all N gone,
 *   - two balance readings, the first moved by what all N paid (History
 *     matches and ends every one of them).
 * Then the whole load as the app makes it (`benchLoad`): the simulator, in
 * a worker thread of its own, answers N trades at once (the `tradeFlood`
 * knob); the workspace's client reads the answer (in parts: response.ts),
 * its watcher tells what is new and saves its seen set (in parts), and the
 * recording keeps the load (in parts), with the event loop's delay and its
 * longest stalls meanwhile. For comparison, JSON.parse of the whole answer
 * in one step (the client parses a list a group of elements a step) and the
 * whole answer read in one step (the client's way for small answers) are
 * timed alone on the same answer.
 * Printed by test/bench/history.ts and `npm run bench` for 10,000 and
 * 20,000 trades.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { systemClock } from '../../src-main/core/clock.ts';
import { openWorkspace } from '../../src-main/core/desk/workspace.ts';
import { interpretResponse } from '../../src-main/core/api/response.ts';
import { DEFAULT_SETTINGS } from '../../src-main/core/settings/settings.ts';
import type { PendingTrade } from '../../src-shared/trades.ts';
import { createTradeHistory } from '../../src-main/core/history/trade-history.ts';
import { openStore } from '../../src-main/core/store/db.ts';
import { createRepos } from '../../src-main/core/store/index.ts';
import { createLedgerSales } from '../../src-main/core/trades/ledger-sales.ts';
import { createTradeRecording } from '../../src-main/core/trades/trade-recording.ts';
import { buyOrderTrade, marketTrade } from '../core/trades/fixtures.ts';
import type { FloodServiceData, FloodServiceReady } from './history-service.ts';

const MAIN = '76561198000000001';
const PARTNER = '76561198000000009';

export interface RecordingFigures {
  readonly trades: number;
  /** Wall time of each step, ms. */
  readonly listedMs: number;
  readonly goneMs: number;
  readonly readingsMs: number;
  /** The event loop's longest delay over the three, ms. */
  readonly loopDelayMaxMs: number;
  readonly loopDelayP99Ms: number;
  /** Turns given back to the event loop while recording (a part each). */
  readonly turns: number;
  readonly completed: number;
}

/** N trades, half sales (of the main account), half filled buy orders, each of its own amount. */
function answer(n: number, now: number): PendingTrade[] {
  return Array.from({ length: n }, (_, i) => {
    const total = 100 + (i % 900);
    const item = { name: 'Team Captain', sku: '378;6', quantity: 1, price: total, quality: 'Unique', image_url: '1' };
    return i % 2 === 0
      ? { ...marketTrade(String(8_000_000_000 + i), 'Action Required', 400, now), total, items: [{ ...item, particle_url: '' }] }
      : { ...buyOrderTrade(String(8_000_000_000 + i), 'Waiting for seller', 400, now), buyer_id: MAIN, supplier_id: PARTNER, total, items: [{ ...item, particle_url: null }] };
  });
}

export async function benchRecording(n: number): Promise<RecordingFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'desk-history-record-'));
  let now = Date.UTC(2026, 2, 16, 9);
  const clock = { now: () => now, monotonic: () => now, sleep: async () => undefined };
  const store = openStore(join(dir, 'profile.sqlite'), { clock });
  const repos = createRepos(store);
  repos.accounts.upsert({ account_id: MAIN, kind: 'main' });
  repos.listings.upsertMany(Array.from({ length: 2_000 }, (_, i) => ({
    asset_id: String(20_000_000 + i), listing_id: `L${i}`, sku: '5021;6', price: 5_000 + i, promoted: 0 as const, game: '440', account: MAIN,
  })));
  let turns = 0;
  const turn = () => new Promise<void>((resolve) => {
    turns += 1;
    setImmediate(resolve);
  });
  const sales = createLedgerSales({ store, repos, ownIds: () => [MAIN] });
  const history = createTradeHistory({ store, repos, ownIds: () => [MAIN], turn });
  const recording = createTradeRecording({ store, repos, sales, history, turn });
  const trades = answer(n, now);
  const paid = trades.reduce((sum, t) => sum + (t.trade_type === 'market' ? t.total : -t.total), 0);

  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const timed = async (step: () => Promise<unknown>) => {
    const started = performance.now();
    await step();
    return performance.now() - started;
  };
  await recording.balance({ balance: 10_000_000, pending_balance: 0, readAt: now - 60_000 });
  const listedMs = await timed(() => recording.load({ trades, gone: [], listedAt: now, at: now }));
  now += 60_000;
  const gone = trades.map((t) => ({ key: `${t.trade_type}:${t.trade_id}`, tradeType: t.trade_type, tradeId: t.trade_id, lastStatus: t.status }));
  const goneMs = await timed(() => recording.load({ trades: [], gone, listedAt: now, at: now }));
  const readingsMs = await timed(async () => {
    now += 60_000;
    await recording.balance({ balance: 10_000_000 + paid, pending_balance: 0, readAt: now });
    now += 300_000;
    await recording.balance({ balance: 10_000_000 + paid, pending_balance: 0, readAt: now });
  });
  delay.disable();
  const completed = Number((store.db.prepare("SELECT count(*) AS n FROM trade_history WHERE ending = 'balance_moved'").get() as { n: number }).n);
  store.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    trades: n, listedMs, goneMs, readingsMs, turns, completed,
    loopDelayMaxMs: delay.max / 1e6, loopDelayP99Ms: delay.percentile(99) / 1e6,
  };
}

/** A stall of the event loop: how long it lasted, and how much of it this thread ran (the rest, the machine ran others). */
export interface Stall {
  readonly wallMs: number;
  readonly cpuMs: number;
}

export interface LoadFigures {
  readonly trades: number;
  /** The load_pending answer's size, bytes. */
  readonly answerBytes: number;
  /** JSON.parse of that answer whole, in one step (what the client no longer does), median of 3. */
  readonly parse: Stall;
  /** The same answer read in one step as small answers are (key search, parse, check), median of 3. */
  readonly readAtOnce: Stall;
  /** From asking for the lists to the load recorded, ms. */
  readonly loadMs: number;
  readonly loopDelayMaxMs: number;
  readonly loopDelayP99Ms: number;
  /** The three longest stalls of the event loop during the load, longest first: by wall time, and by this thread's CPU time. */
  readonly stalls: { readonly byWall: readonly Stall[]; readonly byCpu: readonly Stall[] };
  readonly recorded: number;
}

/** This thread's CPU time so far, ms. */
function threadCpuMs(): number {
  const used = process.threadCpuUsage();
  return (used.user + used.system) / 1000;
}

/** Times `work` three times and gives the median of each clock. */
function median3(work: () => unknown): Stall {
  const runs = [0, 1, 2].map(() => {
    const [wall, cpu] = [performance.now(), threadCpuMs()];
    work();
    return { wallMs: performance.now() - wall, cpuMs: threadCpuMs() - cpu };
  });
  const median = (values: number[]) => values.sort((a, b) => a - b)[1] ?? 0;
  return { wallMs: median(runs.map((r) => r.wallMs)), cpuMs: median(runs.map((r) => r.cpuMs)) };
}

/**
 * The event loop's stalls while it runs: a timer due every millisecond
 * notes each gap between two of its runs, on the monotonic clock and in the
 * thread's CPU time. On a loaded machine the wall time adds the time other
 * processes held the core; the CPU time is the step's own.
 */
function watchStalls(): { stop(): { byWall: Stall[]; byCpu: Stall[] } } {
  const stalls: Stall[] = [];
  let wall = performance.now();
  let spent = threadCpuMs();
  const note = () => {
    const [nowWall, nowCpu] = [performance.now(), threadCpuMs()];
    stalls.push({ wallMs: nowWall - wall, cpuMs: nowCpu - spent });
    [wall, spent] = [nowWall, nowCpu];
  };
  const timer = setInterval(note, 1);
  return {
    stop() {
      clearInterval(timer);
      note();
      return {
        byWall: [...stalls].sort((a, b) => b.wallMs - a.wallMs).slice(0, 3),
        byCpu: [...stalls].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, 3),
      };
    },
  };
}

/** One load of N trades, from the simulator over HTTP to History, through the workspace as the app wires it. */
export async function benchLoad(n: number): Promise<LoadFigures> {
  const service = new Worker(new URL('./history-service.ts', import.meta.url), { workerData: { trades: n } satisfies FloodServiceData });
  const sandbox = await new Promise<FloodServiceReady>((resolve) => service.once('message', resolve));
  const body = Buffer.from(sandbox.answer.buffer, sandbox.answer.byteOffset, sandbox.answer.byteLength);
  const text = body.toString('utf8');
  const parse = median3(() => JSON.parse(text));
  const raw = { status: 200, headers: {}, body, truncated: false };
  const readAtOnce = median3(() => interpretResponse('load_pending', raw, { secret: sandbox.apiKey, nowMs: Date.now(), maxResponseBytes: 64 * 1024 * 1024 }));
  const dir = mkdtempSync(join(tmpdir(), 'desk-history-load-'));
  const ws = openWorkspace({
    mode: 'live', dbPath: join(dir, 'profile.sqlite'), baseUrl: sandbox.url, clock: systemClock,
    settings: { ...DEFAULT_SETTINGS, mode: 'live', serviceUrl: sandbox.url }, apiKey: async () => sandbox.apiKey,
  });
  // The first request loads the HTTP client (as the heartbeat's does in the app), and the workspace opens on the
  // turns after it is made: neither is the load's.
  await ws.client.call('get_balance', {});
  await new Promise((resolve) => setTimeout(resolve, 50));
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const stalls = watchStalls();
  const started = performance.now();
  await ws.trades.checkNow();
  const loadMs = performance.now() - started;
  const stallsSeen = stalls.stop();
  delay.disable();
  const recorded = ws.history.repo.counts().trades;
  await ws.close();
  service.postMessage('close');
  rmSync(dir, { recursive: true, force: true });
  return {
    trades: n, answerBytes: body.length, parse, readAtOnce, loadMs, recorded, stalls: stallsSeen,
    loopDelayMaxMs: delay.max / 1e6, loopDelayP99Ms: delay.percentile(99) / 1e6,
  };
}

/** The figures of `benchLoad`, a row per figure and a column per load, for history.ts and run.ts. */
export function loadRows(loads: readonly LoadFigures[]): Record<string, Record<string, string | number>> {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const both = (v: Stall) => `${Math.round(v.wallMs)} (${Math.round(v.cpuMs)})`;
  const figures: Array<[string, (r: LoadFigures) => string | number]> = [
    ['answer of load_pending', (r) => `${(r.answerBytes / 1e6).toFixed(1)} MB`],
    ['load, asked to recorded', (r) => `${Math.round(r.loadMs)} ms`],
    ['loop delay max', (r) => ms(r.loopDelayMaxMs)],
    ['loop delay p99', (r) => ms(r.loopDelayP99Ms)],
    ['longest stalls, ms wall (CPU)', (r) => r.stalls.byWall.map(both).join(', ')],
    ['longest stalls by CPU, ms', (r) => r.stalls.byCpu.map((v) => Math.round(v.cpuMs)).join(', ')],
    ['JSON.parse of it whole, ms wall (CPU)', (r) => both(r.parse)],
    ['the answer read in one step, ms wall (CPU)', (r) => both(r.readAtOnce)],
    ['trades recorded', (r) => r.recorded],
  ];
  return Object.fromEntries(figures.map(([name, figure]) => [name, Object.fromEntries(loads.map((r) => [`${r.trades.toLocaleString('en-US')} trades`, figure(r)]))]));
}
