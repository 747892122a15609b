import { describe, expect, it } from 'vitest';
import { draftGuardSentences } from '../../../src-renderer/src/lib/guard-words.ts';
import { NO_FINDINGS, NO_UNDERCUTS } from '../../../src-shared/price-guard.ts';
import { DEFAULT_PRICE_GUARD } from '../../../src-shared/price-rules.ts';

const drop = (n: number) => ({ ...NO_FINDINGS, drops: n, worstDrop: { key: 'a', before: 20_137, after: 10_069 } });

describe('the price guard in words', () => {
  it('says "the most" of several, and the one change itself of one', () => {
    expect(draftGuardSentences({ listings: drop(1), buyOrders: NO_FINDINGS, undercuts: NO_UNDERCUTS }, DEFAULT_PRICE_GUARD))
      .toEqual(['1 listing drops by more than 30 %: by 49 % ($201.37 → $100.69).']);
    expect(draftGuardSentences({ listings: drop(3), buyOrders: NO_FINDINGS, undercuts: NO_UNDERCUTS }, DEFAULT_PRICE_GUARD))
      .toEqual(['3 listings drop by more than 30 %, the most by 49 % ($201.37 → $100.69).']);
  });

  it('says new listings priced far under what their item fetches, against which price', () => {
    const undercuts = { count: 2, worst: { key: 'a', sku: '5021;6', price: 200, reference: { source: 'listing' as const, cents: 1_000 } } };
    expect(draftGuardSentences({ listings: NO_FINDINGS, buyOrders: NO_FINDINGS, undercuts }, DEFAULT_PRICE_GUARD))
      .toEqual(['2 new listings are priced more than 30 % under what their item fetches, the most $2.00 against its lowest listing of $10.00.']);
  });
});
