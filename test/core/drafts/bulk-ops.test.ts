import { afterEach, describe, expect, it } from 'vitest';
import { cents } from '../../../src-shared/fields.ts';
import { isValidPrice } from '../../../src-main/core/drafts/bulk-ops.ts';
import { scalePrice } from '../../../src-shared/price-formula.ts';
import type { DraftEntry } from '../../../src-main/core/drafts/change.ts';
import { draftFixture, MAIN, seedListings, type DraftFixture } from './fixtures.ts';

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
  it('rounds exactly, without float error, to the nearest, up or down', () => {
    // 1.15 * 100 is 114.99999999999999 in floats; in cents it must be 115.
    for (const mode of ['nearest', 'up', 'down'] as const) expect(scalePrice(100, 115, mode)).toBe(115);
    expect(scalePrice(999, 115, 'nearest')).toBe(1149); // 1148.85
    expect(scalePrice(999, 115, 'down')).toBe(1148);
    expect(scalePrice(999, 115, 'up')).toBe(1149);
    expect(scalePrice(10, 95, 'nearest')).toBe(10); // 9.5 rounds half up
    expect(scalePrice(3, 33.3333, 'down')).toBe(0);
  });

  it('rounds to a step grid such as prices ending in 9 cents', () => {
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
  it('multiply by a percentage sets every selected row exactly, and survives a crash before folding', () => {
    f = draftFixture();
    seedListings(f.t, N);
    const { id } = f.drafts.create('bulk');
    const before = pricesAfter(f, id);
    const r = f.drafts.bulk(id, 'listings', { filter: { promoted: 1 } }, { op: 'multiply', percent: 92.5, rounding: 'down', step: { size: 10, offset: 9 } });
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

    // Crash: the deferred folding never ran; the stored patch replays on load.
    f.restart();
    expect(comparable(f.drafts.entries(id))).toEqual(live);
    // Fold, restart again: rows now come from draft_changes alone.
    f.drafts.flush(id);
    expect(f.t.store.db.prepare('SELECT count(*) AS n FROM draft_patches').get()).toEqual({ n: 0 });
    f.restart();
    expect(comparable(f.drafts.entries(id))).toEqual(live);
  });

  it('refuses a whole operation whose result would be invalid for some rows, and reports them', () => {
    f = draftFixture();
    seedListings(f.t, N);
    const { id } = f.drafts.create('bulk');
    // Prices run 100..5099; subtracting 150 leaves 50 rows at 0 or below... per 5000 block.
    const r = f.drafts.bulk(id, 'listings', { filter: {} }, { op: 'addCents', cents: -150 });
    const tooLow = f.t.repos.listings.all().filter((l) => l.price - 150 <= 0).map((l) => l.asset_id);
    expect(tooLow.length).toBeGreaterThan(0);
    expect(r.changed).toBe(0);
    expect(r.refused.map((x) => x.id).sort()).toEqual(tooLow.sort());
    expect(r.refused[0]?.reason).toMatch(/more than 0 cents/);
    expect(f.drafts.entries(id)).toEqual([]);
  });

  it('applies ops one after another over filters: SKU, price range, note text, account', () => {
    f = draftFixture();
    seedListings(f.t, N);
    const { id } = f.drafts.create('bulk');
    const rows = f.t.repos.listings.all();
    const bySku = rows.filter((l) => l.sku === '5007;6');
    expect(f.drafts.bulk(id, 'listings', { filter: { sku: '5007;6' } }, { op: 'setPrice', cents: 777 }).matched).toBe(bySku.length);
    const cheap = rows.filter((l) => l.sku !== '5007;6' && l.price >= 100 && l.price <= 120);
    expect(f.drafts.bulk(id, 'listings', { filter: { minPrice: 100, maxPrice: 120 } }, { op: 'addCents', cents: 1 }).changed)
      .toBe(cheap.length + bySku.filter(() => false).length);
    const noted = rows.filter((l) => l.user_note.includes('fast'));
    const n = f.drafts.bulk(id, 'listings', { filter: { note: 'FAST', account: MAIN } }, { op: 'setPromoted', value: 1 });
    expect(n.matched).toBe(noted.length);
    expect(n.changed).toBe(noted.filter((l) => l.promoted === 0).length);
    const entries = new Map(f.drafts.entries(id).map((e) => [e.target, e.change]));
    for (const l of bySku) expect(entries.get(`L:${l.asset_id}`)).toMatchObject({ price: 777 });
    for (const l of cheap) expect(entries.get(`L:${l.asset_id}`)).toMatchObject({ price: l.price + 1 });
    for (const l of noted) expect(entries.get(`L:${l.asset_id}`) ?? l).toMatchObject({ promoted: 1 });
    // An op that changes nothing stores nothing.
    expect(f.drafts.bulk(id, 'listings', { filter: { sku: '5007;6' } }, { op: 'setPrice', cents: 777 }).changed).toBe(0);
  });

  it('selects by IDs, refusing unknown ones, and reaches creates made in the draft', () => {
    f = draftFixture();
    seedListings(f.t, 10);
    const { id } = f.drafts.create('bulk');
    f.drafts.addChanges(id, [{ kind: 'listing.create', asset_id: '77', price: 100, promoted: 0 }]);
    const bad = f.drafts.bulk(id, 'listings', { ids: ['77', '1000001', '5'] }, { op: 'setNote', note: 'hi' });
    expect(bad.refused).toEqual([{ id: '5', reason: expect.stringMatching(/not in the ledger/) }]);
    const ok = f.drafts.bulk(id, 'listings', { ids: ['77', '1000001'] }, { op: 'setNote', note: 'hi' });
    expect(ok.changed).toBe(2);
    expect(f.drafts.entries(id).map((e) => e.change)).toEqual([
      expect.objectContaining({ kind: 'listing.create', asset_id: '77', user_note: 'hi' }),
      expect.objectContaining({ kind: 'listing.edit', asset_id: '1000001', user_note: 'hi', listing_id: 'L1000001' }),
    ]);
    expect(f.drafts.bulk(id, 'listings', { ids: ['77'] }, { op: 'setQuantity', quantity: 2 }).refused[0]?.reason).toMatch(/does not apply/);
  });
});

describe('bulk operations on buy orders', () => {
  it('pauses, resumes and sets quantities; a draft-created order cannot be paused', () => {
    f = draftFixture();
    f.t.repos.buyOrders.upsertMany([
      { sku: 'a;1', account: MAIN, price: 100, quantity: 2 },
      { sku: 'a;2', account: MAIN, price: 100, quantity: 2, active: 0 },
    ]);
    const { id } = f.drafts.create('d');
    expect(f.drafts.bulk(id, 'buyOrders', { filter: {} }, { op: 'setActive', value: 0 }).changed).toBe(1);
    expect(f.drafts.bulk(id, 'buyOrders', { filter: { active: 0 } }, { op: 'setQuantity', quantity: 9 }).changed).toBe(2);
    f.drafts.flush(id);
    expect(f.drafts.entries(id).map((e) => e.change)).toEqual([
      { kind: 'buyOrder.edit', account: MAIN, sku: 'a;1', price: 100, quantity: 9, active: 0 },
      { kind: 'buyOrder.edit', account: MAIN, sku: 'a;2', price: 100, quantity: 9, active: 0 },
    ]);
    f.drafts.addChanges(id, [{ kind: 'buyOrder.create', sku: 'b;1', price: 5, quantity: 1 }]);
    const r = f.drafts.bulk(id, 'buyOrders', { ids: ['b;1'] }, { op: 'setActive', value: 0 });
    expect(r.refused[0]?.reason).toMatch(/cannot be paused/);
    expect(f.drafts.bulk(id, 'buyOrders', { ids: ['b;1'] }, { op: 'setPromoted', value: 1 }).refused[0]?.reason).toMatch(/does not apply/);
  });

  it('keeps a single edit made after an unfolded bulk patch when the patch replays', () => {
    f = draftFixture();
    f.t.repos.buyOrders.upsert({ sku: 'a;1', account: MAIN, price: 100, quantity: 2 });
    const { id } = f.drafts.create('d');
    f.drafts.bulk(id, 'buyOrders', { filter: {} }, { op: 'setQuantity', quantity: 5 });
    f.drafts.addChanges(id, [{ kind: 'buyOrder.edit', sku: 'a;1', price: 150 }]);
    f.drafts.removeChanges(id, []);
    f.restart();
    expect(f.drafts.entries(id).map((e) => e.change)).toEqual([
      { kind: 'buyOrder.edit', account: MAIN, sku: 'a;1', price: 150, quantity: 5, active: 1 },
    ]);
    // A removal after the patch is not undone by the replay either.
    f.drafts.bulk(id, 'buyOrders', { filter: {} }, { op: 'setNote', note: 'x' });
    f.drafts.removeChanges(id, ['B:a;1']);
    f.restart();
    expect(f.drafts.entries(id)).toEqual([]);
  });
});

describe('isValidPrice', () => {
  it('agrees with the shared cents rule on every edge', () => {
    for (const v of [1, 0, -1, 0.5, 99.99, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, Number.NaN, Infinity]) {
      expect(isValidPrice(v), String(v)).toBe(cents.safeParse(v).success);
    }
  });
});
