import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import { createScheduler } from '../../../src-main/core/scheduler/scheduler.ts';
import type { Scheduler, SchedulerState } from '../../../src-main/core/scheduler/types.ts';
import { createFakeService, type FakeService } from './support/fake-service.ts';
import { createVirtualClock, type VirtualClock } from './support/virtual-clock.ts';

const edit = { items: [{ listing_id: 'L1', price: 100, promoted: 0 as const }] };

function setup(latency = 200): { clock: VirtualClock; service: FakeService; scheduler: Scheduler } {
  const clock = createVirtualClock();
  const hook: { scheduler?: Scheduler } = {};
  const service = createFakeService({ clock, latencyMs: () => latency, onRateLimit: (n) => hook.scheduler?.noteRateLimit(n) });
  const scheduler = createScheduler({ client: service, clock, random: () => 0 });
  hook.scheduler = scheduler;
  return { clock, service, scheduler };
}

const sends = (service: FakeService, endpoint?: string) =>
  service.log.filter((r) => endpoint === undefined || r.endpoint === endpoint).map((r) => r.sentAt);

describe('scheduler budget', () => {
  it('sends up to the limit at once, then holds each slot until response + 60 s', async () => {
    const { clock, service, scheduler } = setup(200);
    const t0 = clock.now();
    const all = Promise.all(Array.from({ length: 6 }, () => scheduler.request('edit_listing', edit, { lane: 'bulk' })));
    await clock.run(all);
    const times = sends(service, 'edit_listing');
    expect(times.slice(0, 5)).toEqual([t0, t0, t0, t0, t0]);
    // First response at t0 + 200; its slot is free 60 s (+100 ms margin) later.
    expect(times[5]).toBe(t0 + 200 + 60_000 + 100);
    expect(service.log.every((r) => r.status === 200)).toBe(true);
  });

  it('holds the slot of a request it stopped waiting for as long again as it was on its way: the service may count it later still', async () => {
    const clock = createVirtualClock();
    const hook: { scheduler?: Scheduler } = {};
    // The service counts a request 90 % of the way through its 40 s: 36 s after it left, after the caller gave up at 30 s.
    const service = createFakeService({ clock, latencyMs: () => 40_000, stampFraction: () => 0.9, onRateLimit: (n) => hook.scheduler?.noteRateLimit(n) });
    const scheduler = createScheduler({ client: service, clock, random: () => 0 });
    hook.scheduler = scheduler;
    const t0 = clock.now();
    await expect(clock.run(scheduler.request('set_user_agent', {}, { lane: 'heartbeat', answerWithinMs: 30_000, retries: 0 })))
      .rejects.toMatchObject({ kind: 'network' });
    await clock.run(scheduler.request('set_user_agent', {}, { lane: 'heartbeat', retries: 0 }));
    // Given up at 30 s and counted as if it arrived 30 s later: the next goes at 30 + 30 + 60 s (and the margin), not at 90 s,
    // which the service (that counted the first at 36 s) refused.
    expect(service.log.map((r) => [r.sentAt - t0, r.status])).toEqual([[0, 200], [120_100, 200]]);
  });

  it('runs different endpoints side by side', async () => {
    const { clock, service, scheduler } = setup();
    const t0 = clock.now();
    const eps = ['edit_listing', 'delete_listing', 'create_buy_order', 'get_balance'] as const;
    const inputs = {
      edit_listing: edit,
      delete_listing: { items: [{ asset_id: '11' }] },
      create_buy_order: { items: [{ sku: '5021;6', price: 100, quantity: 1 }] },
      get_balance: {},
    };
    await clock.run(Promise.all(eps.map((e) => scheduler.request(e, inputs[e] as never, { lane: 'interactive' }))));
    expect(service.log.map((r) => r.sentAt)).toEqual([t0, t0, t0, t0]);
  });

  it('serves a higher lane first when both wait for the same endpoint', async () => {
    const { clock, service, scheduler } = setup();
    const bulk = Array.from({ length: 10 }, (_, i) =>
      scheduler.request('edit_listing', { items: [{ listing_id: `B${i}`, price: 1, promoted: 0 }] }, { lane: 'bulk' }),
    );
    await clock.advance(1_000);
    const click = scheduler.request('edit_listing', { items: [{ listing_id: 'CLICK', price: 1, promoted: 0 }] }, { lane: 'interactive' });
    await clock.run(Promise.all([...bulk, click]));
    const order = service.log.map((r) => (r.input as typeof edit).items[0]?.listing_id);
    expect(order.indexOf('CLICK')).toBe(5);
  });

  it('leaves global headroom to higher lanes when the server says the key is busy', async () => {
    const { clock, service, scheduler } = setup();
    // Another program used the key: the server says only 6 global requests are left.
    scheduler.noteRateLimit({ endpoint: 'get_balance', status: 200, limit: 80, remaining: 6 });
    const bulk = scheduler.request('edit_listing', edit, { lane: 'bulk' });
    const beat = scheduler.request('set_user_agent', {}, { lane: 'heartbeat' });
    await clock.run(beat);
    expect(sends(service)).toHaveLength(1);
    expect(service.log[0]?.endpoint).toBe('set_user_agent');
    await clock.run(bulk);
    // The bulk request waited until the other program's requests left the window.
    expect(service.log[1]?.endpoint).toBe('edit_listing');
    expect((service.log[1]?.sentAt ?? 0) - (service.log[0]?.sentAt ?? 0)).toBeGreaterThanOrEqual(60_000);
  });
});

describe('scheduler failures', () => {
  it('waits out a 429 for retry_after, then sends again, without failing', async () => {
    const { clock, service, scheduler } = setup();
    const states: SchedulerState[] = [];
    scheduler.on('state', (s) => states.push(s));
    service.failNext('edit_listing', () =>
      new ApiError('rate_limited', 'slow down', { endpoint: 'edit_listing', status: 429, retryAfterMs: 30_000, body: '{"error":"endpoint limit","retry_after":30}' }),
    );
    const t0 = clock.now();
    const other = scheduler.request('get_balance', {}, { lane: 'poll' });
    const result = await clock.run(scheduler.request('edit_listing', edit, { lane: 'interactive' }));
    expect(result).toEqual({ success: true });
    const times = sends(service, 'edit_listing');
    expect(times).toHaveLength(2);
    expect(times[1]).toBe(t0 + 200 + 30_000);
    expect(states.some((s) => s.pauses.some((p) => p.scope === 'edit_listing'))).toBe(true);
    expect(scheduler.state.pauses).toEqual([]);
    // An endpoint pause leaves the other endpoints alone.
    await clock.run(other);
    expect(sends(service, 'get_balance')).toEqual([t0]);
  });

  it('pauses every endpoint for a global 429', async () => {
    const { clock, service, scheduler } = setup();
    service.failNext('edit_listing', () => {
      // What the client reports from the headers of this 429: X-RateLimit-Limit 80 = the global limit.
      scheduler.noteRateLimit({ endpoint: 'edit_listing', status: 429, limit: 80, remaining: 0, resetInMs: 20_000 });
      return new ApiError('rate_limited', 'slow down', { endpoint: 'edit_listing', status: 429, retryAfterMs: 20_000 });
    });
    const t0 = clock.now();
    const first = scheduler.request('edit_listing', edit, { lane: 'bulk' });
    await clock.advance(500);
    expect(scheduler.state.pauses.map((p) => p.scope)).toEqual(['global']);
    const balance = scheduler.request('get_balance', {}, { lane: 'poll' });
    await clock.run(Promise.all([first, balance]));
    expect(sends(service, 'get_balance')[0]).toBe(t0 + 200 + 20_000);
  });

  it('stops on 401: queued requests fail, nothing more is sent until unblocked', async () => {
    const { clock, service, scheduler } = setup();
    service.failNext('edit_listing', () => new ApiError('auth', 'key refused', { endpoint: 'edit_listing', status: 401 }));
    const requests = Array.from({ length: 7 }, () => scheduler.request('edit_listing', edit, { lane: 'bulk' }).catch((e: unknown) => e));
    const results = await clock.run(Promise.all(requests));
    // 5 went out at once: the first got the 401, the 4 already sent were answered;
    // the other 2 never left.
    const refused = results.filter((e) => e instanceof ApiError && e.kind === 'auth');
    expect(refused).toHaveLength(3);
    expect(results.filter((r) => !(r instanceof ApiError))).toHaveLength(4);
    expect(service.log).toHaveLength(5);
    expect(scheduler.state.blocked).toBe('auth');
    expect(scheduler.state.blockedError?.kind).toBe('auth');
    await expect(scheduler.request('get_balance', {}, { lane: 'poll' })).rejects.toMatchObject({ kind: 'auth' });
    expect(service.log).toHaveLength(5);
    scheduler.unblock();
    expect(scheduler.state.blocked).toBeNull();
    await clock.run(scheduler.request('get_balance', {}, { lane: 'poll' }));
    expect(service.log).toHaveLength(6);
  });

  it('a new key starts with its own rate count: what the previous key used holds nothing back', async () => {
    const { clock, service, scheduler } = setup();
    await clock.run(scheduler.request('set_user_agent', {}, { lane: 'heartbeat' }));
    await clock.advance(1_000);
    const replacedAt = clock.now();
    scheduler.newKey();
    // The service counts per key (1 a minute here): the new key's first beat goes at once, not a minute later.
    await clock.run(scheduler.request('set_user_agent', {}, { lane: 'heartbeat' }).catch(() => undefined));
    expect(sends(service, 'set_user_agent').slice(0, 2)).toEqual([replacedAt - 1_000 - 200, replacedAt]);
  });

  it('a 401 about the key just replaced neither blocks nor fails: the request is sent again with the new key', async () => {
    const { clock, service, scheduler } = setup();
    service.failNext('edit_listing', () => new ApiError('auth', 'key refused', { endpoint: 'edit_listing', status: 401 }));
    const sent = scheduler.request('edit_listing', edit, { lane: 'interactive' });
    await clock.advance(100);
    scheduler.newKey();
    await expect(clock.run(sent)).resolves.toBeDefined();
    expect(scheduler.state.blocked).toBeNull();
    expect(service.log.map((r) => r.status)).toEqual([401, 200]);
  });

  it('blocks with "forbidden" on 403', async () => {
    const { clock, service, scheduler } = setup();
    service.failNext(null, () => new ApiError('forbidden', 'not allowed', { status: 403 }));
    await expect(clock.run(scheduler.request('get_balance', {}, { lane: 'poll' }))).rejects.toMatchObject({ kind: 'forbidden' });
    expect(scheduler.state.blocked).toBe('forbidden');
  });

  it('retries network errors and 5xx with backoff, then gives up', async () => {
    const { clock, service, scheduler } = setup();
    service.failNext('get_balance', () => new ApiError('server', 'oops', { status: 503 }), 2);
    const t0 = clock.now();
    await clock.run(scheduler.request('get_balance', {}, { lane: 'poll' }));
    // The second get_balance slot is free at once (2/min); backoff (jitter 0) is 0.5 s, then 1 s,
    // but the third attempt must wait for a slot: response of the first + 60 s.
    expect(sends(service, 'get_balance')).toEqual([t0, t0 + 200 + 500, t0 + 200 + 60_100]);
    service.failNext('load_pending', () => new ApiError('network', 'refused'), 99);
    await expect(clock.run(scheduler.request('load_pending', {}, { lane: 'poll' }))).rejects.toMatchObject({ kind: 'network' });
    expect(sends(service, 'load_pending')).toHaveLength(6);
  });

  it('never re-sends a write whose outcome is unknown, nor a rejected one', async () => {
    const { clock, service, scheduler } = setup();
    service.failNext('create_listing', () => new ApiError('unknown_outcome', 'response lost'));
    const create = { items: [{ asset_id: '12', price: 100, promoted: 0 as const, game: '440' }] };
    await expect(clock.run(scheduler.request('create_listing', create, { lane: 'interactive' }))).rejects.toMatchObject({ kind: 'unknown_outcome' });
    service.failNext('edit_listing', () => new ApiError('rejected', 'no such listing', { status: 400 }));
    await expect(clock.run(scheduler.request('edit_listing', edit, { lane: 'interactive' }))).rejects.toMatchObject({ kind: 'rejected' });
    expect(service.log).toHaveLength(2);
    expect(scheduler.state.blocked).toBeNull();
  });

  it('never retries a create that may have been applied (a 5xx or an unreadable answer); retries an edit whose answer was lost', async () => {
    const { clock, service, scheduler } = setup();
    const create = { items: [{ asset_id: '12345678901', price: 100, promoted: 0 as const, game: '440' }] };
    service.failNext('create_listing', () => new ApiError('server', 'bad gateway', { endpoint: 'create_listing', status: 502 }));
    await expect(clock.run(scheduler.request('create_listing', create, { lane: 'bulk' }))).rejects.toMatchObject({
      kind: 'unknown_outcome',
      message: expect.stringMatching(/answered 502 after the request reached it/),
    });
    service.failNext('create_buy_order', () => new ApiError('bad_response', 'not JSON', { endpoint: 'create_buy_order', status: 200 }));
    const order = { items: [{ sku: '5021;6', price: 10, quantity: 1 }] };
    await expect(clock.run(scheduler.request('create_buy_order', order, { lane: 'bulk' }))).rejects.toMatchObject({ kind: 'unknown_outcome' });
    service.failNext('edit_listing', () => new ApiError('unknown_outcome', 'response lost'));
    await expect(clock.run(scheduler.request('edit_listing', edit, { lane: 'bulk' }))).resolves.toEqual({ success: true });
    expect(service.log.map((r) => r.endpoint)).toEqual(['create_listing', 'create_buy_order', 'edit_listing', 'edit_listing']);
  });

  it('treats anything else thrown by a write as an unknown outcome (retried first when the write is idempotent)', async () => {
    const clock = createVirtualClock();
    const scheduler = createScheduler({
      clock,
      client: { call: () => Promise.reject(new TypeError('socket hang up')) },
    });
    await expect(clock.run(scheduler.request('edit_listing', edit, { lane: 'bulk' }))).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const create = { items: [{ asset_id: '12345678901', price: 100, promoted: 0 as const, game: '440' }] };
    await expect(clock.run(scheduler.request('create_listing', create, { lane: 'bulk' }))).rejects.toMatchObject({ kind: 'unknown_outcome' });
  });

  it('reports a write cut off by its caller after it left as an unknown outcome', async () => {
    const clock = createVirtualClock();
    const scheduler = createScheduler({
      clock,
      client: {
        call: (_endpoint, _input, options) =>
          new Promise((_resolve, reject) =>
            options?.signal?.addEventListener('abort', () => reject(new ApiError('unknown_outcome', 'aborted after sending'))),
          ),
      },
    });
    const abort = new AbortController();
    const pending = scheduler.request('edit_listing', edit, { lane: 'interactive', signal: abort.signal }).catch((e: unknown) => e);
    await clock.flush();
    abort.abort(new Error('closed the window'));
    expect(await pending).toMatchObject({ kind: 'unknown_outcome' });
  });

  it('drops a waiting request when its signal aborts, sending nothing', async () => {
    const { clock, service, scheduler } = setup();
    await clock.run(Promise.all([1, 2].map(() => scheduler.request('get_balance', {}, { lane: 'poll' }))));
    const abort = new AbortController();
    const waiting = scheduler.request('get_balance', {}, { lane: 'poll', signal: abort.signal }).catch((e: unknown) => e);
    await clock.advance(1_000);
    abort.abort(new Error('user went away'));
    expect(await waiting).toMatchObject({ message: 'user went away' });
    await clock.advance(120_000);
    expect(service.log).toHaveLength(2);
  });

  it('refuses new work once closed', async () => {
    const { clock, scheduler } = setup();
    await clock.run(Promise.all([1, 2].map(() => scheduler.request('get_balance', {}, { lane: 'poll' }))));
    const waiting = scheduler.request('get_balance', {}, { lane: 'poll' }).catch((e: unknown) => e);
    await clock.flush();
    scheduler.close();
    expect(await waiting).toBeInstanceOf(ApiError);
    expect(() => scheduler.startJob([])).toThrow(/closed/);
  });
});
