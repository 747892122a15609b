import { afterEach, describe, expect, it } from 'vitest';
import { createMarketplaceClient } from '../../../src-main/core/api/client.ts';
import type { ClientOptions, MarketplaceClient, RateLimitInfo } from '../../../src-main/core/api/client.ts';
import { apiRejection, json, startTestServer } from './test-server.ts';
import type { TestHandler, TestServer } from './test-server.ts';

const KEY = 'test-key-0001';
const TRADE_URL = 'https://trade.example/tradeoffer/new/?partner=123&token=abc_DEF';

let server: TestServer | undefined;
let client: MarketplaceClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

async function setup(handler: TestHandler, options: Partial<ClientOptions> = {}) {
  server = await startTestServer(handler);
  client = createMarketplaceClient({ baseUrl: server.url, apiKey: async () => KEY, ...options });
  return { server, client };
}

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
    server = await startTestServer((_req, res) => json(res, 200, { balance: 5, pending_balance: 0 }));
    client = createMarketplaceClient({ baseUrl: `${server.url}/market/`, apiKey: async () => KEY });
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

describe('responses', () => {
  it('parses a success with the endpoint schema (defaults applied)', async () => {
    const { client } = await setup((_req, res) => json(res, 200, { success: true, extra: 'dropped' }));
    await expect(
      client.call('create_listing', { items: [{ asset_id: '1', price: 10, promoted: 0, game: '440' }] }),
    ).resolves.toEqual({ success: true, created_listings: [] });
  });

  it('names the endpoint and field of a response that does not match', async () => {
    const { client } = await setup((_req, res) => json(res, 200, { balance: '12', pending_balance: 0 }));
    const error = await apiRejection(client.call('get_balance', {}));
    expect(error.kind).toBe('bad_response');
    expect(error.message).toMatch(/^get_balance: balance: .*expected number/);
    expect(error.issues[0]?.field).toBe('balance');
    expect(error.status).toBe(200);
  });

  it('names the trade and field in a list response', async () => {
    const { client } = await setup((_req, res) => json(res, 200, [{ trade_id: 'x' }]));
    const error = await apiRejection(client.call('load_pending', {}));
    expect(error.kind).toBe('bad_response');
    expect(error.message).toMatch(/^load_pending: 0\.user_id: /);
  });

  it('treats malformed JSON as bad_response', async () => {
    const { client } = await setup((_req, res) => json(res, 200, '{"balance": 1,'));
    const error = await apiRejection(client.call('get_balance', {}));
    expect(error.kind).toBe('bad_response');
    expect(error.message).toContain('not valid JSON');
  });

  it('treats success: false in a 2xx as rejected, with the body', async () => {
    const body = { success: false, error: 'Insufficient balance' };
    const { client } = await setup((_req, res) => json(res, 200, body));
    const error = await apiRejection(
      client.call('edit_buy_order', { items: [{ sku: 'a;b', price: 100, quantity: 5, active: 1 }] }),
    );
    expect(error.kind).toBe('rejected');
    expect(error.status).toBe(200);
    expect(error.body).toBe(JSON.stringify(body));
    expect(error.message).toContain('Insufficient balance');
  });

  it('refuses a success body larger than the cap', async () => {
    const { client } = await setup((_req, res) => json(res, 200, JSON.stringify({ pad: 'x'.repeat(200_000) })), {
      maxResponseBytes: 50_000,
    });
    const error = await apiRejection(client.call('get_balance', {}));
    expect(error.kind).toBe('bad_response');
    expect(error.message).toContain('larger than 50000 bytes');
  });
});

describe('status mapping', () => {
  const cases: [number, string][] = [
    [401, 'auth'],
    [403, 'forbidden'],
    [400, 'rejected'],
    [404, 'rejected'],
    [422, 'rejected'],
    [500, 'server'],
    [503, 'server'],
    [302, 'bad_response'],
  ];
  it.each(cases)('status %i → %s, with status and body', async (status, kind) => {
    const { client } = await setup((_req, res) => json(res, status, { error: `status ${status}` }));
    const error = await apiRejection(client.call('get_balance', {}));
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(error.endpoint).toBe('get_balance');
    expect(error.body).toBe(JSON.stringify({ error: `status ${status}` }));
  });

  it('keeps only a truncated excerpt of a huge error body', async () => {
    const { client } = await setup((_req, res) => json(res, 500, 'E'.repeat(5_000_000)));
    const error = await apiRejection(client.call('get_balance', {}));
    expect(error.kind).toBe('server');
    expect(error.body!.length).toBeLessThan(2_100);
    expect(error.message.length).toBeLessThan(300);
  });

  it('429: retry_after of the JSON body wins over the header', async () => {
    const { client } = await setup((_req, res) =>
      json(res, 429, { error: 'Rate limit exceeded', retry_after: 42 }, { 'retry-after': '5' }),
    );
    const error = await apiRejection(client.call('get_balance', {}));
    expect(error.kind).toBe('rate_limited');
    expect(error.retryAfterMs).toBe(42_000);
  });

  it('429: a header-only Retry-After in seconds', async () => {
    const { client } = await setup((_req, res) => json(res, 429, 'slow down', { 'retry-after': '7' }));
    const error = await apiRejection(client.call('get_balance', {}));
    expect(error.retryAfterMs).toBe(7_000);
  });

  it('429: a header-only Retry-After as an HTTP-date, measured on the injected clock', async () => {
    const now = Date.UTC(2030, 0, 1, 12, 0, 0);
    const clock = { now: () => now, sleep: () => Promise.resolve() };
    const at = new Date(now + 90_000).toUTCString();
    const { client } = await setup((_req, res) => json(res, 429, '', { 'retry-after': at }), { clock });
    const error = await apiRejection(client.call('get_balance', {}));
    expect(error.kind).toBe('rate_limited');
    expect(error.retryAfterMs).toBe(90_000);
  });

  it('429 without any retry hint leaves retryAfterMs unset', async () => {
    const { client } = await setup((_req, res) => json(res, 429, {}));
    const error = await apiRejection(client.call('get_balance', {}));
    expect(error.kind).toBe('rate_limited');
    expect(error.retryAfterMs).toBeUndefined();
  });
});

describe('rate-limit headers', () => {
  it('hands every response’s X-RateLimit-* headers to onRateLimit, errors included', async () => {
    const seen: RateLimitInfo[] = [];
    let n = 0;
    const { client } = await setup(
      (_req, res) => {
        n += 1;
        const headers = { 'x-ratelimit-limit': '80', 'x-ratelimit-remaining': String(80 - n), 'x-ratelimit-reset': '1700000060' };
        if (n === 1) json(res, 200, { balance: 1, pending_balance: 2 }, headers);
        else if (n === 2) json(res, 429, { error: 'limit', retry_after: 3 }, headers);
        else json(res, 500, 'oops', headers);
      },
      { onRateLimit: (info) => seen.push(info) },
    );
    await client.call('get_balance', {});
    await apiRejection(client.call('get_balance', {}));
    await apiRejection(client.call('load_pending', {}));
    expect(seen).toEqual([
      { endpoint: 'get_balance', status: 200, limit: 80, remaining: 79, resetAt: 1_700_000_060_000 },
      { endpoint: 'get_balance', status: 429, limit: 80, remaining: 78, resetAt: 1_700_000_060_000, retryAfterMs: 3_000 },
      { endpoint: 'load_pending', status: 500, limit: 80, remaining: 77, resetAt: 1_700_000_060_000 },
    ]);
  });

  it('a throwing listener does not turn a success into a failure', async () => {
    const { client } = await setup((_req, res) => json(res, 200, { balance: 1, pending_balance: 2 }), {
      onRateLimit: () => {
        throw new Error('listener bug');
      },
    });
    await expect(client.call('get_balance', {})).resolves.toEqual({ balance: 1, pending_balance: 2 });
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
