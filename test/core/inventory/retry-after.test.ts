import { describe, expect, it, vi } from 'vitest';
import { systemClock, type Clock } from '../../../src-main/core/clock.ts';
import { MAX_RETRY_AFTER_MS } from '../../../src-main/core/inventory/read-bounds.ts';
import { inventoryFixture } from './fixture.ts';

/**
 * A 429 whose Retry-After asks for 9,999,999,999 seconds (a broken proxy's)
 * is waited out for at most the cap, on a timer no longer than a timer can
 * be, while the other accounts are read; the wait and its cap are said on
 * screen. The desk's timers are vitest's fake ones (an over-long one fires
 * after 1 ms, as Node's does), the simulator answers over real HTTP.
 */

const open = inventoryFixture();
const LONGEST_TIMER_MS = 2 ** 31 - 1;
const realSetTimeout = globalThis.setTimeout;

/**
 * The desk's clock on the fake timers, counting its timers. Fake time moves
 * only while the desk waits on a timer (or has nothing to do): an answer on
 * its way gets real time, so the simulator's log shows the desk's times.
 */
function fakeTimerClock() {
  const sleeps: number[] = [];
  let sleeping = 0;
  const clock: Clock & { advance(ms: number): void } = {
    now: () => Date.now(),
    monotonic: () => performance.now(),
    sleep(ms, signal) {
      sleeps.push(ms);
      sleeping += 1;
      return systemClock.sleep(ms, signal).finally(() => void (sleeping -= 1));
    },
    advance: (ms) => vi.advanceTimersByTime(ms),
  };
  /** Real time, until the desk waits on a timer or is no longer `reading`. */
  const answersArrived = async (reading: () => boolean) => {
    for (let i = 0; i < 5_000 && sleeping === 0 && reading(); i++) await new Promise((resolve) => realSetTimeout(resolve, 1));
  };
  /** Moves the fake time on by `ms`, a step at a time. */
  const pass = async (reading: () => boolean, ms: number, step = 1_000) => {
    for (let t = 0; t < ms; t += step) {
      await answersArrived(reading);
      await vi.advanceTimersByTimeAsync(Math.min(step, ms - t));
    }
    await answersArrived(reading);
  };
  return { clock, sleeps, pass };
}

describe('inventory reads: a huge Retry-After', () => {
  it('waits at most the cap, on timers that never overflow and never spin, while the other accounts are read', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'], now: Date.UTC(2026, 0, 5, 12, 0, 0) });
    try {
      const { clock, sleeps, pass } = fakeTimerClock();
      const f = await open({ clock });
      const reading = () => f.inventory.reads.state().some((a) => a.phase === 'reading');
      const main = f.sandbox.accounts.main;
      f.sandbox.faults.set({ inventory429: { count: 1, retryAfterSec: 9_999_999_999 } });
      f.inventory.reads.refresh();

      // Half a minute: the main account is refused, the three linked ones are read meanwhile.
      await pass(reading, 30_000);
      // A timer for each gap between requests and one for the wait: no timer fires again and again.
      expect(sleeps.length).toBeLessThanOrEqual(8);
      const first = f.sandbox.log.inventoryRequests.map((r) => [r.account === main ? 'main' : 'linked', r.status]);
      expect(first).toEqual([['main', 429], ['linked', 200], ['linked', 200], ['linked', 200]]);
      const [limited] = f.sandbox.log.inventoryRequests;
      const waiting = f.inventory.reads.state()[0];
      expect(waiting).toMatchObject({ phase: 'waiting', nextAt: (limited?.at ?? 0) + MAX_RETRY_AFTER_MS, problem: { kind: 'rate_limited' } });
      expect(waiting?.problem?.message).toMatch(/asked for a wait of 9,999,999,999 seconds\. The desk waits at most 15 minutes/);
      expect(f.inventory.reads.state().slice(1).map((s) => s.phase)).toEqual(['done', 'done', 'done']);

      // Nothing goes before the cap is over; the read goes on when it is.
      const nextAt = waiting?.nextAt ?? 0;
      await pass(reading, nextAt - Date.now() - 1, nextAt - Date.now() - 1);
      expect(f.sandbox.log.inventoryRequests.length).toBe(4);
      await pass(reading, 10_000);
      const again = f.sandbox.log.inventoryRequests.filter((r) => r.account === main);
      expect(again.map((r) => r.status)).toEqual([429, 200, 200]);
      // Sent when the wait was over; logged by the simulator within the step of fake time it went in.
      expect(again[1]?.at).toBeGreaterThanOrEqual(nextAt);
      expect(again[1]?.at).toBeLessThan(nextAt + 1_000);
      expect(f.inventory.reads.state()[0]).toMatchObject({ phase: 'done', items: 2_500, problem: null });
      // A handful of timers in all, none longer than a timer can be.
      expect(sleeps.length).toBeLessThanOrEqual(12);
      expect(Math.max(...sleeps)).toBeLessThanOrEqual(Math.min(MAX_RETRY_AFTER_MS, LONGEST_TIMER_MS));
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('inventory reads: a wall-clock step during a wait', () => {
  it('waits out Retry-After on the monotonic clock: a clock set back two hours neither stalls the read nor moves it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'], now: Date.UTC(2026, 0, 5, 12, 0, 0) });
    try {
      const { clock, pass } = fakeTimerClock();
      const f = await open({ clock });
      const reading = () => f.inventory.reads.state().some((a) => a.phase === 'reading');
      const main = f.sandbox.accounts.main;
      f.sandbox.faults.set({ inventory429: { count: 1, retryAfterSec: 60 } });
      f.inventory.reads.refresh([main]);
      await pass(reading, 5_000);
      expect(f.inventory.reads.state()[0]).toMatchObject({ phase: 'waiting', problem: { kind: 'rate_limited' } });

      // The wall clock goes back two hours (an NTP correction, a hand-set clock): the minute's wait is still a minute.
      vi.setSystemTime(Date.now() - 2 * 60 * 60_000);
      await pass(reading, 60_000);
      const statuses = f.sandbox.log.inventoryRequests.filter((r) => r.account === main).map((r) => r.status);
      expect(statuses.slice(0, 2)).toEqual([429, 200]);
      expect(f.inventory.reads.state()[0]).toMatchObject({ phase: 'done', items: 2_500 });
    } finally {
      vi.useRealTimers();
    }
  });
});
