import { familyOf } from '../../src-main/sandbox/catalog/catalog.ts';
import type { SandboxPricedb } from '../../src-main/sandbox/index.ts';
import type { RepriceRule } from '../../src-shared/pricing.ts';

/** A Strange (quality 11) weapon: what the pricing tests list and reprice. */
export const isStrangeWeapon = (sku: string): boolean => familyOf(sku) === 'weapon' && sku.split(';')[1] === '11';

/** The rule the pricing tests reprice by: "Strange weapons: pricedb sell −3 %, round to x.99, floor cost + 5 %", prices under 24 h old. */
export function strangeWeaponsRule(over: Partial<RepriceRule> = {}): RepriceRule {
  return {
    name: 'Strange weapons', enabled: true, scope: { by: 'filter', label: 'Strange weapons', filter: { qualities: [11], kinds: ['weapon'] } },
    intent: 'sell', source: 'pricedb', sides: { listings: 'sell', buyOrders: 'buy' }, offset: { percent: -3, cents: 0 },
    rounding: { mode: 'nearest', step: { size: 100, offset: 99 } }, minCents: null, maxCents: null, floor: { marginPercent: 5 }, maxAgeHours: 24, maxHeld: null,
    ...over,
  };
}

/**
 * What a rule "sell −P %, round to x.99 (nearest), floor cost + M %" should
 * make of a listing, worked out here from the simulator's own answer and
 * costs with integer arithmetic of its own (not the desk's functions), so a
 * test compares the desk with an independent sum:
 * - the source's sell price in cents: keys × key cents + metal in
 *   half-scraps × key cents ÷ the key's half-scraps (rounded);
 * - less P %, to the nearest x.99 (half-way goes up);
 * - under cost + M % (rounded up to the cent): the least x.99 at or above it.
 * And what the price guard marks: a cut deeper than 30 % (drop), under the
 * cost (under_cost), under cost + 10 % (under_margin).
 */
export function sellCents(pricedb: SandboxPricedb, sku: string, at?: number, keyCents = 180): number {
  const answer = pricedb.answer(sku, at);
  if (answer === null) throw new Error(`the simulator does not price ${sku}`);
  const halfScraps = Math.round(answer.sell.metal * 18);
  const perKey = Math.round(pricedb.key.refined.sell * 18);
  return answer.sell.keys * keyCents + Math.round((halfScraps * keyCents) / perKey);
}

/** The least x.99 at or above `cents`. */
const ninetyNineUp = (cents: number) => (cents % 100 <= 99 && cents % 100 === 99 ? cents : Math.ceil((cents - 99) / 100) * 100 + 99);

export function expectedPrice(source: number, cost: number, percentOff: number, marginPercent: number): { price: number; floored: boolean } {
  // source × (100 − P) / 100, in hundredths of a cent.
  const t = source * (100 - percentOff);
  const down = Math.floor((t - 9_900) / 10_000) * 100 + 99;
  const price = 2 * (t - down * 100) >= 10_000 ? down + 100 : down;
  const floor = Math.ceil((cost * (100 + marginPercent)) / 100);
  return price < floor ? { price: ninetyNineUp(floor), floored: true } : { price, floored: false };
}

export function expectedMark(before: number, after: number, cost: number): string | null {
  if (after === before) return null;
  if (after < before && (before - after) * 100 > before * 30) return 'drop';
  if (after > before * 10) return 'rise';
  if (after < before && after < cost) return 'under_cost';
  if (after < before && after * 100 < cost * 110) return 'under_margin';
  return null;
}
