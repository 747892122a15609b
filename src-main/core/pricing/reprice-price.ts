import { formatDecimal } from '../../../src-shared/money.ts';
import { scalePrice } from '../../../src-shared/price-formula.ts';
import type { RepriceRule } from '../../../src-shared/pricing.ts';
import type { PriceStep } from '../../../src-shared/drafts.ts';

/**
 * What a rule makes of one row, and why, in the words each row of the
 * reprice shows ("pricedb.io sell 12.40, −1 %, floor 11.50 from cost 10.95
 * + 5 %"): the source's price on the rule's side, its offset (percent, then
 * cents), the bulk edit's rounding (exact, on the price grid), the rule's
 * minimum and maximum, and for listings a floor of cost plus a margin. A row
 * is held, with why, when the source has no price for it, its price is
 * older than the rule allows, the floor cannot be known or kept, or nothing
 * is left. Buy orders stop buying at the rule's stock limit.
 */

export interface RowFacts {
  readonly domain: 'listings' | 'buyOrders';
  readonly price: number;
  /** Buy orders: the quantity wanted, and whether the order is active. */
  readonly quantity?: number;
  readonly active?: 0 | 1;
  readonly source: { readonly name: string; readonly buy: number | null; readonly sell: number | null; readonly pricedAt: number } | null;
  /** What a sale of the SKU would cost next (null: not known). */
  readonly cost: number | null;
  /** Units of the SKU held. */
  readonly held: number;
  readonly now: number;
}

export type RowOutcome =
  | { readonly outcome: 'change'; readonly price: number; readonly quantity?: number; readonly active?: 0 | 1; readonly reason: string }
  | { readonly outcome: 'same'; readonly reason: string }
  | { readonly outcome: 'held'; readonly reason: string };

const CENT: PriceStep = { size: 1, offset: 0 };
const dec = (cents: number) => formatDecimal(cents);
const signed = (n: number, text: string) => (n < 0 ? `−${text.replace(/^-/, '')}` : `+${text}`);
const percentWords = (p: number) => `${signed(p, String(Math.abs(p)))} %`;

/** `x` times (100 + percent) / 100, plus `cents`, rounded onto the step's grid in the mode asked, exactly. */
export function offsetAndRound(x: number, percent: number, cents: number, mode: RepriceRule['rounding']['mode'], step: PriceStep | null): number {
  const grid = step ?? CENT;
  // Rounding x·p + c onto k·size + offset is rounding x·p onto k·size + (offset − c), then adding c.
  const shifted = { size: grid.size, offset: (((grid.offset - cents) % grid.size) + grid.size) % grid.size };
  return scalePrice(x, 100 + percent, mode, shifted) + cents;
}

/** The least price on the grid at or above `x`. */
export const gridAtLeast = (x: number, step: PriceStep | null): number => scalePrice(x, 100, 'up', step ?? CENT);

function stepWords(step: PriceStep | null, mode: string): string {
  if (step === null || step.size === 1) return '';
  const to = step.size === 100 ? `to x.${String(step.offset).padStart(2, '0')}` : `to ${dec(step.size)} steps +${dec(step.offset)}`;
  return `round ${to}${mode === 'nearest' ? '' : ` (${mode})`}`;
}

/** A price's age as a rule's limit is read beside it: minutes under ten hours ("1 h 20 min", not "1 h" against a 1-h limit). */
function ageWords(ms: number): string {
  const min = Math.max(1, Math.round(ms / 60_000));
  if (min < 60) return `${min} min`;
  if (min < 600) return min % 60 === 0 ? `${min / 60} h` : `${Math.floor(min / 60)} h ${min % 60} min`;
  const h = ms / 3_600_000;
  return h < 48 ? `${Math.round(h)} h` : `${Math.round(h / 24)} days`;
}

export function repriceRow(rule: RepriceRule, row: RowFacts): RowOutcome {
  const side = rule.sides[row.domain];
  const src = row.source?.[side] ?? null;
  const name = row.source?.name ?? rule.source;
  if (row.source === null || src === null) return { outcome: 'held', reason: `${name} has no ${side} price for it` };
  const age = row.now - row.source.pricedAt;
  if (rule.maxAgeHours !== null && age > rule.maxAgeHours * 3_600_000) {
    return { outcome: 'held', reason: `${name} priced it ${ageWords(age)} ago, older than the rule's ${rule.maxAgeHours} h: it stays` };
  }
  const words = [`${name} ${side} ${dec(src)}`];
  if (rule.offset.percent !== 0) words.push(percentWords(rule.offset.percent));
  if (rule.offset.cents !== 0) words.push(signed(rule.offset.cents, dec(Math.abs(rule.offset.cents))));
  const rounding = stepWords(rule.rounding.step, rule.rounding.mode);
  if (rounding !== '') words.push(rounding);
  let price = offsetAndRound(src, rule.offset.percent, rule.offset.cents, rule.rounding.mode, rule.rounding.step);
  if (rule.minCents !== null && price < rule.minCents) {
    price = rule.minCents;
    words.push(`raised to the rule's min ${dec(rule.minCents)}`);
  }
  if (rule.maxCents !== null && price > rule.maxCents) {
    price = rule.maxCents;
    words.push(`cut to the rule's max ${dec(rule.maxCents)}`);
  }
  if (row.domain === 'listings' && rule.floor !== null) {
    const margin = rule.floor.marginPercent;
    if (row.cost === null) return { outcome: 'held', reason: `${words.join(', ')}; no cost known for its floor (cost + ${margin} %): set one` };
    const floor = scalePrice(row.cost, 100 + margin, 'up');
    const floorWords = `floor ${dec(floor)} from cost ${dec(row.cost)} + ${margin} %`;
    if (price < floor) {
      price = gridAtLeast(floor, rule.rounding.step);
      if (rule.maxCents !== null && price > rule.maxCents) return { outcome: 'held', reason: `${words.join(', ')}; under its ${floorWords}, above the rule's max` };
      words.push(`under its ${floorWords}: ${dec(price)}`);
    } else {
      words.push(floorWords);
    }
  }
  if (price < 1) return { outcome: 'held', reason: `${words.join(', ')}: nothing is left` };
  if (row.domain === 'buyOrders') return buyOrder(rule, row, price, words);
  return price === row.price ? { outcome: 'same', reason: words.join(', ') } : { outcome: 'change', price, reason: words.join(', ') };
}

/** A buy order at its price, buying no more than the stock limit leaves room for: paused when the trader holds as many. */
function buyOrder(rule: RepriceRule, row: RowFacts, price: number, words: string[]): RowOutcome {
  const quantity = row.quantity ?? 1;
  const active = row.active ?? 1;
  let next = { quantity, active };
  if (rule.maxHeld !== null) {
    const room = rule.maxHeld - row.held;
    if (room <= 0) {
      next = { quantity, active: 0 };
      words.push(`holds ${row.held}, stop at ${rule.maxHeld}: paused`);
    } else if (room < quantity) {
      next = { quantity: room, active };
      words.push(`holds ${row.held}, stop at ${rule.maxHeld}: buys ${room}`);
    }
  }
  if (price === row.price && next.quantity === quantity && next.active === active) return { outcome: 'same', reason: words.join(', ') };
  return {
    outcome: 'change', price, reason: words.join(', '),
    ...(next.quantity === quantity ? {} : { quantity: next.quantity }),
    ...(next.active === active ? {} : { active: next.active as 0 | 1 }),
  };
}
