import { describe, expect, it } from 'vitest';
import { inventoryPricing, listingExtras } from '../../../src-shared/inventory.ts';
import type { InventoryPricing } from '../../../src-shared/inventory.ts';
import { scalePrice } from '../../../src-shared/price-formula.ts';
import { inventoryFixture, names, type InventoryFixture } from './fixture.ts';

/**
 * What the picker asks of main: pages of the kept inventories filtered by
 * name, quality, effect, killstreak, craftability and listing; the selected
 * items priced by a formula and drafted as creates that carry their SKU;
 * asset IDs typed by hand checked against what was read.
 */

const open = inventoryFixture();

async function readAll(): Promise<InventoryFixture> {
  const f = await open();
  f.inventory.reads.refresh();
  await f.settled();
  return f;
}

const pricing = (p: InventoryPricing) => inventoryPricing.parse(p);
const extras = listingExtras.parse({});

describe('inventory picker queries', () => {
  it('finds items by name, and filters by quality, effect, killstreak and craftability where the data is', async () => {
    const f = await readAll();
    const q = f.inventory.queries;
    const every = q.page({}, null, 0, 500);
    const all = f.accounts.reduce((n, a) => n + f.sandbox.admin.inventory(a).length, 0);
    expect(every.total).toBe(all);
    expect(every.all).toBe(all);
    // Main account first, in Steam's order (newest first).
    expect(every.rows[0]?.account).toBe(f.sandbox.accounts.main);

    const strange = q.page({ text: 'strange' }, null, 0, 500);
    expect(strange.total).toBeGreaterThan(0);
    expect(strange.rows.every((r) => r.item.name.toLowerCase().includes('strange'))).toBe(true);

    const unusual = q.page({ quality: 5 }, null, 0, 500);
    expect(unusual.total).toBeGreaterThan(0);
    expect(unusual.rows.every((r) => r.item.quality === 'Unusual' && r.item.effect !== null)).toBe(true);
    const effect = unusual.rows[0]?.sku.split(';').find((p) => p.startsWith('u'))?.slice(1);
    const byEffect = q.page({ quality: 5, effect: Number(effect) }, null, 0, 500);
    expect(byEffect.rows.length).toBeGreaterThan(0);
    expect(byEffect.rows.every((r) => r.sku.includes(`;u${effect}`))).toBe(true);

    const pro = q.page({ killstreak: 'professional' }, null, 0, 500);
    expect(pro.rows.every((r) => r.item.killstreak === 'Professional Killstreak')).toBe(true);
    const none = q.page({ killstreak: 'none' }, null, 0, 5_000);
    expect(none.rows.every((r) => r.item.killstreak === null)).toBe(true);
    const uncraftable = q.page({ craftable: false }, null, 0, 500);
    expect(uncraftable.total).toBeGreaterThan(0);
    expect(uncraftable.rows.every((r) => !r.item.craftable)).toBe(true);

    // A SKU or an asset ID finds its items too; % and _ are letters, not wildcards.
    expect(q.page({ text: '5021;6' }, null, 0, 500).rows.every((r) => r.sku.startsWith('5021;6'))).toBe(true);
    const one = every.rows[3]?.key ?? '';
    expect(q.page({ text: one }, null, 0, 10).rows.map((r) => r.key)).toEqual([one]);
    expect(q.page({ text: '%' }, null, 0, 10).total).toBe(0);
  });

  it('searches as every table does: words in any order, the quality a name does not print, the short forms traders type', async () => {
    const f = await readAll();
    const q = f.inventory.queries;
    const total = (text: string) => q.page({ text }, null, 0, 1).total;
    expect(total('Unusual')).toBe(q.page({ quality: 5 }, null, 0, 1).total);
    const hat = q.page({ quality: 5 }, null, 0, 500).rows.find((r) => r.item.name.split(' ').length >= 3);
    if (!hat) throw new Error('no Unusual with a name of three words');
    const reversed = hat.item.name.split(' ').reverse().join(' ').toUpperCase();
    expect(q.page({ text: reversed }, null, 0, 500).rows.map((r) => r.key)).toContain(hat.key);
    const pro = q.page({ text: 'pro ks' }, null, 0, 500);
    expect(pro.total).toBe(q.page({ killstreak: 'professional' }, null, 0, 1).total);
    expect(pro.rows.every((r) => r.item.killstreak === 'Professional Killstreak')).toBe(true);
    expect(q.page({ text: 'unusual burning' }, null, 0, 500).rows.every((r) => r.item.quality === 'Unusual' && r.item.effect?.startsWith('Burning'))).toBe(true);
    const aussie = q.page({ text: 'aussie' }, null, 0, 500);
    expect(aussie.total).toBeGreaterThan(0);
    expect(aussie.rows.every((r) => r.item.australium)).toBe(true);
  });

  it('sorts by name and pages without repeating or skipping an item', async () => {
    const f = await readAll();
    const q = f.inventory.queries;
    const filter = { account: f.sandbox.accounts.main };
    const whole = q.page(filter, { column: 'name', dir: 'asc' }, 0, 500).rows.concat(
      ...[500, 1_000, 1_500, 2_000].map((o) => q.page(filter, { column: 'name', dir: 'asc' }, o, 500).rows));
    expect(whole.length).toBe(2_500);
    expect(new Set(whole.map((r) => r.key)).size).toBe(2_500);
    const namesInOrder = whole.map((r) => r.item.name.toLowerCase());
    expect(namesInOrder).toEqual([...namesInOrder].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(q.keys(filter, { column: 'name', dir: 'asc' }, 10, 5)).toEqual(whole.slice(10, 15).map((r) => r.key));
  });

  it('counts what the inventories hold for the filters: qualities, effects and killstreak tiers', async () => {
    const f = await readAll();
    const facets = f.inventory.queries.facets();
    const qualities = new Map(facets.qualities.map((x) => [x.name, x.count]));
    expect([...qualities.keys()]).toEqual(expect.arrayContaining(['Unique', 'Strange', 'Unusual', 'Genuine', 'Vintage', 'Decorated Weapon']));
    expect(qualities.get('Unusual')).toBe(f.inventory.queries.page({ quality: 5 }, null, 0, 1).total);
    expect(facets.effects.length).toBeGreaterThan(3);
    expect(facets.effects.every((e) => !e.name.startsWith('Effect '))).toBe(true);
    expect(facets.killstreaks.map((k) => k.name)).toEqual(['None', 'Killstreak', 'Specialized Killstreak', 'Professional Killstreak']);
    expect(facets.wears.map((w) => w.name)).toEqual(expect.arrayContaining(['Factory New', 'Field-Tested']));
    const wear = facets.wears.find((w) => w.name === 'Field-Tested');
    const fieldTested = f.inventory.queries.page({ wear: wear?.id ?? 0 }, null, 0, 500);
    expect(fieldTested.total).toBe(wear?.count);
    expect(fieldTested.rows.every((r) => r.item.wear === 'Field-Tested')).toBe(true);
  });

  it('marks items listed in the ledger or drafted, and hides them on asking', async () => {
    const f = await readAll();
    const q = f.inventory.queries;
    const [listed, drafted] = q.page({ account: f.sandbox.accounts.main }, null, 0, 2).rows;
    if (!listed || !drafted) throw new Error('no items');
    f.t.repos.listings.upsert({ asset_id: listed.key, listing_id: 'L1', sku: listed.sku, price: 1_234, promoted: 0, game: '440', account: listed.account });
    const draftId = f.drafts.ensureCurrent();
    f.drafts.addChanges(draftId, [{ kind: 'listing.create', asset_id: drafted.key, price: 777, promoted: 0, game: '440' }]);
    const found = q.find([listed.key, drafted.key]);
    expect(found.get(listed.key)?.listing).toEqual({ state: 'active', price: 1_234 });
    expect(found.get(drafted.key)?.drafted).toEqual({ price: 777 });
    expect(q.page({ listed: 'only' }, null, 0, 10).rows.map((r) => r.key).sort()).toEqual([listed.key, drafted.key].sort());
    const hidden = q.page({ listed: 'hide' }, null, 0, 10_000);
    expect(hidden.total).toBe(q.page({}, null, 0, 1).total - 2);
    expect(hidden.rows.some((r) => r.key === listed.key || r.key === drafted.key)).toBe(false);
  });
});

describe('inventory picker drafting', () => {
  it('drafts the picked items at a formula over their listed price, each create carrying its SKU and name', async () => {
    const f = await readAll();
    const q = f.inventory.queries;
    const main = f.sandbox.accounts.main;
    // Twenty Strange items; a standing listing of the same SKU for the first few prices them.
    const picked = q.page({ account: main, text: 'strange', listed: 'hide' }, null, 0, 20).rows;
    expect(picked.length).toBe(20);
    const referenced = picked.slice(0, 5);
    const pickedKeys = new Set(picked.map((r) => r.key));
    const others = q.page({ account: main }, null, 0, 2_500).rows.filter((r) => !pickedKeys.has(r.key));
    referenced.forEach((r, i) => {
      const twin = others.find((o) => o.sku === r.sku);
      f.t.repos.listings.upsert({ asset_id: twin?.key ?? `9${i}`, listing_id: `L${i}`, sku: r.sku, price: 1_000 + i * 137, promoted: 0, game: '440', account: main });
    });
    const formula = pricing({ from: 'listing', cents: 1_500, percent: 95, rounding: 'down', step: { size: 100, offset: 99 } });
    const selection = { ids: picked.map((r) => r.key) };
    const preview = f.inventory.drafting.preview(selection, formula);
    expect(preview).toMatchObject({ selected: 20, priced: 20, leftOut: [] });
    const outcome = f.inventory.drafting.draft(selection, formula, extras);
    expect(outcome).toMatchObject({ added: 20, errorCount: 0, priced: 20 });

    const entries = f.drafts.entries(outcome.draftId);
    expect(entries.length).toBe(20);
    const listedPrice = new Map(f.t.repos.listings.all().map((l) => [l.sku, l.price]));
    for (const e of entries) {
      if (e.change.kind !== 'listing.create') throw new Error('not a create');
      const row = picked.find((r) => r.key === (e.change as { asset_id: string }).asset_id);
      expect(e.change.sku).toBe(row?.sku);
      expect(names.name(e.change.sku ?? '')).toBe(row?.item.name);
      const base = listedPrice.get(e.change.sku ?? '');
      expect(e.change.price).toBe(base === undefined ? 1_500 : scalePrice(base, 95, 'down', { size: 100, offset: 99 }));
    }
    expect(preview.samples.filter((x) => x.base !== null).length).toBeGreaterThanOrEqual(5);
    // The picked items are now marked as drafted, with their price.
    expect(q.find(picked.map((r) => r.key)).get(picked[0]?.key ?? '')?.drafted).not.toBeNull();
  });

  it('leaves out what cannot be listed, with the reason: already listed, not tradable, nothing to price from', async () => {
    const f = await readAll();
    const q = f.inventory.queries;
    const rows = q.page({ account: f.sandbox.accounts.main }, null, 0, 6).rows;
    const [listed, untradable] = rows;
    f.t.repos.listings.upsert({ asset_id: listed?.key ?? '', listing_id: 'L1', sku: listed?.sku ?? '', price: 500, promoted: 0, game: '440', account: f.sandbox.accounts.main });
    f.t.store.db.prepare('UPDATE inventory_items SET tradable = 0 WHERE asset_id = ?').run(untradable?.key ?? '');
    const outcome = f.inventory.drafting.draft({ ids: rows.map((r) => r.key) }, pricing({ from: 'buyOrder', cents: null, percent: 110 }), extras);
    const reasons = new Map(outcome.leftOut.map((l) => [l.reason, l.sample]));
    expect(outcome.added).toBe(0);
    expect([...reasons.keys()]).toEqual([
      'it already has a listing in the ledger (edit that one instead)',
      'Steam says it cannot be traded now',
      'no buy order for the same item to price from',
    ]);
    expect(reasons.get('Steam says it cannot be traded now')).toEqual([untradable?.key]);
  });

  it('checks asset IDs typed by hand against the inventory as read, and drafts them anyway, named where known', async () => {
    const f = await open();
    const main = f.sandbox.accounts.main;
    const [linked] = f.sandbox.accounts.linked;
    // Never read: the IDs cannot be checked, and the check says so.
    expect(f.inventory.drafting.checkTyped(main, ['123']).unchecked).toMatch(/not been read yet/);
    f.inventory.reads.refresh();
    await f.settled();
    const mine = f.sandbox.admin.inventory(main)[0]?.asset_id ?? '';
    const theirs = f.sandbox.admin.inventory(linked)[0]?.asset_id ?? '';
    const check = f.inventory.drafting.checkTyped(main, [mine, theirs, '123']);
    expect(check.unchecked).toBeNull();
    expect(check.rows.map((r) => [r.assetId, r.found, r.account])).toEqual([[mine, 'here', main], [theirs, 'other_account', linked], ['123', 'not_found', null]]);
    expect(check.rows[0]?.item?.name).toBe(names.name(f.sandbox.admin.inventory(main)[0]?.sku ?? ''));

    const drafted = f.inventory.drafting.draftTyped({ account: main, assetIds: [mine, '123'], price: 250, game: '440', extras });
    expect(drafted).toMatchObject({ added: 2, notFound: ['123'], notFoundCount: 1 });
    const skus = new Map(f.drafts.entries(drafted.draftId).map((e) => [(e.change as { asset_id: string }).asset_id, (e.change as { sku?: string }).sku]));
    expect(skus.get(mine)).toBe(f.sandbox.admin.inventory(main)[0]?.sku);
    expect(skus.get('123')).toBeUndefined();
  });

  it('says an item drafted again is repriced, not added, and marks one priced far under the same item’s lowest listing', async () => {
    const f = await readAll();
    const q = f.inventory.queries;
    const main = f.sandbox.accounts.main;
    const rows = q.page({ account: main, listed: 'hide' }, null, 0, 10).rows;
    const first = rows.slice(0, 3).map((r) => r.key);
    expect(f.inventory.drafting.draft({ ids: first }, pricing({ from: 'fixed', cents: 1_200 }), extras)).toMatchObject({ added: 3, replaced: 0 });
    const again = f.inventory.drafting.draft({ ids: rows.map((r) => r.key) }, pricing({ from: 'fixed', cents: 500 }), extras);
    expect(again).toMatchObject({ added: 7, replaced: 3, errorCount: 0 });

    // Another asset of the first item's SKU, listed at $50.00: $5.00 is 90 % under it.
    const sku = rows[0]?.sku ?? '';
    f.t.repos.listings.upsert({ asset_id: '77', listing_id: 'L77', sku, price: 5_000, promoted: 0, game: '440', account: main });
    const preview = f.inventory.drafting.preview({ ids: [rows[0]?.key ?? ''] }, pricing({ from: 'fixed', cents: 500 }));
    expect(preview.undercuts).toEqual({ count: 1, worst: { key: rows[0]?.key, sku, price: 500, reference: { source: 'listing', cents: 5_000 } } });
  });
});
