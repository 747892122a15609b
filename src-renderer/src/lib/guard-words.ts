import { formatCents } from '../../../src-shared/money.ts';
import { percentChange, type GuardFindings, type PriceGuard } from '../../../src-shared/price-guard.ts';
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
    const worst = worstDrop ? `, the most by ${cut(worstDrop)} (${change(worstDrop)})` : '';
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
    const worst = worstRise ? `, the most ${(worstRise.after / worstRise.before).toFixed(1)}× (${change(worstRise)})` : '';
    out.push(`${plural(f.rises, noun)} ${f.rises === 1 ? 'rises' : 'rise'}${more}${worst}.`);
  }
  return out;
}
