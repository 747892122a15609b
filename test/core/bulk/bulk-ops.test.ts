import { afterEach, describe, expect, it } from 'vitest';
import { cents } from '../../../src-shared/fields.ts';
import { priceProblem } from '../../../src-main/core/bulk/price-check.ts';
import { scalePrice } from '../../../src-shared/price-formula.ts';
import type { DraftEntry } from '../../../src-main/core/drafts/change.ts';
import { draftFixture, ledgerListing, MAIN, seedListings, type DraftFixture } from '../drafts/fixtures.ts';

let f: DraftFixture | undefined;
afterEach(() => f?.dispose());

const N = 50_000;

/** price by asset, as the draft would leave it (edits over the ledger). */
function pricesAfter(fx: DraftFixture, draftId: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const row of fx.t.repos.listings.all()) out.set(row.asset_id, row.price);
  for (const e of fx.drafts.entries(draftId)) {
    if (e.change.kind === 'listing.edit' || e.change.kind === 'listing.create') out.set(e.change.asset_id, e.change.price);
  }
  return out;
}

const comparable = (entries: DraftEntry[]) => entries.map((e) => [e.target, e.seq, e.status, JSON.stringify(e.change)]);

describe('scalePrice', () => {
  it('rounds exactly, without float error, to the nearest, up or down', async () => {
    // 1.15 * 100 is 114.99999999999999 in floats; in cents it must be 115.
    for (const mode of ['nearest', 'up', 'down'] as const) expect(scalePrice(100, 115, mode)).toBe(115);
    expect(scalePrice(999, 115, 'nearest')).toBe(1149); // 1148.85
    expect(scalePrice(999, 115, 'down')).toBe(1148);
    expect(scalePrice(999, 115, 'up')).toBe(1149);
    expect(scalePrice(10, 95, 'nearest')).toBe(10); // 9.5 rounds half up
    expect(scalePrice(3, 33.3333, 'down')).toBe(0);
  });

  it('rounds to a step grid such as prices ending in 9 cents', async () => {
    const ending9 = { size: 10, offset: 9 };
    expect(scalePrice(999, 115, 'nearest', ending9)).toBe(1149); // 1148.85 → 1149
    expect(scalePrice(999, 115, 'down', ending9)).toBe(1139);
    expect(scalePrice(1000, 100, 'up', ending9)).toBe(1009);
    expect(scalePrice(1000, 100, 'nearest', ending9)).toBe(999);
    expect(scalePrice(1234, 100, 'nearest', { size: 100, offset: 99 })).toBe(1199);
    expect(scalePrice(5, 100, 'down', ending9)).toBe(-1); // below the grid: the caller refuses it
  });
});

describe('bulk operations on 50,000 listings', () => {
  it('multiply by a percentage sets every selected row exactly, on disk the moment it returns', async () => {
    f = draftFixture();
    seedListings(f.t, N);
    const { id } = f.drafts.create('bulk');
    const before = pricesAfter(f, id);
    const r = await f.bulk(id, 'listings', { filter: { promoted: 1 } }, { op: 'multiply', percent: 92.5, rounding: 'down', step: { size: 10, offset: 9 } });
    expect(r.refused).toEqual([]);
    const promoted = f.t.repos.listings.all().filter((l) => l.promoted === 1);
    const expected = new Map(before);
    let changed = 0;
    for (const l of promoted) {
      const p = scalePrice(l.price, 92.5, 'down', { size: 10, offset: 9 });
      if (p !== l.price) changed += 1;
      expected.set(l.asset_id, p);
    }
    expect(r.changed).toBe(changed);
    expect(r.matched).toBe(promoted.length);
    expect(pricesAfter(f, id)).toEqual(expected);
    const live = comparable(f.drafts.entries(id));

    // A crash right after: what was stored is all there is, and it is the whole edit.
    f.restart();
    expect(comparable(f.drafts.entries(id))).toEqual(live);
  });

  it('refuses a whole operation whose result would be invalid for some rows, and reports them', async () => {
    f = draftFixture();
    seedListings(f.t, N);
    const { id } = f.drafts.create('bulk');
    // Prices run 100..5099; subtracting 150 leaves 50 rows at 0 or below... per 5000 block.
    const r = await f.bulk(id, 'listings', { filter: {} }, { op: 'addCents', cents: -150 });
    const tooLow = f.t.repos.listings.all().filter((l) => l.price - 150 <= 0).map((l) => l.asset_id);
    expect(tooLow.length).toBeGreaterThan(0);
    expect(r.changed).toBe(0);
    // Grouped by reason, counted, with a few of the rows named: the reply stays small however many rows are refused.
    expect(r.refused).toEqual([{ reason: expect.stringMatching(/more than 0 cents/), count: tooLow.length, sample: expect.any(Array) }]);
    expect(r.refused[0]?.sample.length).toBe(5);
    for (const key of r.refused[0]?.sample ?? []) expect(tooLow).toContain(key);
    expect(f.drafts.entries(id)).toEqual([]);
  });

  it('applies ops one after another over filters: SKU, price range, note text, account', async () => {
    f = draftFixture();
    seedListings(f.t, N);
    const { id } = f.drafts.create('bulk');
    const rows = f.t.repos.listings.all();
    const bySku = rows.filter((l) => l.sku === '5007;6');
    expect((await f.bulk(id, 'listings', { filter: { sku: '5007;6' } }, { op: 'setPrice', cents: 777 })).matched).toBe(bySku.length);
    // Filters read a row's own (ledger) values, as the table shows them: a row repriced in the
    // draft still matches the price range it had, and the new edit lands on the draft's price.
    const inRange = rows.filter((l) => l.price >= 100 && l.price <= 120);
    expect((await f.bulk(id, 'listings', { filter: { minPrice: 100, maxPrice: 120 } }, { op: 'addCents', cents: 1 })).changed).toBe(inRange.length);
    const cheap = inRange.filter((l) => l.sku !== '5007;6');
    const noted = rows.filter((l) => l.user_note.includes('fast'));
    const n = await f.bulk(id, 'listings', { filter: { note: 'FAST', account: MAIN } }, { op: 'setPromoted', value: 1 });
    expect(n.matched).toBe(noted.length);
    expect(n.changed).toBe(noted.filter((l) => l.promoted === 0).length);
    const entries = new Map(f.drafts.entries(id).map((e) => [e.target, e.change]));
    for (const l of bySku.filter((r) => r.price > 120)) expect(entries.get(`L:${l.asset_id}`)).toMatchObject({ price: 777 });
    for (const l of cheap) expect(entries.get(`L:${l.asset_id}`)).toMatchObject({ price: l.price + 1 });
    for (const l of inRange.filter((r) => r.sku === '5007;6')) expect(entries.get(`L:${l.asset_id}`)).toMatchObject({ price: 778 });
    for (const l of noted) expect(entries.get(`L:${l.asset_id}`) ?? l).toMatchObject({ promoted: 1 });
    // Setting 777 again changes only the rows the price-range edit moved to 778; once more changes nothing, and stores nothing.
    expect((await f.bulk(id, 'listings', { filter: { sku: '5007;6' } }, { op: 'setPrice', cents: 777 })).changed).toBe(inRange.filter((r) => r.sku === '5007;6').length);
    const stored = f.drafts.entries(id).length;
    expect((await f.bulk(id, 'listings', { filter: { sku: '5007;6' } }, { op: 'setPrice', cents: 777 })).changed).toBe(0);
    expect(f.drafts.entries(id)).toHaveLength(stored);
  });

  it('selects by IDs, leaving unknown ones out with the reason, and reaches creates made in the draft', async () => {
    f = draftFixture();
    seedListings(f.t, 10);
    const { id } = f.drafts.create('bulk');
    f.drafts.addChanges(id, [{ kind: 'listing.create', asset_id: '77', price: 100, promoted: 0 }]);
    const r = await f.bulk(id, 'listings', { ids: ['77', '1000001', '5'] }, { op: 'setNote', note: 'hi' });
    expect(r.skipped).toEqual([{ reason: expect.stringMatching(/not in the ledger/), count: 1, sample: ['5'] }]);
    expect(r.refused).toEqual([]);
    expect(r.changed).toBe(2);
    // Both rows were changed by the one edit (one sequence number).
    expect(f.drafts.entries(id).map((e) => e.change)).toEqual(expect.arrayContaining([
      expect.objectContaining({ kind: 'listing.create', asset_id: '77', user_note: 'hi' }),
      expect.objectContaining({ kind: 'listing.edit', asset_id: '1000001', user_note: 'hi', listing_id: 'L1000001' }),
    ]));
    expect(f.drafts.entries(id)).toHaveLength(2);
    expect((await f.bulk(id, 'listings', { ids: ['77'] }, { op: 'setQuantity', quantity: 2 })).refused[0]?.reason).toMatch(/does not apply/);
  });

  it('leaves out rows whose listing ID is unknown, with a count and the reason, and edits the rest (it never blocks the edit)', async () => {
    f = draftFixture();
    seedListings(f.t, 1_000);
    // 100 creates whose response was lost, marked done: in the ledger without a listing ID.
    f.t.repos.listings.upsertMany(Array.from({ length: 100 }, (_, i) => ({ ...ledgerListing(String(9_000 + i)), listing_id: null })));
    const { id } = f.drafts.create('bulk');
    const r = await f.bulk(id, 'listings', { filter: {} }, { op: 'addCents', cents: 5 });
    expect(r.refused).toEqual([]);
    expect(r.changed).toBe(1_000);
    expect(r.skipped).toEqual([{ reason: expect.stringMatching(/listing ID is unknown/), count: 100, sample: expect.any(Array) }]);
    expect(f.drafts.entries(id).filter((e) => e.change.kind === 'listing.edit')).toHaveLength(1_000);
  });
});

describe('bulk operations on buy orders', () => {
  it('pauses, resumes and sets quantities; a draft-created order is left out of a pause', async () => {
    f = draftFixture();
    f.t.repos.buyOrders.upsertMany([
      { sku: 'a;1', account: MAIN, price: 100, quantity: 2 },
      { sku: 'a;2', account: MAIN, price: 100, quantity: 2, active: 0 },
    ]);
    const { id } = f.drafts.create('d');
    expect((await f.bulk(id, 'buyOrders', { filter: {} }, { op: 'setActive', value: 0 })).changed).toBe(1);
    // "Paused" matches the orders paused in the ledger, not the one the draft pauses.
    expect((await f.bulk(id, 'buyOrders', { filter: { active: 0 } }, { op: 'setQuantity', quantity: 9 })).changed).toBe(1);
    expect((await f.bulk(id, 'buyOrders', { ids: ['a;1'] }, { op: 'setQuantity', quantity: 9 })).changed).toBe(1);
    expect(f.drafts.entries(id).map((e) => e.change)).toEqual([
      { kind: 'buyOrder.edit', account: MAIN, sku: 'a;2', price: 100, quantity: 9, active: 0 },
      { kind: 'buyOrder.edit', account: MAIN, sku: 'a;1', price: 100, quantity: 9, active: 0 },
    ]);
    f.drafts.addChanges(id, [{ kind: 'buyOrder.create', sku: 'b;1', price: 5, quantity: 1 }]);
    const r = (await f.bulk(id, 'buyOrders', { ids: ['b;1'] }, { op: 'setActive', value: 0 }));
    expect(r.refused).toEqual([]);
    expect(r.skipped).toEqual([{ reason: expect.stringMatching(/cannot be paused/), count: 1, sample: ['b;1'] }]);
    expect((await f.bulk(id, 'buyOrders', { ids: ['b;1'] }, { op: 'setPromoted', value: 1 })).refused[0]?.reason).toMatch(/does not apply/);
  });

  it('keeps a single edit made after a bulk edit, and a removal after one, across a restart', async () => {
    f = draftFixture();
    f.t.repos.buyOrders.upsert({ sku: 'a;1', account: MAIN, price: 100, quantity: 2 });
    const { id } = f.drafts.create('d');
    await f.bulk(id, 'buyOrders', { filter: {} }, { op: 'setQuantity', quantity: 5 });
    f.drafts.addChanges(id, [{ kind: 'buyOrder.edit', sku: 'a;1', price: 150 }]);
    f.restart();
    expect(f.drafts.entries(id).map((e) => e.change)).toEqual([
      { kind: 'buyOrder.edit', account: MAIN, sku: 'a;1', price: 150, quantity: 5, active: 1 },
    ]);
    // A removal after a bulk edit stays removed.
    await f.bulk(id, 'buyOrders', { filter: {} }, { op: 'setNote', note: 'x' });
    f.drafts.removeChanges(id, ['B:a;1']);
    f.restart();
    expect(f.drafts.entries(id)).toEqual([]);
  });
});

describe('priceProblem', () => {
  it('agrees with the shared cents rule on every edge, and says what the rule says', async () => {
    for (const v of [1, 0, -1, 0.5, 99.99, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, Number.NaN, Infinity]) {
      const verdict = cents.safeParse(v);
      expect(priceProblem(v), String(v)).toBe(verdict.success ? null : verdict.error.issues[0]?.message);
    }
  });
});
