import { describe, expect, it } from 'vitest';
import { createFirstScreen, FIRST_SCREEN_MAX_WAIT_MS, type FirstScreenTiming } from '../../../src-renderer/src/lib/first-screen.ts';

/** Frames and timers the test turns by hand. */
function manualTiming() {
  let frames: (() => void)[] = [];
  const timers: { at: number; callback: () => void }[] = [];
  let now = 0;
  const timing: FirstScreenTiming = {
    afterPaint: (callback) => void frames.push(callback),
    setTimeout: (callback, ms) => timers.push({ at: now + ms, callback }),
  };
  return {
    timing,
    paint() {
      const due = frames;
      frames = [];
      for (const f of due) f();
    },
    advance(ms: number) {
      now += ms;
      for (const t of timers.splice(0).filter((t) => (t.at <= now ? (t.callback(), false) : true))) timers.push(t);
    },
  };
}

describe('the first screen goes first', () => {
  it('runs the rest at once when the screen takes no hold (it shows what the rest loads)', () => {
    const { timing } = manualTiming();
    const first = createFirstScreen(timing);
    const ran: string[] = [];
    first.after(() => ran.push('stores'));
    expect(ran).toEqual([]);
    first.mounted();
    expect(ran).toEqual(['stores']);
    first.after(() => ran.push('late'));
    expect(ran).toEqual(['stores', 'late']);
  });

  it('holds the rest until the screen’s content is in, then until that has been painted', () => {
    const clock = manualTiming();
    const first = createFirstScreen(clock.timing);
    const ran: string[] = [];
    const release = first.hold();
    first.after(() => ran.push('stores'));
    first.mounted();
    clock.paint();
    expect(ran).toEqual([]);
    release();
    expect(ran).toEqual([]);
    clock.paint();
    expect(ran).toEqual(['stores']);
    release();
    clock.paint();
    expect(ran).toEqual(['stores']);
  });

  it('waits for every hold, and for the mount', () => {
    const clock = manualTiming();
    const first = createFirstScreen(clock.timing);
    const ran: string[] = [];
    first.after(() => ran.push('stores'));
    const a = first.hold();
    const b = first.hold();
    a();
    clock.paint();
    b();
    clock.paint();
    expect(ran).toEqual([]);
    first.mounted();
    clock.paint();
    expect(ran).toEqual(['stores']);
  });

  it('never holds the rest longer than the longest wait, whatever becomes of the screen’s answer', () => {
    const clock = manualTiming();
    const first = createFirstScreen(clock.timing);
    const ran: string[] = [];
    first.hold();
    first.after(() => ran.push('stores'));
    first.mounted();
    clock.advance(FIRST_SCREEN_MAX_WAIT_MS - 1);
    clock.paint();
    expect(ran).toEqual([]);
    clock.advance(1);
    clock.paint();
    expect(ran).toEqual(['stores']);
  });
});

describe('a shell that goes away', () => {
  it('starts nothing that still waited', () => {
    const clock = manualTiming();
    const first = createFirstScreen(clock.timing);
    const ran: string[] = [];
    const release = first.hold();
    first.after(() => ran.push('stores'));
    first.mounted();
    release();
    first.cancel();
    clock.paint();
    expect(ran).toEqual([]);
  });
});
