import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { EndpointName, ResponseOf } from '../../src-main/core/api/endpoints.ts';
import { ENDPOINTS } from '../../src-main/core/api/endpoints.ts';
import type { Sandbox } from '../../src-main/sandbox/index.ts';
import { startSandbox } from '../../src-main/sandbox/index.ts';
import type { ManualClock } from './helpers.ts';
import { call, listingItem, manualClock, MINUTE } from './helpers.ts';

let sandbox: Sandbox;
let clock: ManualClock;

beforeEach(async () => {
  clock = manualClock();
  sandbox = await startSandbox({ clock, inventorySize: 300 });
});
afterEach(() => sandbox.close());

/** Parses with the shared response schema: the client will accept exactly this. */
function parsed<K extends EndpointName>(endpoint: K, body: unknown): ResponseOf<K> {
  return (ENDPOINTS[endpoint].response as unknown as z.ZodType<ResponseOf<K>>).parse(body);
}

describe('sandbox endpoints', () => {
  it('answers every endpoint with the documented shape', async () => {
    const [a, b] = sandbox.admin.inventory();
    if (!a || !b) throw new Error('inventory is empty');
    const linked = sandbox.accounts.linked[0] ?? '';

    const created = await call(sandbox, 'create_listing', { items: [listingItem(a.asset_id), listingItem(b.asset_id)] });
    expect(created.status).toBe(200);
    const { created_listings } = parsed('create_listing', created.body);
    expect(created_listings.map((l) => [l.asset_id, l.sku])).toEqual([[a.asset_id, a.sku], [b.asset_id, b.sku]]);
    expect(a.sku).toMatch(/^[^;]+;[^;]+$/);
    const listingId = created_listings[0]?.listing_id ?? '';

    const edited = await call(sandbox, 'edit_listing', { items: [{ listing_id: listingId, price: 150, promoted: 1 }] });
    expect(edited.body).toEqual({ success: true });
    const deleted = await call(sandbox, 'delete_listing', { items: [{ asset_id: b.asset_id }] });
    expect(deleted.body).toEqual({ success: true });
    expect(sandbox.admin.listings().map((l) => [l.listing_id, l.price, l.promoted])).toEqual([[listingId, 150, 1]]);
    expect((await call(sandbox, 'delete_all_listings', { active_only: false })).body).toEqual({ success: true });
    expect(sandbox.admin.listings()).toEqual([]);

    expect((await call(sandbox, 'create_buy_order', { items: [{ sku: '5021;6', price: 200, quantity: 2 }] })).body)
      .toEqual({ success: true });
    expect((await call(sandbox, 'edit_buy_order', { items: [{ sku: '5021;6', price: 210, quantity: 3, active: 0 }] })).body)
      .toEqual({ success: true });
    expect((await call(sandbox, 'create_buy_order', { items: [{ sku: '5002;6', price: 5, quantity: 9 }] })).status).toBe(200);
    expect((await call(sandbox, 'delete_buy_order', { items: [{ sku: '5002;6' }] })).body).toEqual({ success: true });
    const deleteAll = await call(sandbox, 'delete_all_buy_orders');
    expect(parsed('delete_all_buy_orders', deleteAll.body)).toEqual({ success: true, deleted_count: 1 });

    const market = await call(sandbox, 'load_pending');
    expect(market.status).toBe(200);
    expect(Array.isArray(market.body)).toBe(true);
    parsed('load_pending', market.body);
    const buyOrderTrades = await call(sandbox, 'load_pending_buy_orders');
    parsed('load_pending_buy_orders', buyOrderTrades.body);

    const tradeUrl = 'https://steamcommunity.com/tradeoffer/new/?partner=12345&token=AbC-12_x';
    expect((await call(sandbox, 'set_trade_url', { trade_url: tradeUrl, multiaccount_proxy: linked })).body)
      .toEqual({ success: true });
    const urls = parsed('get_linked_trade_urls', (await call(sandbox, 'get_linked_trade_urls')).body);
    expect(urls.main_account).toEqual({ id64: sandbox.accounts.main, trade_url: null });
    expect(urls.linked_accounts).toEqual(
      sandbox.accounts.linked.map((id64) => ({ id64, trade_url: id64 === linked ? tradeUrl : null })),
    );

    const balance = parsed('get_balance', (await call(sandbox, 'get_balance')).body);
    expect(balance).toEqual(sandbox.admin.balance());
    expect(Number.isInteger(balance.balance) && Number.isInteger(balance.pending_balance)).toBe(true);

    const agent = await call(sandbox, 'set_user_agent', { multiaccounts: [linked] });
    expect(agent.body).toEqual({ refresh_at: Math.floor(clock.now() / 1000) + 600 });
  });

  it('uses 64-bit ID strings for the main account and 2–3 linked accounts', () => {
    const { main, linked } = sandbox.accounts;
    expect(linked.length).toBeGreaterThanOrEqual(2);
    expect(linked.length).toBeLessThanOrEqual(3);
    for (const id of [main, ...linked]) {
      expect(id).toMatch(/^7656119\d{10}$/);
      expect(BigInt(id) > 2n ** 56n).toBe(true);
    }
    expect(new Set([main, ...linked]).size).toBe(linked.length + 1);
  });

  it('refuses a missing or revoked key with 401 and a suspended account with 403, changing nothing', async () => {
    const asset = sandbox.admin.inventory()[0]?.asset_id ?? '';
    const body = { items: [listingItem(asset)] };
    const missing = await call(sandbox, 'create_listing', body, { key: null });
    const revoked = await call(sandbox, 'create_listing', body, { key: sandbox.keys.revoked });
    const unknown = await call(sandbox, 'create_listing', body, { key: 'not-a-key' });
    const forbidden = await call(sandbox, 'create_listing', body, { key: sandbox.keys.forbidden });
    expect([missing.status, revoked.status, unknown.status, forbidden.status]).toEqual([401, 401, 401, 403]);
    expect(sandbox.admin.listings()).toEqual([]);
    // None of them spent the key's budget: five creates still pass.
    for (let i = 0; i < 5; i++) {
      const asset = sandbox.admin.inventory()[i]?.asset_id ?? '';
      expect((await call(sandbox, 'create_listing', { items: [listingItem(asset)] })).status).toBe(200);
    }
    expect(sandbox.log.requests.map((r) => r.keyKind).slice(0, 4)).toEqual(['missing', 'revoked', 'unknown', 'forbidden']);
  });

  it('answers 401 and then 403 for the main key once the admin revokes or suspends it', async () => {
    sandbox.admin.setKeyStatus('revoked');
    expect((await call(sandbox, 'get_balance')).status).toBe(401);
    sandbox.admin.setKeyStatus('forbidden');
    expect((await call(sandbox, 'get_balance')).status).toBe(403);
    sandbox.admin.setKeyStatus('valid');
    expect((await call(sandbox, 'get_balance')).status).toBe(200);
  });

  it('answers 404 for an unknown path and 405 for a wrong method, as JSON', async () => {
    const res = await fetch(`${sandbox.url}/api/dev/nothing`, { headers: { 'X-API-Key': sandbox.apiKey } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ success: false, error: expect.stringContaining('/api/dev/nothing') });
    const wrong = await fetch(`${sandbox.url}/api/dev/listing`, { headers: { 'X-API-Key': sandbox.apiKey } });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('PATCH, DELETE');
  });

  it('refuses invalid input with 400, a field path and a reason, and applies nothing', async () => {
    const [a] = sandbox.admin.inventory();
    const cases: Array<[EndpointName, unknown, string]> = [
      ['create_listing', { items: [listingItem(a?.asset_id ?? ''), { ...listingItem('1'), price: 1.5 }] }, 'items.1.price: '],
      ['create_listing', { items: Array.from({ length: 101 }, () => listingItem(a?.asset_id ?? '')) }, 'items: '],
      ['create_listing', { items: [{ ...listingItem(a?.asset_id ?? ''), user_note: 'x'.repeat(181) }] }, 'items.0.user_note: '],
      ['create_listing', { items: [{ ...listingItem(a?.asset_id ?? ''), promoted: 2 }] }, 'items.0.promoted: '],
      ['create_listing', { items: [listingItem(a?.asset_id ?? '')], multiaccount_proxy: '76561190000000001' }, 'multiaccount_proxy: '],
      ['create_buy_order', { items: [{ sku: '5021', price: 100, quantity: 1 }] }, 'items.0.sku: '],
      ['create_buy_order', { items: [{ sku: '5021;6', price: '100', quantity: 1 }] }, 'items.0.price: '],
    ];
    for (const [endpoint, body, prefix] of cases) {
      clock.advance(MINUTE);
      const res = await call(sandbox, endpoint, body as Record<string, unknown>);
      expect(res.status, prefix).toBe(400);
      expect(res.body).toEqual({ success: false, error: expect.stringMatching(new RegExp(`^${prefix.replace(/\./g, '\\.')}\\S`)) });
    }
    clock.advance(MINUTE);
    const badJson = await call(sandbox, 'create_listing', undefined, { rawBody: '{"items": [' });
    expect(badJson.body).toEqual({ success: false, error: 'body: is not valid JSON' });
    expect(sandbox.admin.listings()).toEqual([]);
    expect(sandbox.admin.buyOrders()).toEqual([]);
    expect(sandbox.log.counters.count400).toBe(cases.length + 1);
  });

  it('never records the API key, in the log or anywhere the log reaches', async () => {
    await call(sandbox, 'get_balance');
    await call(sandbox, 'get_balance', undefined, { key: sandbox.keys.revoked });
    await call(sandbox, 'load_pending', undefined, { key: sandbox.keys.forbidden });
    const dump = JSON.stringify({ requests: sandbox.log.requests, counters: sandbox.log.counters });
    for (const key of [sandbox.apiKey, sandbox.keys.revoked, sandbox.keys.forbidden]) expect(dump).not.toContain(key);
    expect(sandbox.log.requests.map((r) => r.keyKind)).toEqual(['valid', 'revoked', 'forbidden']);
  });

  it('leaves nothing listening after close', async () => {
    const { url } = sandbox;
    await sandbox.close();
    await expect(fetch(`${url}/api/dev/get_balance`)).rejects.toThrow();
  });
});
