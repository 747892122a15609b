import { describe, expect, it } from 'vitest';
import { estimateDurationMs, finishOffsetMs } from '../../../src-main/core/scheduler/estimate.ts';

const MIN = 60_000;

describe('estimateDurationMs', () => {
  it('is (ceil(n/L) − 1) × 60 s for one endpoint', () => {
    expect(estimateDurationMs({ edit_listing: 1 })).toBe(0);
    expect(estimateDurationMs({ edit_listing: 5 })).toBe(0);
    expect(estimateDurationMs({ edit_listing: 6 })).toBe(MIN);
    // 10,000 price edits = 100 requests at 5/min.
    expect(estimateDurationMs({ edit_listing: 100 })).toBe(19 * MIN);
    expect(estimateDurationMs({ get_balance: 3 })).toBe(MIN);
  });

  it('runs endpoints side by side: the slowest endpoint sets the bound', () => {
    expect(estimateDurationMs({ create_listing: 20, edit_listing: 50, delete_listing: 20, create_buy_order: 10 })).toBe(9 * MIN);
  });

  it('is bounded by the global limit over all endpoints together', () => {
    // The documented per-endpoint limits add up to 39/min, under the global 80,
    // so with one program on the key the global term never binds; it does when
    // the global share is smaller (another program on the key, lane headroom).
    const three = { create_listing: 5, edit_listing: 5, delete_listing: 5 };
    expect(estimateDurationMs(three)).toBe(0);
    expect(finishOffsetMs(three, () => [], 10)).toBe(MIN);
    expect(finishOffsetMs(three, () => [], 4)).toBe(3 * MIN);
  });

  it('counts slots still in use when estimating from now', () => {
    // All 5 edit slots busy, freeing in 10, 20, 30, 40, 50 s: the 6th request goes at 10 s + 60 s.
    const busy = (scope: string) => (scope === 'edit_listing' ? [10_000, 20_000, 30_000, 40_000, 50_000] : []);
    expect(finishOffsetMs({ edit_listing: 1 }, busy, 80)).toBe(10_000);
    expect(finishOffsetMs({ edit_listing: 6 }, busy, 80)).toBe(70_000);
    // The global limit binds when the global window is nearly full.
    expect(finishOffsetMs({ edit_listing: 1 }, (s) => (s === 'global' ? Array(80).fill(45_000) : []), 80)).toBe(45_000);
  });

  it('ignores empty and zero counts', () => {
    expect(estimateDurationMs({})).toBe(0);
    expect(estimateDurationMs({ edit_listing: 0 })).toBe(0);
  });
});
