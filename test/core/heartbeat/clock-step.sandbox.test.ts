import { describe, expect, it } from 'vitest';
import { createHeartbeat } from '../../../src-main/core/heartbeat/heartbeat.ts';
import { prepareScheduled } from '../../bench/scheduled.ts';
import { SCENARIOS, type Scenario } from '../../bench/scenarios.ts';
import { liveFixture } from '../scheduler/support/live-fixture.ts';

/**
 * The desk's wall clock stepped two hours back or forward (NTP, a manual
 * change, a resume with a wrong RTC) against the simulator over HTTP, whose
 * own clock does not step: the service's record of the automated mark never
 * lapses and no request meets a 429, while the heartbeat runs alone and while
 * an apply of 5,000 changes runs beside it (the benchmark's `clock-step`
 * scenario, one step at a time; the benchmark prints its pace).
 */

const HOUR = 3_600_000;
const MIN = 60_000;
// A minute of the service lasts 0.1 s here.
const startLive = liveFixture(600);

for (const step of [-2 * HOUR, 2 * HOUR]) {
  const words = `${step < 0 ? 'back' : 'forward'} 2 h`;

  it(`heartbeat alone, the wall clock stepped ${words}: the mark never lapses, no 429`, async () => {
    const { sandbox, scheduler, clock, serviceClock } = await startLive();
    const linked = [...sandbox.accounts.linked];
    const heartbeat = createHeartbeat({ scheduler, clock, linkedAccounts: () => linked });
    heartbeat.start();
    let lapses = 0;
    const marked = new Map<string, boolean>();
    const sample = setInterval(() => {
      for (const account of [sandbox.accounts.main, ...linked]) {
        const now = sandbox.admin.userAgent(account).automated;
        if (marked.get(account) === true && !now) lapses += 1;
        marked.set(account, now);
      }
    }, 5);
    await serviceClock.sleep(3 * MIN);
    clock.stepWall(step);
    await serviceClock.sleep(22 * MIN);
    clearInterval(sample);
    heartbeat.stop();
    const beats = sandbox.log.requests.filter((r) => r.endpoint === 'set_user_agent');
    expect(beats.length).toBeGreaterThanOrEqual(4);
    expect(beats.every((r) => r.status === 200)).toBe(true);
    expect(lapses).toBe(0);
    expect(sandbox.log.counters.count429).toBe(0);
  });
}

describe('an apply of 5,000 changes with the wall clock stepped', () => {
  const clockStep = SCENARIOS.find((s) => s.id === 'clock-step') as Scenario;

  for (const step of [-2 * HOUR, 2 * HOUR]) {
    it(`${step < 0 ? 'back' : 'forward'} 2 h at 2 min: every change applied, the mark never lapses, no 429`, async () => {
      const scenario: Scenario = { ...clockStep, wallSteps: [{ afterMs: 2 * MIN, stepMs: step }] };
      // A run stalled by the step is cancelled long before 2 h, and shows as changes not applied.
      const run = await prepareScheduled(scenario, 300, { giveUpAfterMs: 30 * MIN });
      const figures = await run();
      expect(figures.items).toBe(5_000);
      expect(figures.itemsDone).toBe(5_000);
      expect(figures.markLapses).toBe(0);
      expect(figures.heartbeatLapsed).toBe(false);
      expect(figures.count429).toBe(0);
    });
  }
});
