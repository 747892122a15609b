import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import { packTasks } from '../../../src-main/core/scheduler/pack.ts';
import type { BatchOutcome, SchedulerState } from '../../../src-main/core/scheduler/types.ts';
import { liveFixture } from './support/live-fixture.ts';
import { worstWindows } from './support/live.ts';

// A minute of the service lasts 0.1 s here.
const startLive = liveFixture(600);

describe('scheduler against the sandbox over HTTP', () => {
  it('runs a mixed job within every limit in every 60-s window, with no 429', async () => {
    const { sandbox, scheduler } = await startLive();
    const listed = sandbox.admin.seedListings(3_500);
    const free = sandbox.admin.inventory().slice(0, 500);
    sandbox.admin.setBalance(10_000_000);
    const tasks = [
      ...packTasks('edit_listing', listed.slice(0, 3_000).map((l) => ({ listing_id: l.listing_id, price: l.price + 1, promoted: 0 as const }))),
      ...packTasks('delete_listing', listed.slice(3_000).map((l) => ({ asset_id: l.asset_id }))),
      ...packTasks('create_listing', free.map((a) => ({ asset_id: a.asset_id, price: 500, promoted: 0 as const, game: a.game }))),
      ...packTasks('create_buy_order', free.slice(0, 300).map((a) => ({ sku: a.sku, price: 100, quantity: 1 }))),
    ];
    const final = await scheduler.startJob(tasks).done;
    expect(final).toMatchObject({ state: 'done', itemsDone: 4_300, itemsFailed: 0, itemsUnknown: 0, requestsSent: 43 });
    expect(sandbox.log.counters.count429).toBe(0);
    for (const w of worstWindows(sandbox)) expect(w.worst, w.scope).toBeLessThanOrEqual(w.limit);
    const edited = new Map(sandbox.admin.listings().map((l) => [l.listing_id, l.price]));
    expect(listed.slice(0, 3_000).every((l) => edited.get(l.listing_id) === l.price + 1)).toBe(true);
    expect(sandbox.log.counters).toMatchObject({ listingsCreated: 500, listingsDeleted: 500, duplicateCreates: 0 });
  });

  it('stays within the limits of a server counting in fixed windows too', async () => {
    const { sandbox, scheduler } = await startLive({ sandbox: { rateWindow: 'fixed' } });
    const listed = sandbox.admin.seedListings(2_000);
    const tasks = [
      ...packTasks('edit_listing', listed.slice(0, 1_500).map((l) => ({ listing_id: l.listing_id, price: l.price + 2, promoted: 1 as const }))),
      ...packTasks('delete_listing', listed.slice(1_500).map((l) => ({ asset_id: l.asset_id }))),
    ];
    const final = await scheduler.startJob(tasks).done;
    expect(final).toMatchObject({ state: 'done', itemsDone: 2_000 });
    expect(sandbox.log.counters.count429).toBe(0);
    for (const w of worstWindows(sandbox)) expect(w.worst, w.scope).toBeLessThanOrEqual(w.limit);
  });

  it('waits out a 429 storm and then succeeds', async () => {
    const { sandbox, scheduler, clock } = await startLive();
    const states: SchedulerState[] = [];
    scheduler.on('state', (s) => states.push(s));
    // One 429 for sure, however long the test took to get here (a minute lasts 0.1 s).
    sandbox.faults.set({ storm429: { retryAfterSec: 20, untilMs: clock.now() + 10 * 60_000, count: 1 } });
    const balance = await scheduler.request('get_balance', {}, { lane: 'interactive' });
    expect(balance.balance).toBeGreaterThanOrEqual(0);
    expect(sandbox.log.counters.countStorm429).toBeGreaterThanOrEqual(1);
    expect(states.some((s) => s.pauses.length > 0)).toBe(true);
    const [first, last] = [sandbox.log.requests[0], sandbox.log.requests.at(-1)];
    expect(last?.status).toBe(200);
    expect((last?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(20_000);
  });

  it('stops a job when the key is revoked, and runs again once unblocked', async () => {
    const { sandbox, scheduler } = await startLive();
    const listed = sandbox.admin.seedListings(2_000);
    const job = scheduler.startJob(packTasks('edit_listing', listed.map((l) => ({ listing_id: l.listing_id, price: l.price + 5, promoted: 0 as const }))));
    await new Promise<void>((resolve) => job.on('progress', (p) => p.itemsDone >= 500 && resolve()));
    sandbox.admin.setKeyStatus('revoked');
    const final = await job.done;
    expect(final.state).toBe('stopped');
    expect(final.stopReason?.kind).toBe('auth');
    expect(scheduler.state.blocked).toBe('auth');
    const sent = sandbox.log.requests.length;
    // Only requests already on their way when the key was revoked met the 401.
    expect(sandbox.log.counters.count401).toBeGreaterThanOrEqual(1);
    expect(sandbox.log.counters.count401).toBeLessThanOrEqual(5);
    await expect(scheduler.request('get_balance', {}, { lane: 'interactive' })).rejects.toBeInstanceOf(ApiError);
    expect(sandbox.log.requests).toHaveLength(sent);
    sandbox.admin.setKeyStatus('valid');
    scheduler.unblock();
    await scheduler.request('get_balance', {}, { lane: 'interactive' });
    expect(sandbox.log.requests).toHaveLength(sent + 1);
  });

  it('reports a create whose response was lost as unknown, and never sends it again', async () => {
    const { sandbox, scheduler } = await startLive();
    sandbox.faults.set({ dropAfterProcess: { endpoints: ['create_listing'], count: 1 } });
    const free = sandbox.admin.inventory().slice(0, 200);
    const outcomes: BatchOutcome['status'][] = [];
    const job = scheduler.startJob(
      packTasks('create_listing', free.map((a) => ({ asset_id: a.asset_id, price: 300, promoted: 0 as const, game: a.game }))),
      { onOutcome: (_t, o) => void outcomes.push(o.status) },
    );
    const final = await job.done;
    expect(outcomes.sort()).toEqual(['done', 'unknown_outcome']);
    expect(final).toMatchObject({ itemsDone: 100, itemsUnknown: 100 });
    expect(sandbox.log.requests.filter((r) => r.endpoint === 'create_listing')).toHaveLength(2);
    // The lost one was processed by the service: 200 listings exist, none twice.
    expect(sandbox.log.counters).toMatchObject({ listingsCreated: 200, duplicateCreates: 0 });
  });
});
