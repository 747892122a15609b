import { afterEach, expect, it, vi } from 'vitest';
import { watchLiveness } from '../../../src-main/main-thread/liveness.ts';

afterEach(() => {
  vi.useRealTimers();
});

it('reports how long the worker was silent, whatever the wall clock did meanwhile', () => {
  vi.useFakeTimers();
  const hangs: number[] = [];
  const watch = watchLiveness({ postMessage: () => undefined }, { pingEveryMs: 2_000, hangAfterMs: 60_000 }, { current: () => true, onHang: (ms) => void hangs.push(ms) });
  vi.advanceTimersByTime(2_000);
  vi.setSystemTime(Date.now() - 2 * 3_600_000);
  vi.advanceTimersByTime(60_000);
  watch.stop();
  expect(hangs).toEqual([60_000]);
});
