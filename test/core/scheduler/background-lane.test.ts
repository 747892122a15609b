import { describe, expect, it } from 'vitest';
import { createRateBudget, LANE_GLOBAL_HEADROOM } from '../../../src-main/core/scheduler/rate-budget.ts';
import { LANES } from '../../../src-main/core/scheduler/types.ts';
import { packTasks } from '../../../src-main/core/scheduler/pack.ts';
import { RATE_WINDOW_MS } from '../../../src-main/core/api/endpoints.ts';
import { fakeStack } from './support/fake-stack.ts';
import type { ServedRequest } from './support/fake-service.ts';

describe('the background lane (the desk\'s own work, a scheduled reprice)', () => {
  it('comes after every other lane and leaves the most of the global budget to them', () => {
    expect(LANES.at(-1)).toBe('background');
    expect(LANE_GLOBAL_HEADROOM.background).toBeGreaterThan(LANE_GLOBAL_HEADROOM.bulk);
  });

  it('sends on an endpoint only while no request holds one of its slots, so a trader\'s apply finds one taken at most', () => {
    const budget = createRateBudget({ marginMs: 0 });
    expect(budget.openAt('edit_listing', 'background', 0)).toBe(0);
    const slot = budget.acquire('edit_listing', 0);
    // In flight: the trader's lane goes at once, the background waits for the slot to free.
    expect(budget.openAt('edit_listing', 'bulk', 10)).toBe(10);
    expect(budget.openAt('edit_listing', 'background', 10)).toBe(Infinity);
    slot.release(1_000);
    expect(budget.openAt('edit_listing', 'background', 1_000)).toBe(61_000);
    // Another endpoint is free for it.
    expect(budget.openAt('edit_buy_order', 'background', 1_000)).toBe(1_000);
    // The bulk lane takes the endpoint's other four slots meanwhile.
    for (let i = 0; i < 4; i++) budget.acquire('edit_listing', 2_000).release(2_000);
    expect(budget.openAt('edit_listing', 'bulk', 2_000)).toBe(61_000);
  });
});

describe('a trader\'s apply during a scheduled reprice\'s apply', () => {
  const editTasks = (n: number, prefix: string) =>
    packTasks('edit_listing', Array.from({ length: n }, (_, i) => ({ listing_id: `${prefix}${i}`, price: 100 + i, promoted: 0 as const })), { idPrefix: prefix });
  const sentOf = (log: readonly ServedRequest[], prefix: string) =>
    log.filter((r) => (r.input as { items: { listing_id: string }[] }).items[0]?.listing_id.startsWith(prefix)).map((r) => r.sentAt);

  /** When the trader's 1,000 prices (10 requests) are sent, alone or while a scheduled reprice applies 3,000 in the background. */
  async function traderApply(withBackground: boolean): Promise<{ sent: number[]; startedAt: number; backgroundSent: number[] }> {
    const { clock, service, scheduler } = fakeStack();
    const background = withBackground ? scheduler.startJob(editTasks(3_000, 'S'), { lane: 'background' }) : null;
    // The trader applies while the scheduled one is under way (its request in flight).
    await clock.advance(100);
    const startedAt = clock.now();
    const trader = scheduler.startJob(editTasks(1_000, 'T'), { lane: 'bulk' });
    await clock.run(trader.done);
    if (background) await clock.run(background.done);
    return { sent: sentOf(service.log, 'T'), startedAt, backgroundSent: sentOf(service.log, 'S') };
  }

  it('is delayed by one request slot at most: the background holds at most one of the endpoint\'s slots while the trader\'s apply runs', async () => {
    const alone = await traderApply(false);
    const beside = await traderApply(true);
    expect(beside.sent).toHaveLength(10);
    // The first of the trader's requests goes at once.
    expect(beside.sent[0]).toBe(beside.startedAt);
    // Each request of the trader's goes no later than it would with one slot of the endpoint fewer (one window later at most).
    const window = RATE_WINDOW_MS + 1_000;
    beside.sent.forEach((at, i) => expect(at - beside.startedAt).toBeLessThanOrEqual((alone.sent[i] ?? 0) - alone.startedAt + window));
    // While the trader's requests go, the background sends none of its own.
    const traderEnd = Math.max(...beside.sent);
    expect(beside.backgroundSent.filter((at) => at > beside.startedAt && at <= traderEnd)).toEqual([]);
    // And the scheduled apply still ends.
    expect(beside.backgroundSent).toHaveLength(30);
  });
});
