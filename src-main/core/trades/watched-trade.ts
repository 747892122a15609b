import type { PendingTrade } from '../../../src-shared/trades.ts';
import type { Steps } from '../turn.ts';
import { needsAction, WATCH_PART } from './trade-diff.ts';

/** A pending trade as the watcher shows it: whether it waits for the trader, and how old its partner's account is. */
export type WatchedTrade = PendingTrade & {
  needsAction: boolean;
  /** Age of the trade partner's platform account, in whole days. */
  partnerAgeDays: number;
  /** The partner's account is younger than the configured age: a common sign of a scam. */
  youngPartner: boolean;
};

const DAY_MS = 86_400_000;

/** `trade` as of `now`, its partner flagged when younger than `youngAccountDays`. */
export function watchedTrade(trade: PendingTrade, now: number, youngAccountDays: number): WatchedTrade {
  const partnerAgeDays = Math.floor((now - trade.partner_steam_creation_time * 1000) / DAY_MS);
  return { ...trade, needsAction: needsAction(trade), partnerAgeDays, youngPartner: partnerAgeDays < youngAccountDays };
}

/** The trades of the lists that loaded, one after the other, as the watcher shows them: WATCH_PART a step. */
export function* watchedInParts(lists: readonly (readonly PendingTrade[])[], now: number, youngAccountDays: number): Steps<WatchedTrade[]> {
  const out: WatchedTrade[] = [];
  for (const trade of lists.flat()) {
    if (out.length > 0 && out.length % WATCH_PART === 0) yield;
    out.push(watchedTrade(trade, now, youngAccountDays));
  }
  return out;
}
