import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENDPOINTS, ENDPOINT_NAMES } from '../../../src-main/core/api/endpoints.ts';
import type { EndpointName } from '../../../src-main/core/api/endpoints.ts';
import { createBuyOrders, freshSku, inputsFor, snapshot, startContractEnv } from './contract-fixtures.ts';
import type { ContractEnv } from './contract-fixtures.ts';
import { apiRejection } from './test-server.ts';

/**
 * The error side of the contract: each documented error of the interface
 * document, and each fault the sandbox can inject, seen through the client
 * against the sandbox over real HTTP.
 */

let env: ContractEnv;

beforeEach(async () => {
  env = await startContractEnv();
});

afterEach(async () => {
  await env.close();
});

const listingItem = (env: ContractEnv, index = 0) => {
  const asset = env.sandbox.admin.inventory()[index]!;
  return { asset_id: asset.asset_id, price: 400, promoted: 0 as const, game: asset.game };
};

describe('documented errors on every endpoint', () => {
  it.each(ENDPOINT_NAMES)('%s: 401 with the revoked key, 403 with the forbidden key, nothing changed', async (endpoint) => {
    const input = (await inputsFor(env, endpoint))(0);
    const before = snapshot(env.sandbox);
    const { revoked, forbidden } = env.sandbox.keys;

    const unauthorized = await apiRejection(env.client(revoked).call(endpoint, input));
    expect(unauthorized).toMatchObject({ kind: 'auth', status: 401, endpoint });
    const refused = await apiRejection(env.client(forbidden).call(endpoint, input));
    expect(refused).toMatchObject({ kind: 'forbidden', status: 403, endpoint });

    expect(snapshot(env.sandbox)).toBe(before);
    for (const error of [unauthorized, refused]) {
      const text = JSON.stringify(error) + String(error.stack);
      expect(text).not.toContain(revoked);
      expect(text).not.toContain(forbidden);
    }
  });

  it.each(ENDPOINT_NAMES)('%s: 429 with retry_after past its per-minute limit, then served again', async (endpoint) => {
    const input = await inputsFor(env, endpoint);
    const client = env.client();
    const limit = ENDPOINTS[endpoint].perMinute;
    for (let i = 0; i < limit; i += 1) await client.call(endpoint, input(i));

    const limited = await apiRejection(client.call(endpoint, input(limit)));
    expect(limited).toMatchObject({ kind: 'rate_limited', status: 429, endpoint });
    expect(limited.retryAfterMs).toBeGreaterThan(0);
    expect(limited.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(env.rate.at(-1)).toMatchObject({ endpoint, status: 429, limit, remaining: 0, retryAfterMs: limited.retryAfterMs });

    await env.clock.sleep(limited.retryAfterMs!);
    await expect(client.call(endpoint, input(limit))).resolves.toBeDefined();
  });
});

describe('refusals of the content', () => {
  it('an unknown listing is rejected with the status and a body naming the item', async () => {
    const error = await apiRejection(
      env.client().call('edit_listing', { items: [{ listing_id: 'no-such-listing', price: 100, promoted: 0 }] }),
    );
    expect(error).toMatchObject({ kind: 'rejected', status: 400, endpoint: 'edit_listing' });
    expect(error.body).toContain('items.0.listing_id');
  });

  it('an edit the balance cannot cover is rejected and changes nothing', async () => {
    await createBuyOrders(env, 1);
    env.sandbox.admin.setBalance(500);
    const before = snapshot(env.sandbox);
    const error = await apiRejection(
      env.client().call('edit_buy_order', { items: [{ sku: freshSku(0), price: 100, quantity: 50, active: 1 }] }),
    );
    expect(error).toMatchObject({ kind: 'rejected', status: 400 });
    expect(error.message).toContain('insufficient balance');
    expect(snapshot(env.sandbox)).toBe(before);
  });

  it('an input our own checks refuse never reaches the service', async () => {
    const error = await apiRejection(
      env.client().call('create_listing', { items: [{ ...listingItem(env), price: -1 }] }),
    );
    expect(error).toMatchObject({ kind: 'invalid', issues: [{ item: 0, field: 'items.0.price' }] });
    expect(env.sandbox.log.requests).toHaveLength(0);
  });
});

describe('injected faults', () => {
  it('dropAfterProcess on a write: unknown_outcome, and the write did happen', async () => {
    env.sandbox.faults.set({ dropAfterProcess: { endpoints: ['create_listing'], count: 1 } });
    const item = listingItem(env);
    const error = await apiRejection(env.client().call('create_listing', { items: [item] }));
    expect(error).toMatchObject({ kind: 'unknown_outcome', endpoint: 'create_listing' });
    expect(error.transient).toBe(false);
    expect(env.sandbox.log.requests.at(-1)).toMatchObject({ endpoint: 'create_listing', dropped: true });
    expect(env.sandbox.admin.listings().map((l) => l.asset_id)).toEqual([item.asset_id]);
  });

  it('dropAfterProcess on a read: network, safe to retry', async () => {
    env.sandbox.faults.set({ dropAfterProcess: { endpoints: ['get_balance'], count: 1 } });
    const client = env.client();
    expect((await apiRejection(client.call('get_balance', {}))).kind).toBe('network');
    await expect(client.call('get_balance', {})).resolves.toEqual(env.sandbox.admin.balance());
  });

  it('a slow write past the client timeout is unknown_outcome: the service still applies it', async () => {
    env.sandbox.faults.set({ delayMs: { ms: 90_000, endpoints: ['create_listing'] } }); // 300 ms real
    const item = listingItem(env);
    const error = await apiRejection(env.client(undefined, { timeoutMs: 100 }).call('create_listing', { items: [item] }));
    expect(error.kind).toBe('unknown_outcome');
    for (let i = 0; i < 100 && env.sandbox.admin.listings().length === 0; i += 1) await env.clock.sleep(3_000);
    expect(env.sandbox.admin.listings().map((l) => l.asset_id)).toEqual([item.asset_id]);
  });

  it.each<[EndpointName, RegExp]>([
    ['get_balance', /^get_balance: the response is not valid JSON/],
    ['create_listing', /^create_listing: the response is not valid JSON/],
  ])('malformed (invalid JSON) on %s: bad_response', async (endpoint, message) => {
    env.sandbox.faults.set({ malformed: { endpoints: [endpoint], kind: 'invalid_json' } });
    const input = (await inputsFor(env, endpoint))(0);
    const error = await apiRejection(env.client().call(endpoint, input));
    expect(error).toMatchObject({ kind: 'bad_response', status: 200, endpoint });
    expect(error.message).toMatch(message);
  });

  it('malformed (a missing field): bad_response naming the endpoint and the field', async () => {
    env.sandbox.faults.set({ malformed: { endpoints: ['get_balance'], kind: 'missing_field' } });
    const error = await apiRejection(env.client().call('get_balance', {}));
    expect(error.kind).toBe('bad_response');
    expect(error.message).toMatch(/^get_balance: balance: .*expected number/);
    expect(error.issues).toEqual([expect.objectContaining({ field: 'balance' })]);
  });

  it('serverError: server with the status, nothing processed', async () => {
    env.sandbox.faults.set({ serverError: { status: 503, endpoints: ['create_listing'] } });
    const error = await apiRejection(env.client().call('create_listing', { items: [listingItem(env)] }));
    expect(error).toMatchObject({ kind: 'server', status: 503, endpoint: 'create_listing' });
    expect(error.transient).toBe(true);
    expect(env.sandbox.admin.listings()).toEqual([]);
  });

  it('storm429: rate_limited with the storm’s retry_after on any endpoint', async () => {
    env.sandbox.faults.set({ storm429: { retryAfterSec: 30, untilMs: env.clock.now() + 120_000 } });
    const client = env.client();
    for (const endpoint of ['get_balance', 'load_pending'] as const) {
      const error = await apiRejection(client.call(endpoint, {}));
      expect(error).toMatchObject({ kind: 'rate_limited', retryAfterMs: 30_000, endpoint });
    }
  });
});
