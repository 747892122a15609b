import { afterEach, describe, expect, it } from 'vitest';
import { refuseUnconfirmedPrices } from '../../../src-main/core/apply/apply-checks.ts';
import { createCostLedger } from '../../../src-main/core/costs/cost-ledger.ts';
import { costMarks } from '../../../src-main/core/costs/cost-marks.ts';
import { readCostCsv } from '../../../src-main/core/costs/cost-csv.ts';
import { createDraftService } from '../../../src-main/core/drafts/draft-service.ts';
import { confirmationOf } from '../../../src-shared/price-guard.ts';
import { DEFAULT_COST_GUARD, type CostGuard } from '../../../src-shared/cost-guard.ts';
import { MAIN, tempStore, type TempStore } from '../store/temp-store.ts';

const stores: TempStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.dispose();
});

/** Four listings at $12.00 of SKUs that cost $10.00 (two), one with no cost known, one at $1.00. */
function setup(guard: CostGuard = DEFAULT_COST_GUARD) {
  const t = tempStore();
  stores.push(t);
  t.repos.accounts.upsert({ account_id: MAIN, kind: 'main' });
  const rows = [['1', '200;11', 1_200], ['2', '200;11', 1_200], ['3', '201;11', 1_200], ['4', '202;11', 1_200]] as const;
  t.repos.listings.upsertMany(rows.map(([asset, sku, price]) => ({ asset_id: asset, listing_id: `L${asset}`, sku, price, promoted: 0, game: '440', account: MAIN })));
  const ledger = createCostLedger({ store: t.store });
  ledger.setManual([{ sku: '200;11', unitCost: 1_000, quantity: 2 }, { sku: '202;11', unitCost: 100, quantity: 1 }]);
  const drafts = createDraftService({ store: t.store, repos: t.repos, references: costMarks(ledger, () => guard) });
  return { t, ledger, drafts };
}

describe('the price guard against cost', () => {
  it('marks a listing cut under its cost, and under cost plus the margin, in the review and its rows; an apply needs them confirmed', async () => {
    const { drafts } = setup();
    const { id } = drafts.create('reprice');
    drafts.addChanges(id, [
      { kind: 'listing.edit', asset_id: '1', price: 1_099 }, // under cost + 10 %
      { kind: 'listing.edit', asset_id: '2', price: 999 }, // under cost
      { kind: 'listing.edit', asset_id: '3', price: 100 }, // no cost known: only the deep cut
      { kind: 'listing.edit', asset_id: '4', price: 1_150 }, // well over its cost
    ]);
    const review = await drafts.review(id);
    expect(review.guard.listings).toMatchObject({ drops: 1, underCost: 1, underMargin: 1 });
    const concerns = new Map(drafts.reviewPage(id, { show: 'open', offset: 0, limit: 10 }).rows.map((r) => [r.target, r.concern]));
    expect(concerns).toEqual(new Map([['1', 'under_margin'], ['2', 'under_cost'], ['3', 'drop'], ['4', null]]));
    expect(() => refuseUnconfirmedPrices(review.guard, { listings: { drops: 1, belowFloor: 0, rises: 0 }, buyOrders: { drops: 0, belowFloor: 0, rises: 0 }, undercuts: 0 }))
      .toThrow(/3 price changes the price guard marks/);
    expect(() => refuseUnconfirmedPrices(review.guard, confirmationOf(review.guard))).not.toThrow();
    expect(confirmationOf(review.guard).listings).toEqual({ drops: 1, belowFloor: 0, rises: 0, underCost: 1, underMargin: 1 });
  });

  it('marks nothing against cost when the trader turned those marks off, and a cost set after a review is seen by the next', async () => {
    const { drafts, ledger } = setup({ markUnderCost: false, marginPercent: null });
    const { id } = drafts.create('reprice');
    drafts.addChanges(id, [{ kind: 'listing.edit', asset_id: '2', price: 999 }]);
    expect(drafts.guard(id).listings).toMatchObject({ drops: 0 });
    expect(drafts.guard(id).listings.underCost).toBeUndefined();
    const marked = setup();
    const d2 = marked.drafts.create('again').id;
    marked.drafts.addChanges(d2, [{ kind: 'listing.edit', asset_id: '3', price: 1_100 }]);
    expect(marked.drafts.guard(d2).listings.underCost).toBeUndefined();
    marked.ledger.setManual([{ sku: '201;11', unitCost: 1_300, quantity: 1 }]);
    expect(marked.drafts.guard(d2).listings.underCost).toBe(1);
    void ledger;
  });

  it('marks a new listing under its cost as an edit is; one far under what its item fetches is said as that, once', async () => {
    const { drafts } = setup();
    const { id } = drafts.create('new');
    drafts.addChanges(id, [
      { kind: 'listing.create', asset_id: '11', price: 1_099, promoted: 0, sku: '200;11' }, // under cost + 10 %
      { kind: 'listing.create', asset_id: '12', price: 999, promoted: 0, sku: '200;11' }, // under cost
      { kind: 'listing.create', asset_id: '13', price: 500, promoted: 0, sku: '200;11' }, // far under its lowest listing ($12.00), and under cost
      { kind: 'listing.create', asset_id: '14', price: 5, promoted: 0, sku: '203;11' }, // no cost, nothing listed or sold
    ]);
    const review = await drafts.review(id);
    expect(review.guard.listings).toMatchObject({ drops: 0, underCost: 1, underMargin: 1 });
    expect(review.guard.undercuts.count).toBe(1);
    const concerns = new Map(drafts.reviewPage(id, { show: 'open', offset: 0, limit: 10 }).rows.map((r) => [r.target, r.concern]));
    expect(concerns).toEqual(new Map([['11', 'under_margin'], ['12', 'under_cost'], ['13', 'under'], ['14', null]]));
    expect(() => refuseUnconfirmedPrices(review.guard, undefined))
      .toThrow(/2 price changes the price guard marks .* and 1 new listing priced far under the item's lowest listing or last sale/);
    expect(() => refuseUnconfirmedPrices(review.guard, confirmationOf(review.guard))).not.toThrow();
  });
});

describe('costs by CSV', () => {
  it('reads sku or name, cost in dollars or cents and a quantity, and names every refused line', () => {
    const names = (name: string) => (name === 'Mann Co. Supply Crate Key' ? { ok: true as const, sku: '5021;6' } : { ok: false as const, message: 'no item has this name' });
    const csv = 'SKU,Name,Cost,Quantity\n200;11,,10.95,2\n,Mann Co. Supply Crate Key,$1.80,\n,Bogus Hat,1,1\n201;11,,x,1\nnot a sku,,1,1\n202;11,,,\n';
    const read = readCostCsv(csv, names);
    expect(read.costs).toEqual([
      { sku: '200;11', unitCost: 1_095, quantity: 2 },
      { sku: '5021;6', unitCost: 180, quantity: 1 },
    ]);
    expect(read.errors).toEqual([
      { line: 4, reason: 'name “Bogus Hat”: no item has this name' },
      { line: 5, reason: 'cost “x” is not an amount' },
      { line: 6, reason: 'sku “not a sku” is not a SKU' },
      { line: 7, reason: 'no amount in cost' },
    ]);
    expect(readCostCsv('sku,cost_cents\n200;11,1095\n', null).costs).toEqual([{ sku: '200;11', unitCost: 1_095, quantity: 1 }]);
    expect(readCostCsv('item,price\n1,2\n', null).errors).toEqual([{ line: 1, reason: 'the header names no `sku` or `name` column' }]);
  });
});
