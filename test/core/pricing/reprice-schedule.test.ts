import { describe, expect, it } from 'vitest';
import { createCostLedger } from '../../../src-main/core/costs/cost-ledger.ts';
import { costMarks } from '../../../src-main/core/costs/cost-marks.ts';
import { createDraftService } from '../../../src-main/core/drafts/draft-service.ts';
import { createPricingService } from '../../../src-main/core/pricing/pricing-service.ts';
import { createRepriceSchedule } from '../../../src-main/core/pricing/reprice-schedule.ts';
import { createBulkJobs } from '../../../src-main/core/bulk/bulk-jobs.ts';
import { createApplyService } from '../../../src-main/core/apply/apply-draft.ts';
import { DEFAULT_PRICE_GUARD } from '../../../src-shared/price-rules.ts';
import { DEFAULT_COST_GUARD } from '../../../src-shared/cost-guard.ts';
import { applyFixture } from '../apply/support.ts';
import { expectedMark, expectedPrice, isStrangeWeapon, sellCents, strangeWeaponsRule } from '../../support/reprice-expect.ts';

const start = applyFixture(60, { live: { sandbox: { pastDays: 0, inventorySize: 6_000 } } });

/**
 * 40 Strange weapons listed: 20 at $1.50 (deep cuts or rises), 20 a tenth over what the rule makes of them (gentle cuts,
 * some lifted by the floor); their costs set; the rule "pricedb sell −3 %, round to x.99, floor cost + 5 %"; the schedule.
 */
async function setup() {
  const s = await start();
  const { sandbox } = s.live;
  // 20 listed at $1.50 (deep cuts or rises), 20 a tenth over what the rule makes of them (gentle cuts, some lifted by the floor).
  const cheap = sandbox.admin.seedListingsOf(20, (a) => isStrangeWeapon(a.sku), 150);
  const listedAt = new Map(cheap.map((l) => [l.asset_id, 150]));
  const more = sandbox.admin.inventory().filter((a) => isStrangeWeapon(a.sku) && !listedAt.has(a.asset_id)).slice(0, 20);
  for (const a of more) listedAt.set(a.asset_id, Math.round(expectedPrice(sellCents(sandbox.pricedb, a.sku), sandbox.pricedb.cost(a.sku), 3, 5).price * 1.1) + 1);
  const listed = [...cheap, ...more.flatMap((a) => sandbox.admin.seedListingsOf(1, (b) => b.asset_id === a.asset_id, listedAt.get(a.asset_id) ?? 150))];
  s.adopt(listed);
  const costs = createCostLedger({ store: s.t.store });
  const units = new Map<string, number>();
  for (const l of listed) units.set(l.sku, (units.get(l.sku) ?? 0) + 1);
  costs.setManual([...units].map(([sku, quantity]) => ({ sku, unitCost: sandbox.pricedb.cost(sku), quantity })));
  const drafts = createDraftService({ store: s.t.store, repos: s.t.repos, bulk: createBulkJobs, references: costMarks(costs, () => DEFAULT_COST_GUARD) });
  const pricing = createPricingService({
    store: s.t.store, repos: s.t.repos, clock: s.live.clock, drafts, costs, names: null, guard: () => DEFAULT_PRICE_GUARD, pricedbUrl: sandbox.pricedb.url,
  });
  pricing.addRule(strangeWeaponsRule());
  const apply = createApplyService({ store: s.t.store, repos: s.t.repos, drafts, scheduler: s.live.scheduler });
  // Each job the scheduler starts, by lane: when it first sent and when it ended (monotonic ms).
  const jobs: { lane: string; firstSentAt: number | null; endedAt: number | null }[] = [];
  const startJob = s.live.scheduler.startJob.bind(s.live.scheduler);
  s.live.scheduler.startJob = (tasks, options) => {
    const seen = { lane: options?.lane ?? 'bulk', firstSentAt: null as number | null, endedAt: null as number | null };
    jobs.push(seen);
    const job = startJob(tasks, options);
    job.on('progress', (p) => {
      if (p.requestsSent > 0) seen.firstSentAt ??= s.live.clock.monotonic();
      if (p.state === 'done') seen.endedAt ??= s.live.clock.monotonic();
    });
    return job;
  };
  const schedule = createRepriceSchedule({
    pricing, apply, activity: s.t.repos.activity, clock: s.live.clock, draftName: (id) => s.t.repos.drafts.get(id)?.name ?? null,
  });
  return { s, sandbox, listed, listedAt, drafts, pricing, apply, schedule, jobs };
}

describe('repricing on a schedule', () => {
  it('applies on its own, in the background lane, every change the guard does not mark; the marked ones wait in a draft; the activity log says so', async () => {
    const { sandbox, listed, listedAt, drafts, pricing, schedule, jobs, s } = await setup();
    const news = await schedule.runNow();
    // The answer the desk read is the simulator's at the time it read (it prices on the hour).
    const readAt = sandbox.admin.now();
    const applied = new Map<string, number>();
    const waiting = new Map<string, number>();
    for (const l of listed) {
      const cost = sandbox.pricedb.cost(l.sku);
      const want = expectedPrice(sellCents(sandbox.pricedb, l.sku, readAt), cost, 3, 5).price;
      const before = listedAt.get(l.asset_id) ?? 0;
      if (want === before) continue;
      (expectedMark(before, want, cost) === null ? applied : waiting).set(l.asset_id, want);
    }
    expect(applied.size).toBeGreaterThan(0);
    expect(waiting.size).toBeGreaterThan(0);
    expect(news).toMatchObject({ applied: applied.size, failed: 0, waiting: waiting.size, held: 0, problem: null });
    expect(jobs.map((j) => j.lane)).toEqual(['background']);

    // On the service: the unmarked at their new price, the marked where they stood.
    const live = new Map(sandbox.admin.listings().map((l) => [l.asset_id, l.price]));
    for (const [asset, price] of applied) expect({ asset, price: live.get(asset) }).toEqual({ asset, price });
    for (const asset of waiting.keys()) expect({ asset, price: live.get(asset) }).toEqual({ asset, price: listedAt.get(asset) });
    // The marked wait in their draft, for the trader.
    const entries = drafts.entries(news.waitingDraftId ?? '');
    expect(new Set(entries.map((e) => e.target))).toEqual(new Set([...waiting.keys()].map((asset) => `L:${asset}`)));
    expect(news.waitingDraftName).toMatch(/marked by the price guard$/);
    // In the activity log, with the apply's run (undone like any apply).
    expect(news.applyRunId).not.toBeNull();
    const note = s.t.repos.activity.list({ limit: 50 }).find((e) => e.note?.startsWith('Scheduled reprice'));
    expect(note?.note).toBe(`Scheduled reprice: ${applied.size} prices applied on their own; ${waiting.size} marked by the price guard wait in “${news.waitingDraftName}”`);
    await schedule.stop();
    drafts.dispose();
    await pricing.stop();
  });

  it('waits for the trader\'s own apply to end before it sends its own', async () => {
    const { sandbox, drafts, pricing, apply, schedule, jobs, s } = await setup();
    // The trader applies 600 price changes of other listings: six requests, the sixth a minute after the first five.
    const others = sandbox.admin.seedListingsOf(600, (a) => !isStrangeWeapon(a.sku), 500);
    s.adopt(others);
    const mine = drafts.create('my prices');
    drafts.addChanges(mine.id, others.map((l) => ({ kind: 'listing.edit' as const, asset_id: l.asset_id, price: 499 })));
    const theirs = apply.apply(mine.id);
    const news = await schedule.runNow();
    expect((await theirs.done).state).toBe('done');
    expect(news.applied).toBeGreaterThan(0);
    const [trader, background] = jobs;
    expect([trader?.lane, background?.lane]).toEqual(['bulk', 'background']);
    expect(background?.firstSentAt ?? 0).toBeGreaterThanOrEqual(trader?.endedAt ?? Infinity);
    await schedule.stop();
    drafts.dispose();
    await pricing.stop();
  });

  it('leaves a jump of the source to the trader however often the jumped price is read before the run: marked (by the guard beyond its rise multiple, as a jump from ×5), waiting, not applied on its own', async () => {
    const { sandbox, drafts, pricing, schedule, listedAt } = await setup();
    const first = await schedule.runNow();
    expect(first.applied).toBeGreaterThan(0);
    // Two listings of $10 or more the first run priced on their own at the source's price less 3 % (no floor, little
    // rounding): one's source price jumps ×10, the other's ×6 (under the guard's own rise multiple, 10).
    const prices = () => new Map(sandbox.admin.listings().map((l) => [l.asset_id, l.price]));
    const settled = pricing.page(first.runId, 'change', 0, 500).rows
      .filter((r) => r.mark === null && !r.reason.includes('under its floor') && (r.after ?? 0) >= 1_000 && listedAt.has(r.key)).slice(0, 2).map((r) => r.key);
    expect(settled).toHaveLength(2);
    const skuOf = new Map(sandbox.admin.listings().map((l) => [l.asset_id, l.sku]));
    const jump = (drift: number) => settled.forEach((asset, i) => sandbox.pricedb.faults.jumps.set(skuOf.get(asset) ?? '', { factor: (i === 0 ? 10 : 6) * drift, from: sandbox.admin.now() }));
    // The source is read on its own between runs: the jump, then the jumped price drifting, before the run reads it once more.
    jump(1);
    await pricing.sources.readNow();
    jump(1.03);
    await pricing.sources.readNow();
    jump(0.98);
    const before = prices();
    const news = await schedule.runNow();
    const rows = pricing.page(news.runId, 'change', 0, 500).rows;
    const [ten, six] = settled.map((asset) => rows.find((r) => r.key === asset));
    expect(ten?.mark).not.toBeNull();
    expect(six?.mark).toBe('jump');
    for (const row of [ten, six]) expect(row?.reason).toMatch(/; pricedb\.io sell jumped ×\d+\.\d from its steady \d+\.\d\d to \d+\.\d\d$/);
    // Neither applied: each stands where the first run left it, and waits in the marked draft.
    for (const asset of settled) expect(prices().get(asset)).toBe(before.get(asset));
    const waitingTargets = drafts.entries(news.waitingDraftId ?? '').map((e) => e.target);
    for (const asset of settled) expect(waitingTargets).toContain(`L:${asset}`);
    await schedule.stop();
    drafts.dispose();
    await pricing.stop();
  });
});
