import type { PendingTrade } from '../../../src-shared/trades.ts';

/**
 * The bounds History holds every number and time the service says to. A
 * value outside them is no trade a trader made: kept, it would count a
 * negative sale, or make the sums of a range overflow what a number can
 * hold, and every figure, page and export of that range fail. Such a trade
 * (or balance reading) is kept as a refusal naming it and the field, and
 * the rest of History goes on. Pure, so the rules are tested on their own.
 */

/** $10,000,000 in cents: no one trade, price or balance of this desk comes near it. */
export const MONEY_MAX_CENTS = 1_000_000_000;
/** Steam, and every trade of its items, began in 2003. */
export const EARLIEST_TRADE_MS = Date.UTC(2003, 0, 1);
/** A trade stamped further ahead of the service's own clock than this was not made yet. */
export const FUTURE_SLACK_MS = 86_400_000;
export const QUANTITY_MAX = 1_000_000;

/** What was refused, and why, in the trader's words. */
export interface Refusal {
  /** The field as the service names it: `total`, `timestamp`, `items.2.price`. */
  readonly field: string;
  /** The value as the service sent it. */
  readonly value: string;
  readonly reason: string;
}

const money = (value: number, field: string, allowNegative: boolean): Refusal | null => {
  if (!Number.isSafeInteger(value)) return { field, value: String(value), reason: 'is not a whole number of cents a figure can hold' };
  if (value < 0 && !allowNegative) return { field, value: String(value), reason: 'is negative' };
  if (Math.abs(value) > MONEY_MAX_CENTS) return { field, value: String(value), reason: 'is beyond $10,000,000' };
  return null;
};

/**
 * The first value of `trade` out of bounds, or null when all are in them.
 * `serviceNow`: the service's clock (the desk's, corrected by its `Date`).
 */
export function tradeRefusal(trade: PendingTrade, serviceNow: number): Refusal | null {
  const total = money(trade.total, 'total', false);
  if (total) return total;
  const ms = trade.timestamp * 1000;
  if (!Number.isSafeInteger(trade.timestamp) || ms < EARLIEST_TRADE_MS) {
    return { field: 'timestamp', value: String(trade.timestamp), reason: 'is before 2003' };
  }
  if (ms > serviceNow + FUTURE_SLACK_MS) {
    return { field: 'timestamp', value: String(trade.timestamp), reason: 'is more than a day ahead of the service\'s clock' };
  }
  for (const [i, item] of trade.items.entries()) {
    const price = money(item.price, `items.${i}.price`, false);
    if (price) return price;
    const { quantity } = item;
    if (!Number.isSafeInteger(quantity) || quantity < 1 || quantity > QUANTITY_MAX) {
      return { field: `items.${i}.quantity`, value: String(quantity), reason: `is not between 1 and ${QUANTITY_MAX.toLocaleString('en-US')}` };
    }
    if (quantity * item.price > MONEY_MAX_CENTS) {
      return { field: `items.${i}`, value: `${quantity} × ${item.price}`, reason: 'comes to more than $10,000,000' };
    }
  }
  return null;
}

/** The first amount of a balance reading out of bounds, or null. */
export function balanceRefusal(reading: { readonly balance: number; readonly pending_balance: number }): Refusal | null {
  return money(reading.balance, 'balance', true) ?? money(reading.pending_balance, 'pending_balance', true);
}
