import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RateLimitInfo } from '../../../src-main/core/api/client.ts';
import type { EndpointName } from '../../../src-main/core/api/endpoints.ts';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import { MAX_RETRY_AFTER_MS } from '../../../src-main/core/api/rate-headers.ts';
import { systemClock } from '../../../src-main/core/clock.ts';
import { createScheduler } from '../../../src-main/core/scheduler/scheduler.ts';
import type { RequestSender, Scheduler } from '../../../src-main/core/scheduler/types.ts';

/**
 * A 429 that asks for a wait of centuries (a garbled or hostile answer) is
 * waited at most MAX_RETRY_AFTER_MS, on a timer that a setTimeout can hold:
 * a longer one runs after 1 ms, and the queue would spin on it. On the real
 * clock under vitest's fake timers, which behave as Node's do there.
 */

const YEARS_MS = 9_999_999_999 * 1000;

/** Answers the first call with a 429 built by `refusal`, every later one with success; records when each came. */
function refusingOnce(refusal: (note: (info: RateLimitInfo) => void) => ApiError) {
  const calls: number[] = [];
  const hook: { scheduler?: Scheduler } = {};
  const client: RequestSender = {
    call: (async (endpoint: EndpointName) => {
      calls.push(performance.now());
      if (calls.length === 1) throw refusal((info) => hook.scheduler?.noteRateLimit(info));
      return endpoint === 'get_balance' ? { balance: 1, pending_balance: 0 } : { success: true };
    }) as RequestSender['call'],
  };
  const scheduler = createScheduler({ client, clock: systemClock, random: () => 0 });
  hook.scheduler = scheduler;
  return { calls, scheduler };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const cases: Array<[string, (note: (info: RateLimitInfo) => void) => ApiError]> = [
  ['a Retry-After of 9999999999 s', () => new ApiError('rate_limited', 'slow down', { endpoint: 'get_balance', status: 429, retryAfterMs: YEARS_MS })],
  ['an X-RateLimit-Reset centuries away', (note) => {
    note({ endpoint: 'get_balance', status: 429, limit: 2, remaining: 0, resetInMs: YEARS_MS });
    return new ApiError('rate_limited', 'slow down', { endpoint: 'get_balance', status: 429 });
  }],
];

describe('a 429 asking for a huge wait', () => {
  for (const [what, refusal] of cases) {
    it(`${what}: waits at most ${MAX_RETRY_AFTER_MS / 60_000} min, with no timer loop`, async () => {
      const timers = vi.spyOn(globalThis, 'setTimeout');
      const { calls, scheduler } = refusingOnce(refusal);
      const read = scheduler.request('get_balance', {}, { lane: 'poll' });
      await vi.advanceTimersByTimeAsync(1_000);
      expect(calls).toHaveLength(1);
      // One timer for the pause, not one a millisecond.
      expect(timers.mock.calls.length).toBeLessThanOrEqual(3);
      const until = scheduler.state.pauses[0]?.until ?? 0;
      expect(until - Date.now()).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS);
      await vi.advanceTimersByTimeAsync(MAX_RETRY_AFTER_MS);
      await expect(read).resolves.toEqual({ balance: 1, pending_balance: 0 });
      expect(calls).toHaveLength(2);
      expect((calls[1] ?? 0) - (calls[0] ?? 0)).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS);
      expect((calls[1] ?? 0) - (calls[0] ?? 0)).toBeGreaterThan(MAX_RETRY_AFTER_MS - 1_000);
      expect(timers.mock.calls.length).toBeLessThanOrEqual(5);
    });
  }
});
