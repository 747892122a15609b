import { describe, expect, it } from 'vitest';
import { createLoginThrottle, THROTTLE_RULES } from '../../src-main/main-thread/server/login-throttle.ts';

/** A monotonic clock the test moves. */
function manualClock() {
  let now = 1_000;
  return { monotonic: () => now, advance: (ms: number) => void (now += ms) };
}

describe('the sign-in throttle', () => {
  it('bans an address at the tenth failure within the window, not another address', () => {
    const clock = manualClock();
    const throttle = createLoginThrottle(clock);
    for (let i = 1; i < 10; i++) expect(throttle.failed('10.0.0.1'), `failure ${i}`).toEqual({ banned: false });
    expect(throttle.failed('10.0.0.1')).toEqual({ banned: true, retryAfterMs: 60_000 });
    expect(throttle.check('10.0.0.1')).toEqual({ banned: true, retryAfterMs: 60_000 });
    expect(throttle.check('10.0.0.2')).toEqual({ banned: false });
    clock.advance(59_999);
    expect(throttle.check('10.0.0.1').banned).toBe(true);
    clock.advance(1);
    expect(throttle.check('10.0.0.1')).toEqual({ banned: false });
  });

  it('counts only failures within fifteen minutes', () => {
    const clock = manualClock();
    const throttle = createLoginThrottle(clock);
    for (let i = 0; i < 9; i++) throttle.failed('10.0.0.1');
    clock.advance(THROTTLE_RULES.windowMs + 1);
    expect(throttle.failed('10.0.0.1')).toEqual({ banned: false });
  });

  it('doubles each ban, up to a day, and forgets after a quiet day', () => {
    const clock = manualClock();
    const throttle = createLoginThrottle(clock);
    const ban = () => {
      let state = throttle.failed('10.0.0.1');
      for (let i = 1; i < 10; i++) state = throttle.failed('10.0.0.1');
      return state.banned ? state.retryAfterMs : 0;
    };
    const bans: number[] = [];
    for (let round = 0; round < 12; round++) {
      const ms = ban();
      bans.push(ms);
      clock.advance(ms);
    }
    expect(bans.slice(0, 4)).toEqual([60_000, 120_000, 240_000, 480_000]);
    expect(Math.max(...bans)).toBe(THROTTLE_RULES.maxBanMs);
    clock.advance(THROTTLE_RULES.forgetAfterMs + 1);
    expect(ban()).toBe(60_000);
  });

  it('clears the count of failures at a correct sign-in', () => {
    const clock = manualClock();
    const throttle = createLoginThrottle(clock);
    for (let i = 0; i < 9; i++) throttle.failed('10.0.0.1');
    throttle.succeeded('10.0.0.1');
    expect(throttle.failed('10.0.0.1')).toEqual({ banned: false });
  });

  it('tracks a bounded number of addresses', () => {
    const clock = manualClock();
    const throttle = createLoginThrottle(clock, { ...THROTTLE_RULES, maxAddresses: 3, maxFailures: 2 });
    throttle.failed('a');
    for (const address of ['b', 'c', 'd']) throttle.failed(address);
    // `a`, the oldest, was forgotten: its next failure is its first again.
    expect(throttle.failed('a')).toEqual({ banned: false });
    expect(throttle.failed('d')).toMatchObject({ banned: true });
  });
});
