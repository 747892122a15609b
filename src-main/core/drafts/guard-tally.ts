import { NO_FINDINGS, priceConcern, type GuardFindings, type PriceGuard } from '../../../src-shared/price-guard.ts';

export type { GuardFindings, PriceGuard } from '../../../src-shared/price-guard.ts';

/** Adds price changes up into what the guard found (see src-shared/price-guard.ts). */
export function guardTally(guard: PriceGuard) {
  let f: GuardFindings = NO_FINDINGS;
  return {
    add(key: string, before: number, after: number): void {
      const concern = priceConcern(before, after, guard);
      if (concern === null) return;
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
