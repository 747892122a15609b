import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createListingResponse } from '../../src-main/core/api/schemas.ts';
import type { CreateListingItem } from '../../src-main/core/api/schemas.ts';
import type { Sandbox } from '../../src-main/sandbox/index.ts';
import { startSandbox } from '../../src-main/sandbox/index.ts';
import type { ManualClock } from './helpers.ts';
import { call, listingItem, manualClock, MINUTE } from './helpers.ts';

let sandbox: Sandbox;
let clock: ManualClock;

beforeEach(async () => {
  clock = manualClock();
  sandbox = await startSandbox({ clock, inventorySize: 300, tradeSchedule: false });
});
afterEach(() => sandbox.close());

function assets(count: number, account?: string) {
  return sandbox.admin.inventory(account).slice(0, count);
}

async function create(items: CreateListingItem[], proxy?: string) {
  clock.advance(MINUTE);
  const res = await call(sandbox, 'create_listing', { items, ...(proxy ? { multiaccount_proxy: proxy } : {}) });
  return { status: res.status, ...createListingResponse.parse(res.status === 200 ? res.body : { success: false }) };
}

describe('sandbox listings', () => {
  it('builds the same inventory from the same seed, a different one from another', async () => {
    const again = await startSandbox({ clock, inventorySize: 300, tradeSchedule: false });
    const other = await startSandbox({ clock, inventorySize: 300, tradeSchedule: false, seed: 2 });
    try {
      expect(again.admin.inventory()).toEqual(sandbox.admin.inventory());
      expect(again.apiKey).toBe(sandbox.apiKey);
      expect(other.admin.inventory()).not.toEqual(sandbox.admin.inventory());
      expect(sandbox.admin.inventory()).toHaveLength(300);
    } finally {
      await Promise.all([again.close(), other.close()]);
    }
  });

  it('counts a create naming an asset that is already listed, and does not list it again', async () => {
    const [a, b] = assets(2);
    const first = await create([listingItem(a?.asset_id ?? '')]);
    expect(first.created_listings).toHaveLength(1);
    const second = await create([listingItem(a?.asset_id ?? ''), listingItem(b?.asset_id ?? '')]);
    expect(second.created_listings.map((l) => l.asset_id)).toEqual([b?.asset_id]);
    const third = await create([listingItem(b?.asset_id ?? ''), listingItem(b?.asset_id ?? '')]);
    expect(third).toMatchObject({ status: 200, success: true, created_listings: [] });
    expect(sandbox.log.counters).toMatchObject({ duplicateCreates: 3, listingsCreated: 2 });
    expect(sandbox.admin.listings()).toHaveLength(2);
    expect(new Set(sandbox.admin.listings().map((l) => l.listing_id)).size).toBe(2);
  });

  it('assigns a listing to the linked account named by multiaccount_proxy', async () => {
    const linked = sandbox.accounts.linked[1] ?? '';
    const [own] = assets(1, linked);
    const res = await create([listingItem(own?.asset_id ?? '')], linked);
    expect(res.created_listings[0]?.sku).toBe(own?.sku);
    expect(sandbox.admin.listings()[0]?.account).toBe(linked);
    // The main account's asset is not in the linked account's inventory: whole batch refused.
    const [mainAsset] = assets(1);
    const refused = await create([listingItem(mainAsset?.asset_id ?? '')], linked);
    expect(refused.status).toBe(400);
    expect(sandbox.admin.listings()).toHaveLength(1);
  });

  it('edits price, promotion and note by listing_id; an empty note removes it', async () => {
    const [a] = assets(1);
    const { created_listings } = await create([{ ...listingItem(a?.asset_id ?? '', 300), user_note: 'hello' }]);
    const id = created_listings[0]?.listing_id ?? '';
    const createdAt = sandbox.admin.listings()[0]?.updatedAt;
    clock.advance(MINUTE);
    await call(sandbox, 'edit_listing', { items: [{ listing_id: id, price: 280, promoted: 1 }] });
    let listing = sandbox.admin.listings()[0];
    expect(listing).toMatchObject({ price: 280, promoted: 1, user_note: 'hello' });
    expect(listing?.updatedAt).toBeGreaterThan(createdAt ?? Infinity);
    clock.advance(MINUTE);
    await call(sandbox, 'edit_listing', { items: [{ listing_id: id, price: 280, promoted: 0, user_note: '' }] });
    listing = sandbox.admin.listings()[0];
    expect(listing).toMatchObject({ price: 280, promoted: 0, user_note: null });
  });

  it('refuses a whole edit batch naming one unknown listing_id', async () => {
    const [a] = assets(1);
    const { created_listings } = await create([listingItem(a?.asset_id ?? '', 300)]);
    clock.advance(MINUTE);
    const res = await call(sandbox, 'edit_listing', {
      items: [
        { listing_id: created_listings[0]?.listing_id ?? '', price: 1, promoted: 0 },
        { listing_id: 'lst_unknown', price: 2, promoted: 0 },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: expect.stringMatching(/^items\.1\.listing_id: /) });
    expect(sandbox.admin.listings()[0]?.price).toBe(300);
  });

  it('deletes by asset_id and puts the asset back in the inventory; refuses an unlisted asset', async () => {
    const [a, b] = assets(2);
    await create([listingItem(a?.asset_id ?? ''), listingItem(b?.asset_id ?? '')]);
    expect(sandbox.admin.inventory().some((x) => x.asset_id === a?.asset_id)).toBe(false);
    clock.advance(MINUTE);
    expect((await call(sandbox, 'delete_listing', { items: [{ asset_id: a?.asset_id ?? '' }] })).status).toBe(200);
    expect(sandbox.admin.inventory().some((x) => x.asset_id === a?.asset_id)).toBe(true);
    clock.advance(MINUTE);
    const refused = await call(sandbox, 'delete_listing', { items: [{ asset_id: b?.asset_id ?? '' }, { asset_id: a?.asset_id ?? '' }] });
    expect(refused.status).toBe(400);
    expect(sandbox.admin.listings().map((l) => l.asset_id)).toEqual([b?.asset_id]);
  });

  it('delete-all with active_only keeps sold, cancelled and inactive listings; without it removes all', async () => {
    const seeded = sandbox.admin.seedListings(4);
    sandbox.admin.setListingState(seeded[1]?.listing_id ?? '', 'sold');
    sandbox.admin.setListingState(seeded[2]?.listing_id ?? '', 'cancelled');
    sandbox.admin.setListingState(seeded[3]?.listing_id ?? '', 'inactive');
    expect((await call(sandbox, 'delete_all_listings', { active_only: true })).status).toBe(200);
    expect(sandbox.admin.listings().map((l) => l.state).sort()).toEqual(['cancelled', 'inactive', 'sold']);
    clock.advance(MINUTE);
    await call(sandbox, 'delete_all_listings', { active_only: false });
    expect(sandbox.admin.listings()).toEqual([]);
    expect(sandbox.log.counters.listingsDeleted).toBe(4);
  });

  it('seeds listings without spending rate budget or moving counters', async () => {
    const seeded = sandbox.admin.seedListings(250);
    expect(seeded).toHaveLength(250);
    expect(sandbox.log.counters.listingsCreated).toBe(0);
    expect(sandbox.log.requests).toHaveLength(0);
    const edit = await call(sandbox, 'edit_listing', {
      items: seeded.slice(0, 100).map((l) => ({ listing_id: l.listing_id, price: l.price + 1, promoted: 0 as const })),
    });
    expect(edit.status).toBe(200);
    expect(edit.headers.get('x-ratelimit-remaining')).toBe('4');
  });

  it('seeds listings of one kind at one price, skipping what is listed already, and says when too few match', () => {
    const strange = (a: { sku: string }) => a.sku.split(';')[1] === '11';
    const [first] = sandbox.admin.seedListings(1);
    const seeded = sandbox.admin.seedListingsOf(5, strange, 300);
    expect(seeded.map((l) => [l.price, strange(l)])).toEqual(Array.from({ length: 5 }, () => [300, true]));
    expect(seeded.map((l) => l.asset_id)).not.toContain(first?.asset_id);
    expect(sandbox.log.requests).toHaveLength(0);
    const left = sandbox.admin.inventory().filter(strange).length;
    expect(() => sandbox.admin.seedListingsOf(left + 1, strange, 300)).toThrow(`has only ${left} free assets of that kind`);
  });
});
