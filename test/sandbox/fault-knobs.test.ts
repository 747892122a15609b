import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src-main/core/api/endpoints.ts';
import type { Sandbox } from '../../src-main/sandbox/index.ts';
import { call, listingItem, MINUTE, sandboxFixture } from './helpers.ts';

/** The fault knobs: faults after the service acted, and services that speak differently. */

const start = sandboxFixture();

const assetIds = (sandbox: Sandbox, n: number) => sandbox.admin.inventory().slice(0, n).map((a) => a.asset_id);
const errorOf = (body: unknown) => (body as { error?: string }).error;

describe('sandbox knobs for faults after the fact', () => {
  it('answers 502 after processing: the listings exist though the answer says it failed', async () => {
    const { sandbox } = await start();
    const [a, b] = assetIds(sandbox, 2);
    sandbox.faults.set({ serverErrorAfterProcess: { endpoints: ['create_listing'], count: 1 } });
    const res = await call(sandbox, 'create_listing', { items: [listingItem(a ?? ''), listingItem(b ?? '')] });
    expect(res.status).toBe(502);
    expect(sandbox.admin.listings().map((l) => l.asset_id)).toEqual([a, b]);
    expect(sandbox.log.counters).toMatchObject({ failedAfterProcess: 1, listingsCreated: 2, count5xx: 1 });
    expect(sandbox.log.requests[0]).toMatchObject({ status: 502, faults: ['serverErrorAfterProcess'] });
  });

  it('moves the balance right after a matching request is processed, as a fill paid meanwhile would', async () => {
    const { sandbox, clock } = await start();
    sandbox.admin.setBalance(10_000);
    sandbox.faults.set({ balanceMove: { endpoints: ['create_buy_order'], count: 1, deltaCents: -4_000 } });
    // The create met the balance before the move: 10 units of 10.00 are covered.
    const res = await call(sandbox, 'create_buy_order', { items: [{ sku: '5021;6', price: 1_000, quantity: 50 }] });
    expect(res.status).toBe(200);
    expect(sandbox.admin.buyOrders().map((o) => o.quantity)).toEqual([10]);
    expect(((await call(sandbox, 'get_balance')).body as { balance: number }).balance).toBe(6_000);
    expect(sandbox.log.requests[0]).toMatchObject({ endpoint: 'create_buy_order', faults: ['balanceMove'] });
    // Spent after one: the next create leaves the balance alone; a move never takes it below zero.
    clock.advance(MINUTE);
    await call(sandbox, 'create_buy_order', { items: [{ sku: '5002;6', price: 1_000, quantity: 1 }] });
    expect(sandbox.admin.balance().balance).toBe(6_000);
    sandbox.faults.set({ balanceMove: { endpoints: ['get_balance'], deltaCents: -9_000 } });
    await call(sandbox, 'get_balance');
    expect(sandbox.admin.balance().balance).toBe(0);
  });

  it('accepts a request and never answers nor processes it, until the client gives up', async () => {
    const { sandbox } = await start();
    sandbox.faults.set({ silent: { endpoints: ['create_listing'] } });
    const [a] = assetIds(sandbox, 1);
    const request = fetch(`${sandbox.url}${ENDPOINTS.create_listing.path}`, {
      method: 'POST',
      headers: { 'X-API-Key': sandbox.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ items: [listingItem(a ?? '')] }),
      signal: AbortSignal.timeout(300),
    });
    await expect(request).rejects.toThrow();
    expect(sandbox.admin.listings()).toEqual([]);
    expect(sandbox.log.requests[0]).toMatchObject({ status: 0, faults: ['silent'] });
    expect(sandbox.log.counters.silent).toBe(1);
    // Other endpoints still answer.
    expect((await call(sandbox, 'get_balance')).status).toBe(200);
  });
});

describe('sandbox knobs for how the service speaks', () => {
  it('runs the service clock off the sandbox clock: Date, refresh_at and X-RateLimit-Reset show it, the mark does not', async () => {
    const { sandbox, clock } = await start();
    const offset = 15 * MINUTE;
    sandbox.faults.set({ clockOffsetMs: offset });
    const res = await call(sandbox, 'set_user_agent');
    const date = Date.parse(res.headers.get('date') ?? '');
    expect(Math.abs(date - (clock.now() + offset))).toBeLessThan(1_000);
    expect((res.body as { refresh_at: number }).refresh_at).toBe(Math.floor(clock.now() / 1000) + 600 + offset / 1000);
    expect(Number(res.headers.get('x-ratelimit-reset'))).toBe(Math.ceil((clock.now() + MINUTE) / 1000) + offset / 1000);
    // The service's rule is its own: automated for 600 s from now, whatever its clock says.
    expect(sandbox.admin.userAgent().refreshAt).toBe((Math.floor(clock.now() / 1000) + 600) * 1000);
    sandbox.faults.set({ clockOffsetMs: false });
    const plain = await call(sandbox, 'get_balance');
    expect(Math.abs(Date.parse(plain.headers.get('date') ?? '') - clock.now())).toBeLessThan(1_000);
  });

  it('stamps Date from the sandbox clock even without an offset (Node would stamp the wall clock)', async () => {
    const { sandbox, clock } = await start();
    clock.advance(3 * 86_400_000);
    const res = await call(sandbox, 'get_balance');
    expect(Math.abs(Date.parse(res.headers.get('date') ?? '') - clock.now())).toBeLessThan(1_000);
  });

  it('describes only the global limit in X-RateLimit-* when asked, a 429 of one endpoint included', async () => {
    const { sandbox } = await start();
    sandbox.faults.set({ globalRateHeaders: true });
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 3; i++) {
      last = await call(sandbox, 'get_balance');
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(last?.headers.get('x-ratelimit-limit')).toBe('80');
    expect(last?.headers.get('x-ratelimit-remaining')).toBe('78');
    expect(last?.headers.get('x-ratelimit-scope')).toBeNull();
  });

  it('words refusals of an item by path, by bracket, or by the identifier alone', async () => {
    const { sandbox } = await start();
    const [a] = assetIds(sandbox, 1);
    const items = [listingItem(a ?? ''), listingItem('12345678901')];
    const wording = async () => errorOf((await call(sandbox, 'create_listing', { items })).body);
    expect(await wording()).toMatch(/^items\.1\.asset_id: asset 12345678901 is not in the inventory/);
    sandbox.faults.set({ refusalStyle: 'bracket' });
    expect(await wording()).toMatch(/^items\[1\]\.asset_id: asset 12345678901 is not in the inventory/);
    sandbox.faults.set({ refusalStyle: 'message' });
    expect(await wording()).toMatch(/^asset 12345678901 is not in the inventory/);
    // A refusal that is not about one item keeps its field.
    expect(errorOf((await call(sandbox, 'create_listing', { items: [] })).body)).toMatch(/^items: /);
  });

  it('refuses a create of an asset or SKU that already stands when asked, instead of skipping it', async () => {
    const { sandbox, clock } = await start();
    const [a] = assetIds(sandbox, 1);
    expect((await call(sandbox, 'create_listing', { items: [listingItem(a ?? '')] })).status).toBe(200);
    expect((await call(sandbox, 'create_buy_order', { items: [{ sku: '5021;6', price: 10, quantity: 1 }] })).status).toBe(200);
    sandbox.faults.set({ refuseDuplicateCreates: true, refusalStyle: 'message' });
    const listing = await call(sandbox, 'create_listing', { items: [listingItem(a ?? '')] });
    expect([listing.status, errorOf(listing.body)]).toEqual([400, `asset ${a} is already listed`]);
    const order = await call(sandbox, 'create_buy_order', { items: [{ sku: '5021;6', price: 10, quantity: 1 }] });
    expect([order.status, errorOf(order.body)]).toEqual([400, 'a buy order for 5021;6 already exists']);
    clock.advance(MINUTE);
    expect(sandbox.log.counters).toMatchObject({ duplicateCreates: 0, duplicateBuyOrderCreates: 0 });
  });

  it('as the strict service, refuses an edit of a sold listing as naming an unknown listing, by its listing_id', async () => {
    const { sandbox } = await start();
    const [live, sold] = sandbox.admin.seedListings(2);
    sandbox.admin.setListingState(sold?.listing_id ?? '', 'sold');
    const items = [live, sold].map((l) => ({ listing_id: l?.listing_id ?? '', price: 5, promoted: 0 as const }));
    expect(errorOf((await call(sandbox, 'edit_listing', { items })).body)).toBe(`items.1.listing_id: listing ${sold?.listing_id} is sold`);
    sandbox.faults.set({ endedListingsUnknown: true });
    const strict = await call(sandbox, 'edit_listing', { items });
    expect([strict.status, errorOf(strict.body)]).toEqual([400, `items.1.listing_id: unknown listing ${sold?.listing_id}`]);
    sandbox.faults.set({ refusalStyle: 'message' });
    expect(errorOf((await call(sandbox, 'edit_listing', { items })).body)).toBe(`unknown listing ${sold?.listing_id}`);
    // Refused whole: the standing listing was not edited either.
    expect(sandbox.admin.listings().find((l) => l.listing_id === live?.listing_id)?.price).toBe(live?.price);
  });

  it('lets a test delete a listing behind the desk\'s back, or take an asset away', async () => {
    const { sandbox } = await start();
    const [listed] = sandbox.admin.seedListings(1);
    sandbox.admin.removeListing(listed?.listing_id ?? '');
    const edit = await call(sandbox, 'edit_listing', { items: [{ listing_id: listed?.listing_id ?? '', price: 5, promoted: 0 }] });
    expect(errorOf(edit.body)).toBe(`items.0.listing_id: no listing ${listed?.listing_id}`);
    const [free] = assetIds(sandbox, 1);
    sandbox.admin.takeAsset(free ?? '');
    const create = await call(sandbox, 'create_listing', { items: [listingItem(free ?? '')] });
    expect(errorOf(create.body)).toBe(`items.0.asset_id: asset ${free} has left the inventory`);
  });
});
