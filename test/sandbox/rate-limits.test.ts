import { afterEach, describe, expect, it } from 'vitest';
import { GLOBAL_LIMIT_PER_MINUTE } from '../../src-main/core/api/endpoints.ts';
import { scaledClock } from '../../src-main/core/clock.ts';
import type { Sandbox, SandboxOptions } from '../../src-main/sandbox/index.ts';
import { startSandbox } from '../../src-main/sandbox/index.ts';
import { RateLimiter } from '../../src-main/sandbox/rate-limiter.ts';
import type { ManualClock } from './helpers.ts';
import { call, manualClock, MINUTE } from './helpers.ts';

let sandbox: Sandbox | undefined;
afterEach(() => sandbox?.close());

async function start(options: SandboxOptions): Promise<Sandbox> {
  sandbox = await startSandbox({ inventorySize: 200, tradeSchedule: false, ...options });
  return sandbox;
}

describe('rate limiter (unit)', () => {
  it('slides: a slot frees exactly one window after the request that took it', () => {
    const limiter = new RateLimiter('sliding');
    const t0 = 1_000_000_000_000;
    expect(limiter.take('k', 'get_balance', t0).allowed).toBe(true);
    expect(limiter.take('k', 'get_balance', t0 + 30_000).allowed).toBe(true);
    const refused = limiter.take('k', 'get_balance', t0 + 59_000);
    expect(refused).toMatchObject({ allowed: false, retryAfterSec: 1, status: { scope: 'get_balance', remaining: 0, limit: 2 } });
    expect(limiter.take('k', 'get_balance', t0 + 60_000).allowed).toBe(true);
    expect(limiter.take('k', 'get_balance', t0 + 60_001)).toMatchObject({ allowed: false, retryAfterSec: 30 });
  });

  it('fixed: counts reset at each window boundary of the clock', () => {
    const limiter = new RateLimiter('fixed');
    const t0 = 60_000 * 20_000_000 + 20_000; // 20 s into a minute
    expect(limiter.take('k', 'load_pending', t0).allowed).toBe(true);
    const refused = limiter.take('k', 'load_pending', t0 + 10_000);
    expect(refused).toMatchObject({ allowed: false, retryAfterSec: 30 });
    expect(refused.status.resetSec).toBe((t0 + 40_000) / 1000);
    expect(limiter.take('k', 'load_pending', t0 + 40_000).allowed).toBe(true);
  });

  it('enforces the global limit per key across endpoints, and keys are independent', () => {
    const limiter = new RateLimiter('sliding');
    for (let i = 0; i < GLOBAL_LIMIT_PER_MINUTE; i++) expect(limiter.take('k', null, 5_000 + i).allowed).toBe(true);
    const refused = limiter.take('k', 'get_balance', 6_000);
    expect(refused).toMatchObject({ allowed: false, status: { scope: 'global', limit: 80, remaining: 0 } });
    expect(limiter.take('other', 'get_balance', 6_000).allowed).toBe(true);
  });

  it('does not count refused requests', () => {
    const limiter = new RateLimiter('sliding');
    limiter.take('k', 'load_pending', 0);
    for (let i = 1; i < 50; i++) expect(limiter.take('k', 'load_pending', i * 1000).allowed).toBe(false);
    expect(limiter.take('k', 'load_pending', 60_000).allowed).toBe(true);
  });
});

describe('rate limits over HTTP', () => {
  it('sends X-RateLimit-* headers on every response and a 429 with retry_after and Retry-After', async () => {
    const clock = manualClock();
    const sb = await start({ clock });
    const first = await call(sb, 'get_balance');
    const second = await call(sb, 'get_balance');
    clock.advance(15_000);
    const third = await call(sb, 'get_balance');
    const nowSec = clock.now() / 1000;
    expect([first.status, second.status, third.status]).toEqual([200, 200, 429]);
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect(second.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(third.headers.get('x-ratelimit-reset'))).toBe(nowSec + 45);
    expect(third.body).toEqual({ error: expect.any(String), retry_after: 45 });
    expect(third.headers.get('retry-after')).toBe('45');
    const unauth = await call(sb, 'get_balance', undefined, { key: null });
    expect(unauth.headers.get('x-ratelimit-limit')).not.toBeNull();
    expect(sb.log.counters.count429).toBe(1);
  });

  it('holds each endpoint to its own limit, independently', async () => {
    const clock = manualClock();
    const sb = await start({ clock });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await call(sb, 'delete_all_buy_orders')).status);
    expect(statuses).toEqual([200, 429, 429, 429, 429, 429]);
    // Another endpoint has its own budget.
    expect((await call(sb, 'load_pending')).status).toBe(200);
    expect((await call(sb, 'load_pending_buy_orders')).status).toBe(200);
    clock.advance(MINUTE);
    expect((await call(sb, 'delete_all_buy_orders')).status).toBe(200);
  });

  it('refuses the 81st request of a minute on the global limit', async () => {
    const clock: ManualClock = manualClock();
    const sb = await start({ clock });
    const paths = Array.from({ length: GLOBAL_LIMIT_PER_MINUTE }, () =>
      fetch(`${sb.url}/api/dev/unknown`, { headers: { 'X-API-Key': sb.apiKey } }).then((r) => r.status));
    expect(new Set(await Promise.all(paths))).toEqual(new Set([404]));
    const refused = await call(sb, 'get_balance');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('80');
    expect(refused.body).toEqual({ error: 'rate limit exceeded: global', retry_after: 60 });
    clock.advance(MINUTE);
    expect((await call(sb, 'get_balance')).status).toBe(200);
  });

  it('measures the window on a scaled clock: at x600 a minute lasts 100 ms', async () => {
    const sb = await start({ clock: scaledClock(600) });
    const statuses: number[] = [];
    const started = performance.now();
    while (statuses.filter((s) => s === 200).length < 3) {
      statuses.push((await call(sb, 'load_pending')).status);
      if (statuses.at(-1) === 429) await new Promise((r) => setTimeout(r, 10));
    }
    const elapsed = performance.now() - started;
    expect(statuses).toContain(429);
    expect(elapsed).toBeGreaterThanOrEqual(190); // two full windows of 100 ms
    expect(elapsed).toBeLessThan(3_000);
  });

  it('uses minute boundaries with the fixed window', async () => {
    const clock = manualClock(Date.UTC(2026, 0, 5, 12, 0, 50));
    const sb = await start({ clock, rateWindow: 'fixed' });
    expect((await call(sb, 'set_user_agent')).status).toBe(200);
    const refused = await call(sb, 'set_user_agent');
    expect(refused.body).toEqual({ error: expect.any(String), retry_after: 10 });
    clock.advance(10_000);
    expect((await call(sb, 'set_user_agent')).status).toBe(200);
  });
});
