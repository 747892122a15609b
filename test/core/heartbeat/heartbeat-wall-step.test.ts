import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import type { HeartbeatStatus } from '../../../src-main/core/heartbeat/heartbeat.ts';
import { systemClock } from '../../../src-main/core/clock.ts';
import { createHeartbeat } from '../../../src-main/core/heartbeat/heartbeat.ts';
import { createScheduler } from '../../../src-main/core/scheduler/scheduler.ts';
import type { Scheduler } from '../../../src-main/core/scheduler/types.ts';
import { createFakeService } from '../scheduler/support/fake-service.ts';
import { beats, longestUnmarked, MIN, setup } from './support.ts';

/**
 * The heartbeat plans from durations: the desk's wall clock stepping two
 * hours (NTP, a manual change, a resume with a wrong RTC) neither stops the
 * beats nor turns the screen's "active" into a lie. The state still shows
 * wall-clock times, in the frame of the clock that was stepped.
 */

const HOUR = 3_600_000;

for (const step of [-2 * HOUR, 2 * HOUR]) {
  const words = step < 0 ? 'back' : 'forward';
  describe(`heartbeat with the wall clock stepped ${words} 2 h`, () => {
    it('beats on schedule: the mark never lapses, no 429, and the screen tells the truth', async () => {
      const { clock, service, heartbeat, states } = setup();
      const t0 = clock.monotonic();
      heartbeat.start();
      await clock.advance(3 * MIN);
      clock.stepWall(step);
      const shownAfterStep: HeartbeatStatus[] = [];
      heartbeat.on('state', (s) => shownAfterStep.push(s.status));
      await clock.advance(40 * MIN);
      const end = clock.monotonic();
      expect(beats(service).length).toBeGreaterThanOrEqual(8);
      expect(longestUnmarked(service, t0, end)).toBeLessThan(6 * MIN);
      expect(service.log.filter((r) => r.status === 429)).toEqual([]);
      expect(shownAfterStep.every((s) => s === 'active')).toBe(true);
      expect(states.some((s) => s.status === 'lapsed' && s.lastBeatAt !== null)).toBe(false);
      // Shown in the stepped wall clock's frame: the mark ends within 10 minutes of now.
      const { refreshAt, nextBeatAt, lastBeatAt } = heartbeat.state;
      const now = clock.now();
      expect((refreshAt ?? 0) - now).toBeGreaterThan(0);
      expect((refreshAt ?? 0) - now).toBeLessThanOrEqual(10 * MIN);
      expect((nextBeatAt ?? 0) - now).toBeLessThanOrEqual(6 * MIN);
      expect(now - (lastBeatAt ?? 0)).toBeLessThanOrEqual(6 * MIN);
    });

    it('the status moves on with time alone: expiring, then lapsed, when the beats after the step fail', async () => {
      const { clock, service, heartbeat } = setup();
      heartbeat.start();
      await clock.advance(1_000);
      service.failNext('set_user_agent', () => new ApiError('server', 'down', { endpoint: 'set_user_agent', status: 503 }), 100);
      clock.stepWall(step);
      await clock.advance(6 * MIN);
      expect(heartbeat.state.status).toBe('expiring');
      await clock.advance(4 * MIN);
      expect(heartbeat.state.status).toBe('lapsed');
    });
  });
}

describe('heartbeat at a resume', () => {
  it('beats at once when the desk wakes with its wall clock set 2 h back (a wrong RTC)', async () => {
    const { clock, service, heartbeat } = setup();
    heartbeat.start();
    await clock.advance(30_000);
    clock.stepWall(-2 * HOUR);
    await clock.advance(60_000);
    const woke = clock.monotonic();
    await clock.run(heartbeat.beatNow(), 5 * MIN);
    const last = beats(service).at(-1);
    expect(beats(service)).toHaveLength(2);
    expect((last?.sentAt ?? Infinity) - woke).toBeLessThanOrEqual(1_000);
    expect(heartbeat.state.status).toBe('active');
  });
});

describe('heartbeat on the system clock, the wall stepped with vi.setSystemTime', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  for (const step of [-2 * HOUR, 2 * HOUR]) {
    it(`beats every 5 minutes through a step ${step < 0 ? 'back' : 'forward'}: Date steps, performance.now and the timers do not`, async () => {
      vi.useFakeTimers();
      const hook: { scheduler?: Scheduler } = {};
      const service = createFakeService({ clock: systemClock, onRateLimit: (n) => hook.scheduler?.noteRateLimit(n) });
      const scheduler = createScheduler({ client: service, clock: systemClock, random: () => 0.5 });
      hook.scheduler = scheduler;
      const heartbeat = createHeartbeat({ scheduler, clock: systemClock, linkedAccounts: () => [], random: () => 0.5 });
      const t0 = performance.now();
      heartbeat.start();
      await vi.advanceTimersByTimeAsync(3 * MIN);
      vi.setSystemTime(Date.now() + step);
      await vi.advanceTimersByTimeAsync(30 * MIN);
      heartbeat.stop();
      expect(beats(service).length).toBeGreaterThanOrEqual(6);
      expect(longestUnmarked(service, t0, performance.now())).toBeLessThan(6 * MIN);
      expect(service.log.filter((r) => r.status === 429)).toEqual([]);
    });
  }
});
