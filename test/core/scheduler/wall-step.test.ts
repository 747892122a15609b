import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import { packTasks } from '../../../src-main/core/scheduler/pack.ts';
import { fakeStack } from './support/fake-stack.ts';
import type { FakeService } from './support/fake-service.ts';

/**
 * The desk's wall clock steps (NTP, the trader setting it, a resume with a
 * wrong RTC); the service's does not. Rate slots and pauses are durations,
 * so a step of two hours either way holds nothing for two hours and frees
 * nothing early. The fake service counts on its own time (the monotonic one).
 */

const HOUR = 3_600_000;
const edit = { items: [{ listing_id: 'L1', price: 100, promoted: 0 as const }] };
const sent = (service: FakeService, endpoint: string) => service.log.filter((r) => r.endpoint === endpoint).map((r) => r.sentAt);
const refused = (service: FakeService) => service.log.filter((r) => r.status === 429);

describe('rate slots and a wall clock that steps', () => {
  it('a step back of 2 h holds a slot for its minute, not for 2 h more', async () => {
    const { clock, service, scheduler } = fakeStack();
    await clock.run(scheduler.request('set_user_agent', {}, { lane: 'heartbeat' }));
    clock.stepWall(-2 * HOUR);
    await clock.run(scheduler.request('set_user_agent', {}, { lane: 'heartbeat' }), 5 * 60_000);
    const [first, second] = sent(service, 'set_user_agent');
    expect((second ?? 0) - (first ?? 0)).toBeLessThanOrEqual(61_000);
    expect(refused(service)).toEqual([]);
  });

  it('a step forward of 2 h frees no slot early: no 429', async () => {
    const { clock, service, scheduler } = fakeStack();
    await clock.run(Promise.all(Array.from({ length: 5 }, () => scheduler.request('edit_listing', edit, { lane: 'bulk' }))));
    clock.stepWall(2 * HOUR);
    await clock.run(scheduler.request('edit_listing', edit, { lane: 'bulk' }));
    const times = sent(service, 'edit_listing');
    expect((times[5] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(60_000);
    expect(refused(service)).toEqual([]);
  });

  it('a 429 pause lasts what the service asked, whichever way the wall clock steps meanwhile', async () => {
    const { clock, service, scheduler } = fakeStack();
    service.failNext('get_balance', () => new ApiError('rate_limited', 'slow down', { endpoint: 'get_balance', status: 429, retryAfterMs: 20_000 }));
    const read = scheduler.request('get_balance', {}, { lane: 'poll' });
    await clock.advance(1_000);
    expect(scheduler.state.pauses.map((p) => p.scope)).toEqual(['get_balance']);
    clock.stepWall(-2 * HOUR);
    await clock.run(read, 5 * 60_000);
    const [first, retry] = sent(service, 'get_balance');
    expect((retry ?? 0) - (first ?? 0)).toBeLessThanOrEqual(21_000);
  });

  it('shows a pause as a wall-clock time in the frame of the clock when it was set', async () => {
    const { clock, service, scheduler } = fakeStack();
    clock.stepWall(-2 * HOUR);
    service.failNext('get_balance', () => new ApiError('rate_limited', 'slow down', { endpoint: 'get_balance', status: 429, retryAfterMs: 20_000 }));
    const read = scheduler.request('get_balance', {}, { lane: 'poll' });
    await clock.advance(1_000);
    const until = scheduler.state.pauses[0]?.until ?? 0;
    expect(until - clock.now()).toBeGreaterThan(18_000);
    expect(until - clock.now()).toBeLessThanOrEqual(20_000);
    await clock.run(read);
  });

  it('a job goes on at the limits\' pace through steps of 2 h back and forth, with no 429', async () => {
    const { clock, service, scheduler } = fakeStack();
    const items = Array.from({ length: 2_000 }, (_, i) => ({ listing_id: `L${i}`, price: 100 + i, promoted: 0 as const }));
    const job = scheduler.startJob(packTasks('edit_listing', items));
    await clock.advance(30_000);
    clock.stepWall(-2 * HOUR);
    await clock.advance(45_000);
    clock.stepWall(2 * HOUR);
    await clock.advance(55_000);
    clock.stepWall(2 * HOUR);
    const done = await clock.run(job.done, 30 * 60_000);
    expect(done.itemsDone).toBe(2_000);
    // 20 requests at 5 a minute: the last goes 3 minutes (and the round trips) after the first.
    const times = sent(service, 'edit_listing');
    expect((times.at(-1) ?? 0) - (times[0] ?? 0)).toBeLessThan(3 * 60_000 + 2_000);
    expect(refused(service)).toEqual([]);
  });
});
