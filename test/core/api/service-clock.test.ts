import { describe, expect, it } from 'vitest';
import { createServiceClock, parseDateHeader } from '../../../src-main/core/api/service-clock.ts';

describe('service clock', () => {
  it('knows nothing before a Date header was seen', () => {
    expect(createServiceClock().offsetMs()).toBeNull();
  });

  it('pins the offset to within the round trip and the second the header rounds away', () => {
    const clock = createServiceClock();
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
    const clock = createServiceClock();
    clock.observe(60_000, 60_000, 60_050);
    clock.observe(120_000, 100_000, 130_000);
    expect(Math.abs((clock.offsetMs() ?? 0) - 0)).toBeLessThanOrEqual(500);
  });

  it('follows a desk clock that was set: old readings leave', () => {
    const clock = createServiceClock();
    for (let i = 0; i < 8; i++) clock.observe(i * 60_000, i * 60_000, i * 60_000 + 10);
    for (let i = 8; i < 16; i++) clock.observe(i * 60_000, i * 60_000 + 3_600_000, i * 60_000 + 3_600_000 + 10);
    expect(Math.round((clock.offsetMs() ?? 0) / 1000)).toBe(-3_600);
  });

  it('reads the Date header, or nothing', () => {
    expect(parseDateHeader('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
    expect(parseDateHeader(['Sun, 06 Nov 1994 08:49:37 GMT'])).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
    expect(parseDateHeader('yesterday')).toBeUndefined();
    expect(parseDateHeader(undefined)).toBeUndefined();
  });
});
