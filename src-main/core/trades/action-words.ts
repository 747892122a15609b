import type { PendingTrade } from '../../../src-shared/trades.ts';

/**
 * How the desk tells the trader about trades needing action, wherever it
 * tells them (a desktop notification, an alert to a webhook): the same
 * words, and the same rule for a burst.
 */

/** More than this many trades newly needing action at once are told as one: a stack of messages is noise the trader learns to ignore. */
export const TOLD_TOGETHER_ABOVE = 3;

/** What the trader must do for this trade. */
export function actionTitle(trade: Pick<PendingTrade, 'trade_type' | 'status'>): string {
  if (trade.status === 'confirmation_required') return 'Confirm a trade on your phone';
  if (trade.trade_type === 'buy_order') return 'Send items for a buy order';
  return 'Accept a trade: you sold an item';
}
