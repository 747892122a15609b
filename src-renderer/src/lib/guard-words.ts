import { formatCents } from '../../../src-shared/money.ts';
import type { DraftGuard, GuardFindings, PriceGuard, UndercutFindings } from '../../../src-shared/price-guard.ts';
import { percentChange } from '../../../src-shared/price-rules.ts';
import { plural } from './words.ts';

/**
 * What the price guard found, in sentences a trader reads before applying:
 * "29 listings drop by more than 30 %, the most by 95 % ($3.00 → $0.15)".
 * `noun` names what the prices are of ("listing", "buy order").
 */
export function guardSentences(f: GuardFindings, noun: string, guard: PriceGuard | null): string[] {
  const out: string[] = [];
  const change = (c: { before: number; after: number }) => `${formatCents(c.before)} → ${formatCents(c.after)}`;
  const cut = (c: { before: number; after: number }) => `${-percentChange(c.before, c.after)} %`;
  const worstDrop = f.worstDrop;
  if (f.drops > 0) {
    const more = guard ? ` by more than ${guard.maxDropPercent} %` : '';
    const worst = worstDrop ? `${f.drops === 1 ? ':' : ', the most'} by ${cut(worstDrop)} (${change(worstDrop)})` : '';
    out.push(`${plural(f.drops, noun)} ${f.drops === 1 ? 'drops' : 'drop'}${more}${worst}.`);
  }
  if (f.belowFloor > 0) {
    const floor = guard?.floorCents != null ? ` of ${formatCents(guard.floorCents)}` : '';
    out.push(`${plural(f.belowFloor, noun)} ${f.belowFloor === 1 ? 'goes' : 'go'} under your floor${floor}${f.drops === 0 && worstDrop ? ` (lowest: ${change(worstDrop)})` : ''}.`);
  }
  if (f.underCost) out.push(`${plural(f.underCost, noun)} ${f.underCost === 1 ? 'goes' : 'go'} under what ${f.underCost === 1 ? 'it' : 'they'} cost.`);
  if (f.underMargin) out.push(`${plural(f.underMargin, noun)} ${f.underMargin === 1 ? 'goes' : 'go'} under cost plus your margin.`);
  const worstRise = f.worstRise;
  if (f.rises > 0) {
    const more = guard ? ` more than ${guard.maxRiseMultiple}×` : '';
    const worst = worstRise ? `${f.rises === 1 ? ':' : ', the most'} ${(worstRise.after / worstRise.before).toFixed(1)}× (${change(worstRise)})` : '';
    out.push(`${plural(f.rises, noun)} ${f.rises === 1 ? 'rises' : 'rise'}${more}${worst}.`);
  }
  return out;
}

/** "2 new listings are priced more than 30 % under what their item fetches, the most $2.00 against its lowest listing of $10.00." */
export function undercutSentences(u: UndercutFindings, guard: PriceGuard | null): string[] {
  if (u.count === 0) return [];
  const more = guard ? ` more than ${guard.maxDropPercent} %` : ' far';
  const w = u.worst;
  const against = w ? `${u.count === 1 ? ':' : ', the most'} ${formatCents(w.price)} against ${w.reference.source === 'sale' ? 'its last sale' : 'its lowest listing'} of ${formatCents(w.reference.cents)}` : '';
  return [`${plural(u.count, 'new listing')} ${u.count === 1 ? 'is' : 'are'} priced${more} under what ${u.count === 1 ? 'its' : 'their'} item fetches${against}.`];
}

/** Everything the guard marks in a draft, listings first. */
export const draftGuardSentences = (g: DraftGuard, guard: PriceGuard | null): string[] => [
  ...guardSentences(g.listings, 'listing', guard),
  ...undercutSentences(g.undercuts, guard),
  ...guardSentences(g.buyOrders, 'buy order', guard),
];
