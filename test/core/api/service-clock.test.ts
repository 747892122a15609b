import { describe, expect, it } from 'vitest';
import { createServiceClock, parseDateHeader } from '../../../src-main/core/api/service-clock.ts';
import { createVirtualClock } from '../scheduler/support/virtual-clock.ts';

/** A desk clock whose wall and monotonic times read the same until a test steps the wall. */
const deskClock = () => createVirtualClock(0);

describe('service clock', () => {
  it('knows nothing before a Date header was seen', () => {
    expect(createServiceClock(deskClock()).offsetMs()).toBeNull();
  });

  it('pins the offset to within the round trip and the second the header rounds away', () => {
    const clock = createServiceClock(deskClock());
    const local = 1_800_000_000_000;
    const service = local - 15 * 60_000 + 400;
    // Sent at local, answered 200 ms later; the service wrote its time in whole seconds.
    clock.observe(Math.floor((service + 100) / 1000) * 1000, local, local + 200);
    expect(Math.abs((clock.offsetMs() ?? 0) - (service - local))).toBeLessThanOrEqual(600);
    const range = clock.offsetRange();
    expect(range?.low).toBeLessThanOrEqual(service - local);
    expect(range?.high).toBeGreaterThanOrEqual(service - local);
  });

  it('prefers the tightest recent reading: one slow answer does not move it', () => {
    const clock = createServiceClock(deskClock());
    clock.observe(60_000, 60_000, 60_050);
    clock.observe(120_000, 100_000, 130_000);
    expect(Math.abs((clock.offsetMs() ?? 0) - 0)).toBeLessThanOrEqual(500);
  });

  it('follows a clock that moved (the desk slept, the service was set): readings it contradicts leave', () => {
    const clock = createServiceClock(deskClock());
    for (let i = 0; i < 8; i++) clock.observe(i * 60_000, i * 60_000, i * 60_000 + 10);
    // A wide reading after the move still holds the new offset, and is all that is known of it.
    clock.observe(8 * 60_000, 8 * 60_000 + 3_600_000, 8 * 60_000 + 3_600_000 + 5_000);
    expect(Math.round((clock.offsetMs() ?? 0) / 1000)).toBe(-3_602);
  });

  it('is not moved by a step of the desk wall clock: only the offset shown to the trader follows it', () => {
    const desk = deskClock();
    const clock = createServiceClock(desk);
    clock.observe(1_000_000, 1_000_000, 1_000_100);
    const before = clock.offsetRange();
    desk.stepWall(-2 * 3_600_000);
    expect(clock.offsetRange()).toEqual(before);
    expect(Math.round((clock.offsetMs() ?? 0) / 1000)).toBe(2 * 3_600);
  });

  it('reads the Date header, or nothing', () => {
    expect(parseDateHeader('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
    expect(parseDateHeader(['Sun, 06 Nov 1994 08:49:37 GMT'])).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
    expect(parseDateHeader('yesterday')).toBeUndefined();
    expect(parseDateHeader(undefined)).toBeUndefined();
  });
});
