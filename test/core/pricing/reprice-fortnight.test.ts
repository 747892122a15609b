import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RATE_WINDOW_MS, ENDPOINTS } from '../../../src-main/core/api/endpoints.ts';
import { createDesk } from '../../../src-main/core/desk/desk.ts';
import type { RepricedNews } from '../../../src-main/core/pricing/reprice-schedule.ts';
import type { Job } from '../../../src-main/core/scheduler/types.ts';
import { startSandbox } from '../../../src-main/sandbox/index.ts';
import { adopt } from '../../e2e/desk-fixture.ts';
import { memoryKeychain } from '../../support/memory-keychain.ts';
import { expectedPrice, isStrangeWeapon, sellCents, strangeWeaponsRule } from '../../support/reprice-expect.ts';
import { requestsInFlight } from '../../support/requests-in-flight.ts';
import { warpClock } from '../../support/warp-clock.ts';

/**
 * A fortnight of repricing on its own: the real desk against the simulator
 * on one clock that runs ten times faster and skips ahead between the
 * sleeps while no request is on its way (support/warp-clock.ts), with the heartbeat beating, the source's
 * prices drifting, three of them jumping ×10 for four days (read every 30 minutes meanwhile), the source out
 * for 20 hours, and a scheduled reprice every 6 hours. After each run:
 * every change the guard does not mark stands on the service at its new
 * price, every marked one waits in that run's draft with the service's
 * price where it was; no listing under its floor (cost + 5 %, from the
 * simulator's costs); no jumped price on the service. Over the fortnight: no lapse of the automated mark
 * and no 429 as the simulator saw them, and a trader's own apply started
 * while a scheduled one sends had its first request answered within one
 * request slot.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const STRANGE = 200;
/** The trader's own apply: its one request is told apart from the reprice's by its size. */
const TRADER_ITEMS = 77;
/** One request slot of edit_listing: the window over its requests per minute. */
const SLOT_MS = RATE_WINDOW_MS / ENDPOINTS.edit_listing.perMinute;
/** Skips stop short of the automated mark's end by this much: a beat in flight lands before it on real (scaled) time. */
const MARK_MARGIN_MS = 20_000;
const floorOf = (cost: number) => Math.ceil((cost * 105) / 100);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('a fortnight of scheduled repricing against the simulator', () => {
  it('applies every unmarked change, leaves every marked one waiting, never prices under a floor, never lapses nor meets a 429, and lets the trader\'s apply go within a slot', async () => {
    const clock = warpClock(10);
    const inFlight = requestsInFlight();
    cleanups.push(() => inFlight.stop());
    const sandbox = await startSandbox({ clock, pastDays: 0, inventorySize: 4_000, tradeSchedule: false });
    cleanups.push(() => sandbox.close());
    const dataDir = mkdtempSync(join(tmpdir(), 'fortnight-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const keychain = memoryKeychain();
    await keychain.set('api-key:default', sandbox.apiKey);
    const desk = await createDesk({
      dataDir, clock, secrets: keychain, version: 't', inventoryUrl: sandbox.url, pricedbUrl: sandbox.pricedb.url,
      initialSettings: { mode: 'live', serviceUrl: sandbox.url, tradePollSeconds: 3_600 },
    });
    cleanups.push(() => desk.close());
    const ws = desk.workspace();
    const { pricedb } = sandbox;

    // 200 Strange weapons a tenth over what the rule makes of them now; 77 other listings the trader reprices by hand.
    const strange = sandbox.admin.inventory().filter((a) => isStrangeWeapon(a.sku)).slice(0, STRANGE)
      .flatMap((a) => sandbox.admin.seedListingsOf(1, (b) => b.asset_id === a.asset_id, Math.round(expectedPrice(sellCents(pricedb, a.sku), pricedb.cost(a.sku), 3, 5).price * 1.1) + 1));
    const others = sandbox.admin.seedListingsOf(TRADER_ITEMS, (a) => !isStrangeWeapon(a.sku), 500);
    expect(strange).toHaveLength(STRANGE);
    adopt(ws.repos, sandbox, [...strange, ...others]);
    ws.pricing.costs.setManual(strange.map((l) => ({ sku: l.sku, unitCost: pricedb.cost(l.sku), quantity: 1 })));
    const mine = ws.drafts.create('my prices');
    ws.drafts.addChanges(mine.id, others.map((l) => ({ kind: 'listing.edit' as const, asset_id: l.asset_id, price: 499 })));

    // The trader applies theirs once a scheduled apply has its first request on the way; the warp holds till theirs is answered.
    let hold = false;
    const trader = { startedAt: null as number | null, firstAt: null as number | null };
    const startJob = ws.scheduler.startJob.bind(ws.scheduler);
    ws.scheduler.startJob = (tasks, options) => {
      const job: Job = startJob(tasks, options);
      if (options?.lane === 'background' && trader.startedAt === null) {
        hold = true;
        const waitForSend = () => {
          if (job.progress().requestsSent === 0) return void setImmediate(waitForSend);
          trader.startedAt = clock.now();
          try {
            ws.apply.apply(mine.id);
          } catch (error) {
            problems.push(`the trader's apply: ${String(error)}`);
          }
        };
        waitForSend();
      }
      return job;
    };

    // After each run, as the desk tells it: the service and the drafts as the run left them.
    const runs: RepricedNews[] = [];
    const problems: string[] = [];
    const counts = { applied: 0, waiting: 0, underFloor: 0 };
    const listed = () => new Map(sandbox.admin.listings().map((l) => [l.asset_id, l]));
    ws.pricing.schedule.on('repriced', (news) => {
      runs.push(news);
      const service = listed();
      const rows = ws.pricing.service.page(news.runId, 'change', 0, 500).rows;
      const waiting = new Map((news.waitingDraftId === null ? [] : ws.drafts.entries(news.waitingDraftId)).map((e) => [e.target, e.change]));
      for (const r of rows) {
        const price = service.get(r.key)?.price;
        if (r.mark === null) {
          counts.applied += 1;
          if (price !== r.after) problems.push(`run ${news.runId}: ${r.key} stands at ${price}, not its new ${r.after}`);
        } else {
          counts.waiting += 1;
          const change = waiting.get(`L:${r.key}`);
          if (change?.kind !== 'listing.edit' || change.price !== r.after) problems.push(`run ${news.runId}: ${r.key} (${r.mark}) does not wait at ${r.after}`);
          if (price !== r.before) problems.push(`run ${news.runId}: ${r.key} (${r.mark}) moved to ${price} on its own`);
        }
      }
      // A jumped price reached the service only if the desk followed the jump on its own (the drift alone moves a price by a fraction).
      for (const [asset, was] of beforeJump) {
        if ((service.get(asset)?.price ?? 0) > 3 * was) problems.push(`run ${news.runId}: ${asset} followed its source's jump on its own, ${was} → ${service.get(asset)?.price}`);
      }
      if (news.failed > 0 || news.problem !== null) problems.push(`run ${news.runId}: ${news.failed} failed, ${news.problem}`);
      for (const l of strange) {
        if ((service.get(l.asset_id)?.price ?? 0) < floorOf(pricedb.cost(l.sku))) counts.underFloor += 1;
      }
    });

    ws.pricing.service.addRule(strangeWeaponsRule());
    ws.pricing.service.updateSettings({ schedule: { enabled: true, everyHours: 6 } });

    // The fortnight: the source's surprises on their days; the service's record of the mark sampled all along.
    const start = clock.monotonic();
    const wallStart = clock.now();
    // Three of the dearer ones (a cheap one's ×10 may round back to its price), and where each stood before its jump.
    const jumped = [...strange].sort((a, b) => sellCents(pricedb, b.sku) - sellCents(pricedb, a.sku)).slice(0, 3);
    const beforeJump = new Map<string, number>();
    const events = [
      { at: 4 * DAY, what: () => jumped.forEach((l) => {
        beforeJump.set(l.asset_id, listed().get(l.asset_id)?.price ?? 0);
        pricedb.faults.jumps.set(l.sku, { factor: 10, from: clock.now() });
      }) },
      { at: 8 * DAY, what: () => jumped.forEach((l) => pricedb.faults.jumps.delete(l.sku)) },
      { at: 10 * DAY, what: () => void (pricedb.faults.outage = { until: clock.now() + 20 * HOUR }) },
    ];
    const accounts = [sandbox.accounts.main, ...sandbox.accounts.linked];
    const marked = new Map<string, boolean>();
    let lapses = 0;
    while (clock.monotonic() - start < 14 * DAY) {
      await new Promise((resolve) => setImmediate(resolve));
      const elapsed = clock.monotonic() - start;
      while (events[0] && elapsed >= events[0].at) events.shift()?.what();
      for (const account of accounts) {
        const now = sandbox.admin.userAgent(account).automated;
        if (marked.get(account) === true && !now) lapses += 1;
        marked.set(account, now);
      }
      if (trader.startedAt !== null && hold) {
        const since = trader.startedAt;
        const first = sandbox.log.requests.find((r) => r.endpoint === 'edit_listing' && r.itemCount === TRADER_ITEMS && r.at >= since);
        if (first) {
          trader.firstAt = first.at;
          hold = false;
        }
      }
      const due = clock.nextDue();
      if (hold || due === null || inFlight.count() > 0) continue;
      const markEnds = accounts.map((a) => sandbox.admin.userAgent(a).refreshAt).filter((t) => t !== null).map((t) => t - clock.now() - MARK_MARGIN_MS);
      const skip = Math.min(due - clock.monotonic(), ...markEnds, 14 * DAY - elapsed);
      if (skip > 0) clock.skip(skip);
    }
    const days = (clock.now() - wallStart) / DAY;
    const beats = sandbox.log.requests.filter((r) => r.endpoint === 'set_user_agent');
    const gaps = beats.slice(1).map((r, i) => r.at - (beats[i]?.at ?? 0));
    console.log(`a fortnight (${days.toFixed(1)} days) of repricing every 6 h: ${runs.length} runs, ${counts.applied} changes applied on their own, ${counts.waiting} marked left waiting, `
      + `${beats.length} beats (longest gap ${(Math.max(...gaps) / 60_000).toFixed(1)} min), ${sandbox.log.counters.count429} × 429, the trader's first request after `
      + `${(((trader.firstAt ?? NaN) - (trader.startedAt ?? NaN)) / 1000).toFixed(1)} s (a slot: ${SLOT_MS / 1000} s)`);

    expect(problems).toEqual([]);
    // Every 6 h: 56 runs, give or take the fortnight's edges; the run in the outage priced from what the desk held.
    expect(runs.length).toBeGreaterThanOrEqual(55);
    expect(counts.applied).toBeGreaterThan(STRANGE);
    expect(counts.waiting).toBeGreaterThan(0);
    // The jumps were left to the trader, each marked in the runs that met it.
    expect(beforeJump.size).toBe(3);
    expect(runs.some((r) => (r.waitingWhy.jump ?? 0) + (r.waitingWhy.rise ?? 0) > 0)).toBe(true);
    expect(counts.underFloor).toBe(0);
    const service = listed();
    for (const l of strange) expect({ asset: l.asset_id, under: (service.get(l.asset_id)?.price ?? 0) < floorOf(pricedb.cost(l.sku)) }).toEqual({ asset: l.asset_id, under: false });
    // The mark held all along, as the simulator saw it.
    expect(lapses).toBe(0);
    expect(gaps.filter((g) => g >= 600_000)).toEqual([]);
    expect(ws.heartbeat.state.status).not.toBe('lapsed');
    expect(sandbox.log.counters.count429).toBe(0);
    // The trader's apply went within a slot of its start, and did all of it.
    expect(trader.startedAt).not.toBeNull();
    expect((trader.firstAt ?? Infinity) - (trader.startedAt ?? 0)).toBeLessThanOrEqual(SLOT_MS);
    for (const l of others) expect(service.get(l.asset_id)?.price).toBe(499);
  }, 180_000);
});
