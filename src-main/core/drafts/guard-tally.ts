import type { CostConcern } from '../../../src-shared/cost-guard.ts';
import { NO_FINDINGS, NO_UNDERCUTS, undercutOf, type GuardFindings, type PriceGuard, type ReferencePrice, type UndercutFindings } from '../../../src-shared/price-guard.ts';
import { priceConcern } from '../../../src-shared/price-rules.ts';

export type { GuardFindings, PriceGuard } from '../../../src-shared/price-guard.ts';

/**
 * Adds price changes up into what the guard found (see src-shared/price-guard.ts);
 * `costs` marks a listing against what it cost (src-shared/cost-guard.ts) when the price guard itself does not.
 */
export function guardTally(guard: PriceGuard, costs: (sku: string, before: number | null, after: number) => CostConcern | null = () => null) {
  let f: GuardFindings = NO_FINDINGS;
  const addCost = (sku: string, before: number | null, after: number): void => {
    const cost = sku === '' ? null : costs(sku, before, after);
    if (cost === 'under_cost') f = { ...f, underCost: (f.underCost ?? 0) + 1 };
    else if (cost === 'under_margin') f = { ...f, underMargin: (f.underMargin ?? 0) + 1 };
  };
  return {
    add(key: string, before: number, after: number, sku = ''): void {
      const concern = priceConcern(before, after, guard);
      if (concern === null) {
        addCost(sku, before, after);
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
    /** A new listing of `sku` at `price`: only its cost can mark it here (what its item fetches is `undercutTally`'s). */
    addNew: (sku: string, price: number): void => addCost(sku, null, price),
    result: (): GuardFindings => f,
  };
}

/**
 * Adds new listings up into those the guard marks as priced far under what
 * the same item fetches (`undercutOf`, src-shared/price-guard.ts): how many,
 * and the deepest under its reference.
 */
export function undercutTally(guard: PriceGuard) {
  let f: UndercutFindings = NO_UNDERCUTS;
  return {
    /** A create of `sku` at `price`, held against the item's references; the reference it undercuts, or null. */
    add(key: string, sku: string, price: number, references: readonly ReferencePrice[]): ReferencePrice | null {
      const reference = undercutOf(price, references, guard);
      if (reference === null) return null;
      const worst = f.worst;
      const deeper = worst === null || price * worst.reference.cents < worst.price * reference.cents;
      f = { count: f.count + 1, worst: deeper ? { key, sku, price, reference } : worst };
      return reference;
    },
    result: (): UndercutFindings => f,
  };
}
