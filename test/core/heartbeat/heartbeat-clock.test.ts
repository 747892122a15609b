import { describe, expect, it } from 'vitest';
import type { HeartbeatStatus } from '../../../src-main/core/heartbeat/heartbeat.ts';
import { markEnds } from '../../../src-main/core/heartbeat/heartbeat.ts';
import { beats, MIN, setup } from './support.ts';

/** The desk's clock is not the service's: the heartbeat plans from durations on its own. */

/** A service whose clock is `offset` ms off ours: its refresh_at is its now + 600 s. */
function offsetService(offset: number, ttlSec = 600) {
  const s = setup({ serviceClock: { offsetMs: () => offset, offsetRange: () => ({ low: offset - 1_000, high: offset }) } });
  s.service.respond('set_user_agent', (_input, stampAt) => ({ refresh_at: Math.floor((stampAt + offset) / 1000) + ttlSec }));
  return s;
}

describe('heartbeat and the service clock', () => {
  for (const offset of [-15 * MIN, -8 * MIN, 11 * MIN, 15 * MIN]) {
    it(`beats every 5 minutes and stays active with the service clock ${offset / MIN} min off`, async () => {
      const { clock, service, heartbeat, states } = offsetService(offset);
      const t0 = clock.now();
      heartbeat.start();
      await clock.advance(60 * MIN);
      const sent = beats(service).map((r) => r.sentAt - t0);
      expect(sent).toEqual(Array.from({ length: sent.length }, (_, n) => n * (5 * MIN + 15_000)));
      expect(sent.length).toBe(12);
      const seen = new Set<HeartbeatStatus>(states.filter((s) => s.lastBeatAt !== null).map((s) => s.status));
      expect([...seen]).toEqual(['active']);
      expect(heartbeat.state.clockOffsetMs).toBe(offset);
    });
  }

  it('does not trust refresh_at at all when no Date was seen (a clock 11 min ahead used to show lapsed)', async () => {
    const { clock, service, heartbeat } = setup();
    service.respond('set_user_agent', (_input, stampAt) => ({ refresh_at: Math.floor((stampAt - 11 * MIN) / 1000) + 600 }));
    const t0 = clock.now();
    heartbeat.start();
    await clock.advance(1_000);
    expect(heartbeat.state).toMatchObject({ status: 'active', refreshAt: t0 + 600_000, clockOffsetMs: null });
  });

  it('ends the mark sooner when the service, read on its own clock, says it lasts less', async () => {
    const { clock, heartbeat } = offsetService(-15 * MIN, 300);
    const t0 = clock.now();
    heartbeat.start();
    await clock.advance(1_000);
    const { refreshAt, nextBeatAt } = heartbeat.state;
    expect(Math.abs((refreshAt ?? 0) - (t0 + 300_000))).toBeLessThanOrEqual(2_000);
    expect(nextBeatAt).toBeLessThanOrEqual((refreshAt ?? 0) - 3 * MIN);
  });

  it('markEnds: send time + 600 s, sooner only by what the offset surely allows', () => {
    expect(markEnds(1_000_000, 1_000_200, 0, null)).toBe(1_600_000);
    // The service's refresh_at, read through the offset, ends 100 s sooner.
    expect(markEnds(1_000_000, 1_000_200, (1_500_000 + 60_000) / 1000, { low: 60_000, high: 61_000 })).toBe(1_500_000);
    // An offset known only to within 4 minutes (a slow first answer) shortens nothing it cannot be sure of.
    expect(markEnds(1_000_000, 1_240_000, (1_600_000 + 60_000) / 1000, { low: 60_000, high: 300_000 })).toBe(1_600_000);
    // An end before the answer even came is a bad estimate, not news.
    expect(markEnds(1_000_000, 1_000_200, 900, { low: 60_000, high: 61_000 })).toBe(1_600_000);
  });
});
