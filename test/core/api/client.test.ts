import { describe, expect, it, vi } from 'vitest';
import { createMarketplaceClient } from '../../../src-main/core/api/client.ts';
import type { ClientOptions } from '../../../src-main/core/api/client.ts';
import { apiRejection, json, testHarness } from './test-server.ts';
import type { TestHandler } from './test-server.ts';

/** What the client puts on the wire, where the key comes from, and what it refuses to send. */

const KEY = 'test-key-0001';
const TRADE_URL = 'https://steamcommunity.com/tradeoffer/new/?partner=123&token=abc_DEF1';
const harness = testHarness(KEY);
const setup = (handler: TestHandler, options: Partial<ClientOptions> = {}) => harness.serve(handler, options);

const ok: TestHandler = (_req, res) => json(res, 200, { success: true });

describe('requests on the wire', () => {
  it('sends X-API-Key on every request and a JSON body with Content-Type for writes', async () => {
    const { server, client } = await setup(ok);
    const items = [{ listing_id: 'L1', price: 150, promoted: 0 as const }];
    await client.call('edit_listing', { items });
    await client.call('delete_listing', { items: [{ asset_id: '42' }] });
    await client.call('delete_all_listings', { active_only: true });
    await client.call('set_trade_url', { trade_url: TRADE_URL, multiaccount_proxy: '7656' });

    expect(server.requests.map((r) => [r.method, r.url])).toEqual([
      ['PATCH', '/api/dev/listing'],
      ['DELETE', '/api/dev/listing'],
      ['DELETE', '/api/dev/listings'],
      ['POST', '/api/dev/set_trade_url'],
    ]);
    for (const r of server.requests) {
      expect(r.headers['x-api-key']).toBe(KEY);
      expect(r.headers['content-type']).toBe('application/json');
    }
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ items });
    expect(JSON.parse(server.requests[1]!.body)).toEqual({ items: [{ asset_id: '42' }] });
    expect(JSON.parse(server.requests[2]!.body)).toEqual({ active_only: true });
    expect(JSON.parse(server.requests[3]!.body)).toEqual({ trade_url: TRADE_URL, multiaccount_proxy: '7656' });
  });

  it('sends delete-all buy orders without a body, since none is described', async () => {
    const { server, client } = await setup((_req, res) => json(res, 200, { success: true, deleted_count: 3 }));
    await expect(client.call('delete_all_buy_orders', {})).resolves.toEqual({ success: true, deleted_count: 3 });
    const [request] = server.requests;
    expect(request?.method).toBe('DELETE');
    expect(request?.body).toBe('');
    expect(request?.headers['content-type']).toBeUndefined();
    expect(request?.headers['x-api-key']).toBe(KEY);
  });

  it('puts set_user_agent accounts in a comma-joined query and leaves it out when empty', async () => {
    const { server, client } = await setup((_req, res) => json(res, 200, { refresh_at: 1_700_000_600 }));
    await client.call('set_user_agent', { multiaccounts: ['111', '222', '333'] });
    await client.call('set_user_agent', { multiaccounts: [] });
    await client.call('set_user_agent', {});
    expect(server.requests.map((r) => [r.method, r.url, r.body])).toEqual([
      ['GET', '/api/dev/set_user_agent?multiaccounts=111,222,333', ''],
      ['GET', '/api/dev/set_user_agent', ''],
      ['GET', '/api/dev/set_user_agent', ''],
    ]);
    expect(server.requests.every((r) => r.headers['x-api-key'] === KEY)).toBe(true);
  });

  it('keeps a path prefix of the base URL', async () => {
    const { server } = await setup((_req, res) => json(res, 200, { balance: 5, pending_balance: 0 }));
    const client = harness.track(createMarketplaceClient({ baseUrl: `${server.url}/market/`, apiKey: async () => KEY }));
    await client.call('get_balance', {});
    expect(server.requests[0]?.url).toBe('/market/api/dev/get_balance');
  });

  it('reuses keep-alive connections for consecutive requests', async () => {
    const { server, client } = await setup((_req, res) => json(res, 200, { balance: 5, pending_balance: 0 }));
    for (let i = 0; i < 10; i += 1) await client.call('get_balance', {});
    expect(server.requests).toHaveLength(10);
    // undici's pool opens a second socket eagerly, then keeps reusing both.
    expect(server.connections()).toBeLessThanOrEqual(2);
  });
});

describe('the API key source', () => {
  it('reads the key at each call, so a replaced key is used at once', async () => {
    let key = 'first-key';
    let reads = 0;
    const { server, client } = await setup(ok, {
      apiKey: async () => {
        reads += 1;
        return key;
      },
    });
    await client.call('delete_listing', { items: [{ asset_id: '1' }] });
    key = 'second-key';
    await client.call('delete_listing', { items: [{ asset_id: '1' }] });
    expect(reads).toBe(2);
    expect(server.requests.map((r) => r.headers['x-api-key'])).toEqual(['first-key', 'second-key']);
  });

  it.each([null, ''])('refuses to send without a key (%j): auth, nothing sent', async (missing) => {
    const { server, client } = await setup(ok, { apiKey: async () => missing });
    const error = await apiRejection(client.call('get_balance', {}));
    expect(error.kind).toBe('auth');
    expect(error.message).toBe('No API key is set');
    expect(server.requests).toHaveLength(0);
    expect(server.connections()).toBe(0);
  });

  it('refuses a key that cannot travel in a header, nothing sent', async () => {
    const { server, client } = await setup(ok, { apiKey: async () => 'abc\r\nX-Evil: 1' });
    const error = await apiRejection(client.call('get_balance', {}));
    expect(error.kind).toBe('auth');
    expect(server.requests).toHaveLength(0);
  });

  it('turns a failing key source into auth, without its message', async () => {
    const { server, client } = await setup(ok, {
      apiKey: async () => {
        throw new Error('keychain locked: key=hunter2');
      },
    });
    const error = await apiRejection(client.call('get_balance', {}));
    expect(error.kind).toBe('auth');
    expect(error.message).not.toContain('hunter2');
    expect(server.requests).toHaveLength(0);
  });
});

describe('input validation', () => {
  it('refuses an invalid input with the item index and field, nothing sent', async () => {
    let reads = 0;
    const { server, client } = await setup(ok, {
      apiKey: async () => {
        reads += 1;
        return KEY;
      },
    });
    const items = [
      { sku: 'a;b', price: 100, quantity: 1 },
      { sku: 'a;c', price: 1.5, quantity: 1 },
    ];
    const error = await apiRejection(client.call('create_buy_order', { items }));
    expect(error.kind).toBe('invalid');
    expect(error.endpoint).toBe('create_buy_order');
    expect(error.issues).toEqual([{ item: 1, field: 'items.1.price', message: 'must be a whole number of cents' }]);
    expect(server.requests).toHaveLength(0);
    expect(reads).toBe(0);
  });

  it('never sends more than 100 items in one request', async () => {
    const { server, client } = await setup(ok);
    const items = Array.from({ length: 101 }, (_, i) => ({ asset_id: String(i + 1) }));
    const error = await apiRejection(client.call('delete_listing', { items }));
    expect(error.kind).toBe('invalid');
    expect(error.issues[0]?.field).toBe('items');
    expect(server.requests).toHaveLength(0);
  });
});

describe('time', () => {
  it('keeps working under fake timers: its deadlines run on wall-clock time, not the faked one', async () => {
    const { client } = await setup((_req, res) => json(res, 200, { balance: 1, pending_balance: 2 }), { timeoutMs: 1_000 });
    vi.useFakeTimers();
    try {
      await expect(client.call('get_balance', {})).resolves.toEqual({ balance: 1, pending_balance: 2 });
      // Ten faked minutes neither fire a request's deadline nor break the pool.
      const pending = client.call('get_balance', {});
      vi.advanceTimersByTime(10 * 60_000);
      await expect(pending).resolves.toEqual({ balance: 1, pending_balance: 2 });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('close', () => {
  it('closes the pool: the connection ends and later calls fail without sending', async () => {
    const { server, client: c } = await setup((_req, res) => json(res, 200, { balance: 1, pending_balance: 2 }));
    await c.call('get_balance', {});
    await c.close();
    const error = await apiRejection(c.call('get_balance', {}));
    expect(error.kind).toBe('network');
    expect(server.requests).toHaveLength(1);
    await c.close(); // idempotent
  });
});
