import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import { rateLimitedScope } from '../../../src-main/core/scheduler/rate-limited.ts';
import { fakeStack } from './support/fake-stack.ts';

const create = { items: [{ asset_id: '12345678901', price: 100, promoted: 0 as const, game: '440' }] };
const tooMany = (retryAfterMs: number) =>
  new ApiError('rate_limited', 'slow down', { endpoint: 'create_listing', status: 429, retryAfterMs, body: '{"error":"rate limit exceeded","retry_after":300}' });

const setup = () => fakeStack({ random: 0 });

describe('which limit a 429 exhausted', () => {
  it('reads it from the headers: the global limit only when it has nothing left', () => {
    const error = tooMany(1_000);
    const note = (limit: number, remaining?: number) => ({ endpoint: 'create_listing' as const, status: 429, limit, ...(remaining === undefined ? {} : { remaining }) });
    expect(rateLimitedScope('create_listing', note(80, 0), error)).toBe('global');
    // Headers that describe the global limit with room left: it was not the global limit that refused.
    expect(rateLimitedScope('create_listing', note(80, 61), error)).toBe('create_listing');
    expect(rateLimitedScope('create_listing', note(5, 0), error)).toBe('create_listing');
    expect(rateLimitedScope('create_listing', undefined, error)).toBe('unsure');
    expect(rateLimitedScope('create_listing', undefined, new ApiError('rate_limited', 'x', { body: 'global limit' }))).toBe('global');
  });
});

describe('a 429 pauses only what it concerns', () => {
  it('a create_listing 429 whose headers describe the global limit with room left pauses create_listing alone', async () => {
    const { clock, service, scheduler } = setup();
    service.failNext('create_listing', () => {
      scheduler.noteRateLimit({ endpoint: 'create_listing', status: 429, limit: 80, remaining: 70 });
      return tooMany(300_000);
    });
    const t0 = clock.now();
    void scheduler.request('create_listing', create, { lane: 'bulk' }).catch(() => undefined);
    await clock.advance(1_000);
    expect(scheduler.state.pauses.map((p) => p.scope)).toEqual(['create_listing']);
    await clock.run(Promise.all([
      scheduler.request('set_user_agent', {}, { lane: 'heartbeat' }),
      scheduler.request('get_balance', {}, { lane: 'poll' }),
    ]));
    expect(service.log.filter((r) => r.endpoint !== 'create_listing').every((r) => r.sentAt < t0 + 2_000)).toBe(true);
  });

  it('a global 429 of another endpoint pauses everything but the heartbeat', async () => {
    const { clock, service, scheduler } = setup();
    service.failNext('create_listing', () => {
      scheduler.noteRateLimit({ endpoint: 'create_listing', status: 429, limit: 80, remaining: 0 });
      return tooMany(300_000);
    });
    const t0 = clock.now();
    void scheduler.request('create_listing', create, { lane: 'bulk' }).catch(() => undefined);
    await clock.advance(1_000);
    expect(scheduler.state.pauses.map((p) => p.scope)).toEqual(['global']);
    const balance = scheduler.request('get_balance', {}, { lane: 'poll' });
    await clock.run(scheduler.request('set_user_agent', {}, { lane: 'heartbeat' }));
    expect(service.log.find((r) => r.endpoint === 'set_user_agent')?.sentAt).toBeLessThan(t0 + 2_000);
    await clock.run(balance);
    expect(service.log.find((r) => r.endpoint === 'get_balance')?.sentAt).toBeGreaterThanOrEqual(t0 + 300_000);
  });

  it('a 429 of the heartbeat itself holds the heartbeat', async () => {
    const { clock, service, scheduler } = setup();
    service.failNext('set_user_agent', () => {
      scheduler.noteRateLimit({ endpoint: 'set_user_agent', status: 429, limit: 80, remaining: 0 });
      return new ApiError('rate_limited', 'slow down', { endpoint: 'set_user_agent', status: 429, retryAfterMs: 90_000 });
    });
    const t0 = clock.now();
    await clock.run(scheduler.request('set_user_agent', {}, { lane: 'heartbeat' }));
    const beats = service.log.filter((r) => r.endpoint === 'set_user_agent').map((r) => r.sentAt - t0);
    expect(beats).toEqual([0, 200 + 90_000]);
  });
});
