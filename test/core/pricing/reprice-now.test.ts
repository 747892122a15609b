import { describe, expect, it } from 'vitest';
import { createCostLedger } from '../../../src-main/core/costs/cost-ledger.ts';
import { costMarks } from '../../../src-main/core/costs/cost-marks.ts';
import { readCostCsv } from '../../../src-main/core/costs/cost-csv.ts';
import { createDraftService } from '../../../src-main/core/drafts/draft-service.ts';
import { createPricingService } from '../../../src-main/core/pricing/pricing-service.ts';
import { createItemNames } from '../../../src-main/core/items/item-names.ts';
import { createBulkJobs } from '../../../src-main/core/bulk/bulk-jobs.ts';
import { createApplyService } from '../../../src-main/core/apply/apply-draft.ts';
import { confirmationOf } from '../../../src-shared/price-guard.ts';
import { DEFAULT_PRICE_GUARD } from '../../../src-shared/price-rules.ts';
import { DEFAULT_COST_GUARD } from '../../../src-shared/cost-guard.ts';
import { applyFixture } from '../apply/support.ts';
import { expectedMark, expectedPrice, isStrangeWeapon, sellCents, strangeWeaponsRule } from '../../support/reprice-expect.ts';

const start = applyFixture(60, { live: { sandbox: { pastDays: 0, inventorySize: 20_000 } } });
const names = createItemNames();

describe('reprice now', () => {
  it('prices 500 Strange weapons by a rule into a draft whose every row says why, as worked out from the simulator; the guard marks what it must; applied, the listings stand there', async () => {
    const s = await start();
    const { sandbox } = s.live;
    // 300 listed at $1.50 (cheap items come out as deep cuts), 200 a tenth over what the rule will make of them (gentle cuts:
    // those the floor lifts go under cost plus the guard's margin).
    const first = sandbox.admin.seedListingsOf(300, (a) => isStrangeWeapon(a.sku), 150);
    const more = sandbox.admin.inventory().filter((a) => isStrangeWeapon(a.sku)).slice(0, 200);
    const listedAt = new Map(first.map((l) => [l.asset_id, 150]));
    for (const a of more) {
      const want = expectedPrice(sellCents(sandbox.pricedb, a.sku), sandbox.pricedb.cost(a.sku), 3, 5).price;
      listedAt.set(a.asset_id, Math.round(want * 1.1) + 1);
    }
    const listed = [...first, ...more.flatMap((a) => sandbox.admin.seedListingsOf(1, (b) => b.asset_id === a.asset_id, listedAt.get(a.asset_id) ?? 150))];
    s.adopt(listed);
    // Two listings of the trader's are in another draft: the reprice leaves them.
    const other = s.drafts.create('my edits');
    s.drafts.addChanges(other.id, [{ kind: 'listing.edit', asset_id: listed[0]?.asset_id ?? '', price: 1_600 }]);
    const ledger = createCostLedger({ store: s.t.store });
    const bySku = new Map<string, number>();
    for (const l of listed) bySku.set(l.sku, (bySku.get(l.sku) ?? 0) + 1);
    const csv = ['sku,cost_cents,quantity', ...[...bySku].map(([sku, n]) => `${sku},${sandbox.pricedb.cost(sku)},${n}`)].join('\n');
    const read = readCostCsv(csv, null);
    expect(read.errors).toEqual([]);
    ledger.setManual(read.costs);
    const drafts = createDraftService({ store: s.t.store, repos: s.t.repos, bulk: createBulkJobs, references: costMarks(ledger, () => DEFAULT_COST_GUARD) });
    const pricing = createPricingService({
      store: s.t.store, repos: s.t.repos, clock: s.live.clock, drafts, costs: ledger, names, guard: () => DEFAULT_PRICE_GUARD, pricedbUrl: sandbox.pricedb.url,
    });
    await pricing.sources.readNow('pricedb');
    // The simulator prices on the hour: the answer the desk read is the one at the time it read.
    const readAt = sandbox.admin.now();
    pricing.addRule(strangeWeaponsRule());
    const result = await pricing.repriceNow();
    expect(drafts.current()).toBe(result.draftId);

    const rows = pricing.page(result.runId, null, 0, 500).rows;
    expect(pricing.page(result.runId, null, 0, 500).total).toBe(rows.length);
    const byKey = new Map(rows.map((r) => [r.key, r]));
    let marked = 0;
    const expected = new Map<string, number>();
    for (const l of listed.slice(1)) {
      // The simulator's prices are taken on the hour: the rule read the same answer.
      const source = sellCents(sandbox.pricedb, l.sku, readAt);
      const cost = sandbox.pricedb.cost(l.sku);
      const want = expectedPrice(source, cost, 3, 5);
      const row = byKey.get(l.asset_id);
      const before = listedAt.get(l.asset_id) ?? 0;
      if (want.price === before) {
        expect(row).toBeUndefined();
        continue;
      }
      expected.set(l.asset_id, want.price);
      expect(row).toMatchObject({ outcome: 'change', before, after: want.price });
      expect(row?.reason).toContain(`pricedb.io sell ${(source / 100).toFixed(2)}, −3 %, round to x.99`);
      expect(row?.reason).toContain(`${want.floored ? 'under its floor' : 'floor'} ${(Math.ceil((cost * 105) / 100) / 100).toFixed(2)} from cost ${(cost / 100).toFixed(2)} + 5 %`);
      const mark = expectedMark(before, want.price, cost);
      expect({ key: l.asset_id, mark: row?.mark }).toEqual({ key: l.asset_id, mark });
      if (mark !== null) marked += 1;
    }
    expect(byKey.get(listed[0]?.asset_id ?? '')).toMatchObject({ outcome: 'held', reason: 'in your draft “my edits”: it stays until that draft is applied or discarded' });
    expect(result).toMatchObject({ changed: expected.size, marked, held: 1, unchanged: 499 - expected.size });
    // Deep cuts and floor-raised rows are in it, as the guard counts them too.
    const guard = (await drafts.review(result.draftId ?? '')).guard;
    expect(guard.listings.drops + (guard.listings.underCost ?? 0) + (guard.listings.underMargin ?? 0) + guard.listings.rises).toBe(marked);
    expect(guard.listings.drops).toBeGreaterThan(0);
    expect(guard.listings.underMargin ?? 0).toBeGreaterThan(0);

    const apply = createApplyService({ store: s.t.store, repos: s.t.repos, drafts, scheduler: s.live.scheduler });
    expect(() => apply.apply(result.draftId ?? '')).toThrow(/price guard marks/);
    const done = await apply.apply(result.draftId ?? '', { confirmGuard: confirmationOf(guard) }).done;
    expect(done).toMatchObject({ state: 'done', itemsDone: expected.size });
    const live = new Map(sandbox.admin.listings().map((l) => [l.asset_id, l.price]));
    for (const [asset, price] of expected) expect({ asset, price: live.get(asset) }).toEqual({ asset, price });
    drafts.dispose();
    await pricing.stop();
  });
});
