import { describe, expect, it } from 'vitest';
import type { ClientOptions, RateLimitInfo } from '../../../src-main/core/api/client.ts';
import { MAX_RETRY_AFTER_MS } from '../../../src-main/core/api/rate-headers.ts';
import { apiRejection, json, testHarness } from './test-server.ts';
import type { TestHandler } from './test-server.ts';

/** How a received response becomes a parsed value or an ApiError of the right kind. */

const KEY = 'test-key-0003';
const harness = testHarness(KEY);
const setup = (handler: TestHandler, options: Partial<ClientOptions> = {}) => harness.serve(handler, options);

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
    const clock = { now: () => now, monotonic: () => 1_000, sleep: () => Promise.resolve() };
    const at = new Date(now + 90_000).toUTCString();
    const date = new Date(now).toUTCString();
    const { client } = await setup((_req, res) => json(res, 429, '', { 'retry-after': at, date }), { clock });
    const error = await apiRejection(client.call('get_balance', {}));
    expect(error.kind).toBe('rate_limited');
    expect(error.retryAfterMs).toBe(90_000);
  });

  it('reads the service\'s absolute times on its own clock, as its Date header shows it, as durations from the answer', async () => {
    const now = Date.UTC(2030, 0, 1, 12, 0, 0);
    // The exchange is timed on the monotonic clock, which has nothing to do with the wall's epoch.
    const clock = { now: () => now, monotonic: () => 1_000, sleep: () => Promise.resolve() };
    // The service's clock is 15 minutes behind ours.
    const service = now - 15 * 60_000;
    const headers = {
      date: new Date(service).toUTCString(),
      'retry-after': new Date(service + 90_000).toUTCString(),
      'x-ratelimit-limit': '80',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(service / 1000 + 40),
    };
    const seen: RateLimitInfo[] = [];
    const observed: number[] = [];
    const { client } = await setup((_req, res) => json(res, 429, '', headers), {
      clock,
      onRateLimit: (info) => seen.push(info),
      serviceClock: { observe: (dateMs, sentAt, receivedAt) => observed.push(dateMs - sentAt, receivedAt - sentAt) },
    });
    const error = await apiRejection(client.call('get_balance', {}));
    expect(error.retryAfterMs).toBe(90_000);
    expect(seen[0]?.resetInMs).toBe(40_000);
    expect(observed).toEqual([service - 1_000, 0]);
  });

  it('429: a huge Retry-After (header or body) is waited at most the cap, and the message says so', async () => {
    const replies: Array<{ body: unknown; headers: Record<string, string> }> = [
      { body: '', headers: { 'retry-after': '9999999999' } },
      { body: { error: 'rate limit exceeded', retry_after: 9_999_999_999 }, headers: {} },
    ];
    for (const reply of replies) {
      const { client } = await setup((_req, res) => json(res, 429, reply.body, reply.headers));
      const error = await apiRejection(client.call('get_balance', {}));
      expect(error.retryAfterMs).toBe(MAX_RETRY_AFTER_MS);
      expect(error.message).toContain('retry after 900 s (the service asked for 9999999999 s; the desk waits at most 15 min)');
    }
  });

  it('an X-RateLimit-Reset far away reaches onRateLimit as the long duration it is (the scheduler bounds the wait)', async () => {
    const seen: RateLimitInfo[] = [];
    const { client } = await setup((_req, res) => json(res, 429, '', { 'x-ratelimit-reset': '9999999999' }), { onRateLimit: (info) => seen.push(info) });
    await apiRejection(client.call('get_balance', {}));
    expect(seen[0]?.resetInMs).toBeGreaterThan(MAX_RETRY_AFTER_MS);
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
    const resetSec = Math.ceil(Date.now() / 1000) + 60;
    const seen: RateLimitInfo[] = [];
    let n = 0;
    const { client } = await setup(
      (_req, res) => {
        n += 1;
        const headers = { 'x-ratelimit-limit': '80', 'x-ratelimit-remaining': String(80 - n), 'x-ratelimit-reset': String(resetSec) };
        if (n === 1) json(res, 200, { balance: 1, pending_balance: 2 }, headers);
        else if (n === 2) json(res, 429, { error: 'limit', retry_after: 3 }, headers);
        else json(res, 500, 'oops', headers);
      },
      { onRateLimit: (info) => seen.push(info) },
    );
    await client.call('get_balance', {});
    await apiRejection(client.call('get_balance', {}));
    await apiRejection(client.call('load_pending', {}));
    // The reset, a minute ahead on the service's clock (its Date header), arrives as a duration.
    const resetInMs = expect.toSatisfy((ms: number) => ms > 55_000 && ms <= 61_000);
    expect(seen).toEqual([
      { endpoint: 'get_balance', status: 200, limit: 80, remaining: 79, resetInMs },
      { endpoint: 'get_balance', status: 429, limit: 80, remaining: 78, resetInMs, retryAfterMs: 3_000 },
      { endpoint: 'load_pending', status: 500, limit: 80, remaining: 77, resetInMs },
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

