import type { CostConcern } from '../../../src-shared/cost-guard.ts';
import { NO_FINDINGS, priceConcern, type GuardFindings, type PriceGuard } from '../../../src-shared/price-guard.ts';

export type { GuardFindings, PriceGuard } from '../../../src-shared/price-guard.ts';

/**
 * Adds price changes up into what the guard found (see src-shared/price-guard.ts);
 * `costs` marks a listing against what it cost (src-shared/cost-guard.ts) when the price guard itself does not.
 */
export function guardTally(guard: PriceGuard, costs: (sku: string, before: number, after: number) => CostConcern | null = () => null) {
  let f: GuardFindings = NO_FINDINGS;
  return {
    add(key: string, before: number, after: number, sku = ''): void {
      const concern = priceConcern(before, after, guard);
      if (concern === null) {
        const cost = sku === '' ? null : costs(sku, before, after);
        if (cost === 'under_cost') f = { ...f, underCost: (f.underCost ?? 0) + 1 };
        else if (cost === 'under_margin') f = { ...f, underMargin: (f.underMargin ?? 0) + 1 };
        return;
      }
      const change = { key, before, after };
      if (concern === 'rise') {
        const worse = f.worstRise === null || after * f.worstRise.before > f.worstRise.after * before;
        f = { ...f, rises: f.rises + 1, worstRise: worse ? change : f.worstRise };
        return;
      }
      const worse = f.worstDrop === null || after * f.worstDrop.before < f.worstDrop.after * before;
      f = concern === 'floor'
        ? { ...f, belowFloor: f.belowFloor + 1, worstDrop: worse ? change : f.worstDrop }
        : { ...f, drops: f.drops + 1, worstDrop: worse ? change : f.worstDrop };
    },
    result: (): GuardFindings => f,
  };
}
