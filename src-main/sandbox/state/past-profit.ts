import type { PastTradeRecord } from './trade-past.ts';

/**
 * The simulator's own realized profit of its past, first in, first out per
 * SKU, worked out from what it knows went through (not from what a desk
 * recorded): the units each completed purchase brought in are sold, oldest
 * first, by the sales that follow; a sale of units no purchase brought is at
 * a cost unknown. Trades are taken in the order the desk counts them (when a
 * desk polling each minute saw them leave the lists; purchases before sales
 * at the same moment; then by kind, ID and line), and each is put on the day
 * `dayOf` names for that moment. The fee is `feeBasisPoints` hundredths of a
 * percent of each unit's price, to the nearest cent, halves up.
 */

export interface DayProfit {
  units: number;
  revenue: number;
  cost: number;
  fee: number;
  profit: number;
  unknownUnits: number;
  unknownRevenue: number;
}

export function pastProfitByDay(trades: readonly PastTradeRecord[], feeBasisPoints: number, dayOf: (ms: number) => string): Map<string, DayProfit> {
  const done = trades.filter((t) => t.completed).sort((a, b) => a.seenGoneAt - b.seenGoneAt
    || rank(a) - rank(b) || compare(a.tradeType, b.tradeType) || compare(a.tradeId, b.tradeId));
  const lots = new Map<string, { left: number; price: number }[]>();
  const days = new Map<string, DayProfit>();
  for (const t of done) {
    for (const item of t.items) {
      const queue = lots.get(item.sku) ?? [];
      lots.set(item.sku, queue);
      if (t.side === 'purchase') {
        queue.push({ left: item.quantity, price: item.price });
        continue;
      }
      const day = days.get(dayOf(t.seenGoneAt)) ?? { units: 0, revenue: 0, cost: 0, fee: 0, profit: 0, unknownUnits: 0, unknownRevenue: 0 };
      days.set(dayOf(t.seenGoneAt), day);
      const unitFee = Math.floor((item.price * feeBasisPoints + 5_000) / 10_000);
      for (let unit = 0; unit < item.quantity; unit++) {
        const lot = queue.find((l) => l.left > 0);
        if (lot === undefined) {
          day.unknownUnits += 1;
          day.unknownRevenue += item.price;
          continue;
        }
        lot.left -= 1;
        day.units += 1;
        day.revenue += item.price;
        day.cost += lot.price;
        day.fee += unitFee;
        day.profit += item.price - lot.price - unitFee;
      }
    }
  }
  return days;
}

const rank = (t: PastTradeRecord) => (t.side === 'purchase' ? 0 : 1);
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
