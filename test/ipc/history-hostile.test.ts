import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scaledClock, type Clock } from '../../src-main/core/clock.ts';
import { createDesk, type Desk } from '../../src-main/core/desk/desk.ts';
import { createDeskRouter } from '../../src-main/ipc/routers/desk-router.ts';
import type { Router } from '../../src-main/ipc/router.ts';
import { startSandbox, type Sandbox } from '../../src-main/sandbox/index.ts';
import { memoryKeychain } from '../support/memory-keychain.ts';
import { call } from '../support/router-call.ts';
import { until } from '../support/until.ts';

/**
 * History after hostile answers from the service, seen through the app's
 * router: a completed sale the service lists again, trades with a total or
 * timestamp near 2^53 or a negative total, an answer of thousands of trades.
 * Every completed sale stays in the figures; every page and export answers;
 * what was refused is named. The desk runs in live mode against the
 * simulator, on a clock where a service minute lasts 0.2 s.
 */

const MIN = 60_000;
const DAY = 86_400_000;
const SHOWS = ['completed', 'all', 'pending', 'vanished'] as const;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Live { desk: Desk; router: Router; sandbox: Sandbox; clock: Clock }

async function start(): Promise<Live> {
  const clock = scaledClock(300);
  const sandbox = await startSandbox({ clock, seed: 44, pastDays: 0, tradeSchedule: false, tradeMoney: true });
  const dir = mkdtempSync(join(tmpdir(), 'history-hostile-'));
  const desk = await createDesk({ dataDir: dir, secrets: memoryKeychain(), version: 't', clock, initialSettings: { mode: 'live', serviceUrl: sandbox.url } });
  cleanups.push(async () => {
    await desk.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const { router } = createDeskRouter(desk, { openLink: () => undefined }, { checkOutputs: true });
  await call(router, 'key:set', { key: sandbox.apiKey });
  return { desk, router, sandbox, clock };
}

const range = (live: Live) => ({ from: live.clock.now() - DAY, to: live.clock.now() + DAY });

/** Every page and export of the range answers (checked against the contract on the way out); the summary is returned. */
async function everyPageAndExport(live: Live) {
  for (const show of SHOWS) {
    await call(live.router, 'history:page', { range: range(live), show, offset: 0, limit: 500 });
    await call(live.router, 'history:exportCsv', { range: range(live), show });
  }
  return call(live.router, 'history:summary', range(live));
}

/** A buyer takes the one listing seeded in the simulator; the sale completes three minutes on. Resolves with its trade once History calls it completed. */
async function completedSale(live: Live): Promise<{ tradeId: string; total: number }> {
  live.sandbox.admin.seedListings(1);
  live.sandbox.faults.set({ listingSales: { meanGapMs: MIN, limit: 1, tradeMs: 3 * MIN } });
  const page = await until('the sale called completed', async () => {
    const p = await call(live.router, 'history:page', { range: range(live), show: 'completed', offset: 0, limit: 10 });
    return p.total > 0 ? p : null;
  }, 20_000);
  const row = page.rows[0];
  if (!row) throw new Error('no sale');
  return { tradeId: row.tradeId, total: row.total };
}

/** Waits for `n` more balance readings in History (one every five service minutes). */
async function readings(live: Live, n: number): Promise<void> {
  const repo = live.desk.workspace().history.repo;
  const before = repo.counts().readings;
  await until(`${n} more balance readings`, () => repo.counts().readings >= before + n, 20_000);
}

describe('History after hostile answers, through the router', () => {
  it('keeps a completed sale the service lists again completed, and in the figures', async () => {
    const live = await start();
    const sale = await completedSale(live);
    live.sandbox.faults.set({ relistCompleted: { withinMs: 60 * MIN } });
    await until('two answers listing it again', () => live.sandbox.log.requests.filter((r) => r.faults.includes('relistCompleted')).length >= 2, 20_000);
    await live.desk.workspace().trades.checkNow({ fresh: true });
    expect((await everyPageAndExport(live)).sales).toEqual({ count: 1, amount: sale.total });
    live.sandbox.faults.set({ relistCompleted: false });
    await live.desk.workspace().trades.checkNow({ fresh: true });
    await readings(live, 3);

    const summary = await everyPageAndExport(live);
    expect(summary.sales).toEqual({ count: 1, amount: sale.total });
    const completed = await call(live.router, 'history:page', { range: range(live), show: 'completed', offset: 0, limit: 10 });
    expect(completed.rows.map((r) => [r.tradeId, r.ending])).toEqual([[sale.tradeId, 'balance_moved']]);
  }, 60_000);

  it('refuses trades with a total or timestamp near 2^53 or a negative total, naming each; the rest of History answers', async () => {
    const live = await start();
    const { admin, faults } = live.sandbox;
    const sale = await completedSale(live);
    admin.addTrade({ trade_type: 'market', trade_id: '8002', supplier_id: live.sandbox.accounts.main });
    admin.addTrade({ trade_type: 'market', trade_id: '8003', supplier_id: live.sandbox.accounts.main, timestamp: Number.MAX_SAFE_INTEGER });
    admin.addTrade({ trade_type: 'buy_order', trade_id: '8004', buyer_id: live.sandbox.accounts.main });
    admin.addTrade({ trade_type: 'market', trade_id: '8005', supplier_id: live.sandbox.accounts.main });
    faults.set({ hostileTradeNumber: { tradeIds: ['8002'] }, negativeTradeTotal: { tradeIds: ['8004'] } });
    await live.desk.workspace().trades.checkNow({ fresh: true });
    // They leave the lists: History would count them from here on.
    for (const id of ['8002', '8003', '8004']) admin.removeTrade(id);
    await live.desk.workspace().trades.checkNow({ fresh: true });
    // An answer of a thousand more trades at once.
    faults.set({ tradeFlood: { count: 1_000, endpoints: ['load_pending'] } });
    await live.desk.workspace().trades.checkNow({ fresh: true });
    await readings(live, 2);

    const summary = await everyPageAndExport(live);
    expect(summary.sales).toEqual({ count: 1, amount: sale.total });
    expect(summary.purchases).toEqual({ count: 0, amount: 0 });
    expect(summary.refused.recent.map((r) => [r.kind, r.ref, r.field])).toEqual(expect.arrayContaining([
      ['market', '8002', 'total'], ['market', '8003', 'timestamp'], ['buy_order', '8004', 'total'],
    ]));
    expect(summary.refused.count).toBe(3);
    const page = (show: (typeof SHOWS)[number]) => call(live.router, 'history:page', { range: range(live), show, offset: 0, limit: 10 });
    expect((await page('completed')).rows.map((r) => r.tradeId)).toEqual([sale.tradeId]);
    // Trade 8005 and the thousand, still listed.
    expect((await page('pending')).total).toBe(1 + 1_000);
    expect((await page('all')).total).toBe(1 + 1 + 1_000);
  }, 60_000);
});
