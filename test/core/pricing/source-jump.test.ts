import { describe, expect, it } from 'vitest';
import { sourceJump } from '../../../src-main/core/pricing/reprice-job.ts';

const row = (sell: number, steady: number | null) => ({ buy: null, sell, steady_buy: null, steady_sell: steady });

describe('a source\'s jump, as a reprice tells it', () => {
  it('is news while the change would carry the row across it, up or down, and said with both prices', () => {
    expect(sourceJump(row(1_200, 120), 'sell', { before: 119, after: 1_164 })).toBe('sell jumped ×10.0 from its steady 1.20 to 12.00');
    expect(sourceJump(row(24, 120), 'sell', { before: 119, after: 23 })).toBe('sell fell to ×0.20 from its steady 1.20 to 0.24');
  });

  it('is no news within ×5 of the steady level, for a side without a price, or for a row already priced at the jumped level (the trader followed it)', () => {
    expect(sourceJump(row(599, 120), 'sell', { before: 119, after: 581 })).toBeNull();
    expect(sourceJump(row(1_200, 120), 'buy', { before: 119, after: 1_164 })).toBeNull();
    expect(sourceJump(row(1_200, null), 'sell', { before: 119, after: 1_164 })).toBeNull();
    expect(sourceJump(row(1_236, 120), 'sell', { before: 1_164, after: 1_199 })).toBeNull();
  });
});
