import type { PendingTrade } from '../../../src-shared/trades.ts';
import { atOnce, type Steps } from '../turn.ts';

/**
 * What changed between two loads of the pending trades, and which changes ask
 * the trader to act. Pure, so the rules are tested on their own. A load may
 * list tens of thousands of trades, so the watcher runs the diff in steps of
 * WATCH_PART trades, a turn of the event loop apart.
 */

/** Trades looked at per step of a load (its diff, its announcements, the watcher's view of it): a few milliseconds. */
export const WATCH_PART = 2_000;

export type TradeType = PendingTrade['trade_type'];

/**
 * Statuses that ask the trader to do something, per trade type, compared
 * exactly: the service writes `Action Required` for market trades but
 * `Action required` for buy-order trades.
 */
export const NEEDS_ACTION_STATUSES: Readonly<Record<TradeType, readonly string[]>> = {
  market: ['Action Required'],
  buy_order: ['Action required', 'confirmation_required'],
};

export function needsAction(trade: Pick<PendingTrade, 'trade_type' | 'status'>): boolean {
  return NEEDS_ACTION_STATUSES[trade.trade_type].includes(trade.status);
}

/** The key of a trade in the seen set: trade IDs are only unique within a type. */
export function tradeKey(trade: Pick<PendingTrade, 'trade_type' | 'trade_id'>): string {
  return `${trade.trade_type}:${trade.trade_id}`;
}

export interface StatusChange<T extends PendingTrade = PendingTrade> {
  trade: T;
  previousStatus: string;
}

export interface GoneTrade {
  key: string;
  tradeType: TradeType;
  tradeId: string;
  lastStatus: string;
}

export interface TradeDiff<T extends PendingTrade = PendingTrade> {
  /** Trades not announced before. */
  added: T[];
  /** Trades announced before with another status. */
  changed: StatusChange<T>[];
  /** Trades announced before that the service no longer lists. */
  gone: GoneTrade[];
  /** Added or changed trades whose new status asks the trader to act. */
  needsAction: T[];
  /** The seen set after this load. */
  seen: Map<string, string>;
}

/**
 * Compares a load with the seen set. `loaded` names the trade types this load
 * covers: when one of the two lists failed to load, its trades are neither
 * gone nor forgotten.
 */
export function diffTrades<T extends PendingTrade>(
  seen: ReadonlyMap<string, string>,
  current: readonly T[],
  loaded: readonly TradeType[],
): TradeDiff<T> {
  return atOnce(diffInParts(seen, current, loaded));
}

/** `diffTrades`, yielding after every WATCH_PART trades looked at (the load's, then the seen set's). */
export function* diffInParts<T extends PendingTrade>(
  seen: ReadonlyMap<string, string>,
  current: readonly T[],
  loaded: readonly TradeType[],
): Steps<TradeDiff<T>> {
  const next = new Map(seen);
  const diff: TradeDiff<T> = { added: [], changed: [], gone: [], needsAction: [], seen: next };
  const present = new Set<string>();
  let looked = 0;
  for (const trade of current) {
    if (looked > 0 && looked % WATCH_PART === 0) yield;
    looked++;
    const key = tradeKey(trade);
    present.add(key);
    const previous = seen.get(key);
    if (previous === trade.status) continue;
    if (previous === undefined) diff.added.push(trade);
    else diff.changed.push({ trade, previousStatus: previous });
    if (needsAction(trade)) diff.needsAction.push(trade);
    next.set(key, trade.status);
  }
  for (const [key, lastStatus] of seen) {
    if (looked > 0 && looked % WATCH_PART === 0) yield;
    looked++;
    const separator = key.indexOf(':');
    const tradeType = key.slice(0, separator) as TradeType;
    if (present.has(key) || !loaded.includes(tradeType)) continue;
    next.delete(key);
    diff.gone.push({ key, tradeType, tradeId: key.slice(separator + 1), lastStatus });
  }
  return diff;
}
