import { describe, expect, it } from 'vitest';
import { ENDPOINTS, GLOBAL_LIMIT_PER_MINUTE, type EndpointName } from '../../../src-main/core/api/endpoints.ts';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import { estimateDurationMs } from '../../../src-main/core/scheduler/estimate.ts';
import { packTasks } from '../../../src-main/core/scheduler/pack.ts';
import { createScheduler } from '../../../src-main/core/scheduler/scheduler.ts';
import { createRandom } from '../../../src-main/sandbox/catalog/prng.ts';
import type { BatchOutcome, BatchTask, JobProgress, Scheduler } from '../../../src-main/core/scheduler/types.ts';
import { createFakeService, maxInAnyWindow, type FakeService } from './support/fake-service.ts';
import { createVirtualClock } from './support/virtual-clock.ts';

const editTasks = (n: number, prefix = 'E') =>
  packTasks(
    'edit_listing',
    Array.from({ length: n }, (_, i) => ({ listing_id: `${prefix}${i}`, price: 100 + i, promoted: 0 as const })),
    { idPrefix: prefix },
  );

function mixedTasks(): BatchTask[] {
  const range = (n: number) => Array.from({ length: n }, (_, i) => i);
  return [
    ...packTasks('create_listing', range(2_000).map((i) => ({ asset_id: `${1_000_000 + i}`, price: 100, promoted: 0 as const, game: '440' }))),
    ...editTasks(5_000),
    ...packTasks('delete_listing', range(2_000).map((i) => ({ asset_id: `${2_000_000 + i}` }))),
    ...packTasks('create_buy_order', range(500).map((i) => ({ sku: `${i};6`, price: 100, quantity: 1 }))),
    ...packTasks('edit_buy_order', range(300).map((i) => ({ sku: `${i};6`, price: 90, quantity: 1, active: 1 as const }))),
    ...packTasks('delete_buy_order', range(200).map((i) => ({ sku: `${i};11` }))),
  ];
}

function setup(opts: { latency?: () => number; stamp?: () => number } = {}) {
  const clock = createVirtualClock();
  const hook: { scheduler?: Scheduler } = {};
  const service = createFakeService({
    clock,
    latencyMs: opts.latency ?? (() => 200),
    ...(opts.stamp ? { stampFraction: opts.stamp } : {}),
    onRateLimit: (n) => hook.scheduler?.noteRateLimit(n),
  });
  const scheduler = createScheduler({ client: service, clock, random: () => 0.5 });
  hook.scheduler = scheduler;
  return { clock, service, scheduler };
}

function assertWithinLimits(service: FakeService) {
  const byEndpoint = new Map<EndpointName, number[]>();
  for (const r of service.log) byEndpoint.set(r.endpoint, [...(byEndpoint.get(r.endpoint) ?? []), r.stampAt]);
  for (const [endpoint, stamps] of byEndpoint) {
    expect(maxInAnyWindow(stamps), endpoint).toBeLessThanOrEqual(ENDPOINTS[endpoint].perMinute);
  }
  expect(maxInAnyWindow(service.log.map((r) => r.stampAt))).toBeLessThanOrEqual(GLOBAL_LIMIT_PER_MINUTE);
  expect(service.log.filter((r) => r.status === 429)).toEqual([]);
}

describe('jobs', () => {
  it('stays open with nothing queued until its first tasks are added, when it is held for them', async () => {
    const { clock, scheduler } = setup();
    let planned: () => void = () => undefined;
    const job = scheduler.startJob([], { openUntil: new Promise<void>((resolve) => (planned = resolve)) });
    await clock.run(clock.sleep(1_000));
    expect(job.progress()).toMatchObject({ state: 'running', itemsTotal: 0 });
    job.add(editTasks(150));
    planned();
    expect(await clock.run(job.done)).toMatchObject({ state: 'done', itemsTotal: 150, itemsDone: 150 });
    // Not held: a job with nothing to do is done at once.
    expect(await clock.run(scheduler.startJob([]).done)).toMatchObject({ state: 'done', itemsTotal: 0 });
  });

  it('runs a long mixed job without exceeding any limit in any 60-s window, close to the lower bound', async () => {
    // Latency from 20 ms to 8 s, stamped anywhere in the round trip: the accounting rule must hold for all.
    const random = createRandom(7);
    const { clock, service, scheduler } = setup({ latency: () => 20 + random() * 8_000, stamp: random });
    const tasks = mixedTasks();
    const job = scheduler.startJob(tasks);
    // A poller beside the job.
    const polls = (async () => {
      for (let i = 0; i < 10; i++) {
        await scheduler.request('load_pending', {}, { lane: 'poll' });
        await clock.sleep(30_000);
      }
    })();
    const t0 = clock.now();
    const final = await clock.run(job.done);
    await clock.run(polls);
    expect(final).toMatchObject({ state: 'done', itemsTotal: 10_000, itemsDone: 10_000, itemsLeft: 0, requestsSent: 100 });
    assertWithinLimits(service);
    const counts: Partial<Record<EndpointName, number>> = {};
    for (const t of tasks) counts[t.endpoint] = (counts[t.endpoint] ?? 0) + 1;
    const bound = estimateDurationMs(counts);
    expect(bound).toBe(9 * 60_000);
    // Each window turn costs a round trip (≤ 8 s here) on top of the minute.
    expect(clock.now() - t0).toBeLessThan(bound + 10 * 8_100);
  });

  it('reports progress with an ETA from the limits', async () => {
    const { clock, scheduler } = setup();
    const job = scheduler.startJob(editTasks(1_000));
    const seen: JobProgress[] = [];
    job.on('progress', (p) => seen.push(p));
    const first = job.progress();
    expect(first).toMatchObject({ state: 'running', itemsTotal: 1_000, itemsLeft: 1_000, requestsSent: 0 });
    expect(first.etaMs).toBe(estimateDurationMs({ edit_listing: 10 }));
    await clock.advance(1_000);
    expect(job.progress()).toMatchObject({ itemsDone: 500, requestsSent: 5 });
    // 5 left, all 5 slots busy until 200 ms + 60.1 s.
    expect(job.progress().etaMs).toBe(200 + 60_100 - 1_000);
    const final = await clock.run(job.done);
    expect(final).toMatchObject({ state: 'done', itemsDone: 1_000, etaMs: 0 });
    expect(seen.at(-1)?.state).toBe('done');
    expect(seen.map((p) => p.itemsDone)).toContain(500);
  });

  it('pauses and resumes: nothing is sent while paused', async () => {
    const { clock, service, scheduler } = setup();
    const job = scheduler.startJob(editTasks(2_000));
    await clock.advance(1_000);
    job.pause();
    expect(job.progress()).toMatchObject({ state: 'paused', etaMs: null });
    const pausedAt = clock.now();
    await clock.advance(10 * 60_000);
    expect(service.log.filter((r) => r.sentAt > pausedAt)).toEqual([]);
    job.resume();
    const final = await clock.run(job.done);
    expect(final).toMatchObject({ state: 'done', itemsDone: 2_000, requestsSent: 20 });
    expect(service.log[5]?.sentAt).toBe(pausedAt + 10 * 60_000);
  });

  it('cancels: the request in flight is awaited, nothing new is sent', async () => {
    const { clock, service, scheduler } = setup();
    const outcomes: string[] = [];
    const job = scheduler.startJob(editTasks(2_000), { onOutcome: (t, o) => void outcomes.push(`${t.id}:${o.status}`) });
    await clock.advance(100); // 5 in flight
    expect(service.inFlight).toBe(5);
    job.cancel();
    expect(job.progress().state).toBe('cancelling');
    const final = await clock.run(job.done);
    expect(final).toMatchObject({ state: 'cancelled', itemsDone: 500, itemsLeft: 1_500, requestsSent: 5 });
    expect(outcomes).toEqual(['E:0:done', 'E:1:done', 'E:2:done', 'E:3:done', 'E:4:done']);
    await clock.advance(10 * 60_000);
    expect(service.log).toHaveLength(5);
  });

  it('stops on 401: batches never sent are reported as stopped, nothing more goes out', async () => {
    const { clock, service, scheduler } = setup();
    const outcomes: BatchOutcome['status'][] = [];
    service.failNext('edit_listing', () => new ApiError('auth', 'key revoked', { status: 401 }));
    const job = scheduler.startJob(editTasks(1_000), { onOutcome: (_t, o) => void outcomes.push(o.status) });
    const final = await clock.run(job.done);
    expect(final.state).toBe('stopped');
    expect(final.stopReason?.kind).toBe('auth');
    expect(scheduler.state.blocked).toBe('auth');
    // 5 sent at once: 1 refused, 4 done; the 5 never sent are stopped, as is the refused one.
    expect(outcomes.filter((s) => s === 'done')).toHaveLength(4);
    expect(outcomes.filter((s) => s === 'stopped')).toHaveLength(6);
    expect(final).toMatchObject({ itemsDone: 400, itemsLeft: 600 });
    await clock.advance(5 * 60_000);
    expect(service.log).toHaveLength(5);
  });

  it('reports rejected batches as failed, lost responses as unknown, and takes follow-up tasks', async () => {
    const { clock, service, scheduler } = setup();
    service.failNext('edit_listing', () => new ApiError('rejected', 'bad item', { status: 400 }));
    service.failNext('create_listing', () => new ApiError('unknown_outcome', 'socket reset'));
    const create = packTasks('create_listing', [{ asset_id: '1', price: 1, promoted: 0, game: '440' }]);
    const outcomes: string[] = [];
    const job = scheduler.startJob([...editTasks(100), ...create], {
      onOutcome: (task, outcome) => {
        outcomes.push(`${task.id}:${outcome.status}`);
        // Split the refused batch in halves.
        if (task.id === 'E:0' && outcome.status === 'failed') {
          const items = (task.input as { items: unknown[] }).items;
          return [50, 50].map((n, i) => ({
            id: `E:0/${i}`,
            endpoint: task.endpoint,
            input: { items: items.slice(i * 50, i * 50 + n) } as BatchTask['input'],
            itemCount: n,
          }));
        }
        return undefined;
      },
    });
    const final = await clock.run(job.done);
    expect(outcomes.sort()).toEqual(['E:0/0:done', 'E:0/1:done', 'E:0:failed', 'create_listing:0:unknown_outcome']);
    expect(final).toMatchObject({ state: 'done', itemsTotal: 101, itemsDone: 100, itemsFailed: 0, itemsUnknown: 1, requestsSent: 4 });
    expect(service.log.filter((r) => r.endpoint === 'create_listing')).toHaveLength(1);
  });

  it('journals before every send, retries transient failures, waits out 429s without failing', async () => {
    const { clock, service, scheduler } = setup();
    service.failNext('edit_listing', () => new ApiError('server', 'busy', { status: 502 }));
    service.failNext('delete_listing', () => new ApiError('rate_limited', 'slow', { status: 429, retryAfterMs: 15_000 }));
    const journal: string[] = [];
    const tasks = [...editTasks(100), ...packTasks('delete_listing', [{ asset_id: '777' }])];
    const job = scheduler.startJob(tasks, {
      beforeSend: (t) => void journal.push(`sent ${t.id}`),
      onOutcome: (t, o) => void journal.push(`${o.status} ${t.id}`),
    });
    const final = await clock.run(job.done);
    expect(final).toMatchObject({ state: 'done', itemsDone: 101, itemsFailed: 0, requestsSent: 4 });
    expect(journal).toEqual(['sent E:0', 'sent delete_listing:0', 'sent E:0', 'done E:0', 'sent delete_listing:0', 'done delete_listing:0']);
  });

  it('sends a batch as beforeSend revised it, sends nothing of one it withdrew, and counts only what went', async () => {
    const { clock, service, scheduler } = setup();
    const [first, second, third] = editTasks(300);
    const later = editTasks(50, 'L');
    const job = scheduler.startJob([first, second, third] as BatchTask[], {
      beforeSend: (t) => {
        // Ten of the first batch's items were settled meanwhile; the second is settled whole, and two batches go instead.
        if (t.id === 'E:0') return { ...t, input: { items: (t.input as { items: unknown[] }).items.slice(10) } as BatchTask['input'], itemCount: 90 };
        if (t.id === 'E:1') return { withdrawn: later };
        return undefined;
      },
    });
    const final = await clock.run(job.done);
    expect(final).toMatchObject({ state: 'done', itemsTotal: 240, itemsDone: 240, itemsFailed: 0, requestsSent: 3 });
    const sent = service.log.map((r) => {
      const items = (r.input as { items: { listing_id: string }[] }).items;
      return [items[0]?.listing_id, items.length];
    });
    expect(sent.sort()).toEqual([['E10', 90], ['E200', 100], ['L0', 50]]);
    assertWithinLimits(service);
  });

  it('stops when the journal cannot record a send, without sending it', async () => {
    const { clock, service, scheduler } = setup();
    const job = scheduler.startJob(editTasks(300), {
      beforeSend: (t) => {
        if (t.id === 'E:1') throw new Error('disk full');
      },
    });
    const final = await clock.run(job.done);
    expect(final.state).toBe('stopped');
    expect(final.stopReason?.message).toMatch(/disk full/);
    const sent = () => service.log.map((r) => (r.input as { items: { listing_id: string }[] }).items[0]?.listing_id);
    // Batches already past their journal entry when it failed still went; the failed one did not.
    expect(sent()).not.toContain('E100');
    const count = service.log.length;
    expect(count).toBeLessThanOrEqual(3);
    await clock.advance(5 * 60_000);
    expect(service.log).toHaveLength(count);
  });

  it('takes tasks added while running, and two jobs share an endpoint fairly', async () => {
    const { clock, service, scheduler } = setup();
    const a = scheduler.startJob(editTasks(1_000, 'a'));
    const b = scheduler.startJob(editTasks(1_000, 'b'), { lane: 'interactive' });
    a.add(packTasks('delete_listing', [{ asset_id: '888' }], { idPrefix: 'late' }));
    const [pa, pb] = await clock.run(Promise.all([a.done, b.done]));
    expect(pa).toMatchObject({ state: 'done', itemsDone: 1_001 });
    expect(pb).toMatchObject({ state: 'done', itemsDone: 1_000 });
    assertWithinLimits(service);
    // The interactive job finishes first: it is served ahead of the bulk one.
    const lastB = Math.max(...service.log.filter((r) => (r.input as { items: { listing_id?: string }[] }).items[0]?.listing_id?.startsWith('b')).map((r) => r.sentAt));
    const lastA = Math.max(...service.log.filter((r) => (r.input as { items: { listing_id?: string }[] }).items[0]?.listing_id?.startsWith('a')).map((r) => r.sentAt));
    expect(lastB).toBeLessThan(lastA);
    expect(() => a.add([])).toThrow(/ended/);
  });
});
