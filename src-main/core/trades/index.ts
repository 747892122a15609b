/** The trade watcher: pending trades, what changed, and what waits for the trader. */
export { createMemorySeenTradesStore } from './seen-trades.ts';
export type { SeenTradesStore } from '../store/watcher-memory.ts';
export {
  diffTrades,
  needsAction,
  NEEDS_ACTION_STATUSES,
  tradeKey,
  type GoneTrade,
  type StatusChange,
  type TradeDiff,
  type TradeType,
} from './trade-diff.ts';
export {
  createTradeWatcher,
  type BalanceReading,
  type TradeWatcher,
  type TradeWatcherEvents,
  type TradeWatcherOptions,
  type WatchedTrade,
} from './trade-watcher.ts';
