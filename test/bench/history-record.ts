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
 * knob); the workspace's watcher loads them over HTTP, parses them, tells
 * what is new and records them, with the event loop's delay meanwhile.
 * Printed by test/bench/history.ts for 10,000 and 20,000 trades.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { systemClock } from '../../src-main/core/clock.ts';
import { openWorkspace } from '../../src-main/core/desk/workspace.ts';
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

export interface LoadFigures {
  readonly trades: number;
  /** From asking for the lists to the load recorded, ms. */
  readonly loadMs: number;
  readonly loopDelayMaxMs: number;
  readonly loopDelayP99Ms: number;
  readonly recorded: number;
}

/** One load of N trades, from the simulator over HTTP to History, through the workspace as the app wires it. */
export async function benchLoad(n: number): Promise<LoadFigures> {
  const service = new Worker(new URL('./history-service.ts', import.meta.url), { workerData: { trades: n } satisfies FloodServiceData });
  const sandbox = await new Promise<FloodServiceReady>((resolve) => service.once('message', resolve));
  const dir = mkdtempSync(join(tmpdir(), 'desk-history-load-'));
  const ws = openWorkspace({
    mode: 'live', dbPath: join(dir, 'profile.sqlite'), baseUrl: sandbox.url, clock: systemClock,
    settings: { ...DEFAULT_SETTINGS, mode: 'live', serviceUrl: sandbox.url }, apiKey: async () => sandbox.apiKey,
  });
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const started = performance.now();
  await ws.trades.checkNow();
  const loadMs = performance.now() - started;
  delay.disable();
  const recorded = ws.history.repo.counts().trades;
  await ws.close();
  service.postMessage('close');
  rmSync(dir, { recursive: true, force: true });
  return { trades: n, loadMs, recorded, loopDelayMaxMs: delay.max / 1e6, loopDelayP99Ms: delay.percentile(99) / 1e6 };
}
