import { RATE_WINDOW_MS } from '../api/endpoints.ts';
import { ApiError, isApiError, type SerializedApiError } from '../api/errors.ts';
import type { Balance } from '../api/schemas.ts';
import type { PendingTrade } from '../../../src-shared/trades.ts';
import type { Clock } from '../clock.ts';
import { createEmitter, type Unsubscribe } from '../events.ts';
import type { Scheduler } from '../scheduler/types.ts';
import type { SeenTradesStore } from './seen-trades.ts';
import { diffTrades, needsAction, tradeKey, type GoneTrade, type StatusChange, type TradeType } from './trade-diff.ts';

/**
 * Watches the pending trades: polls both trade lists (each allows one request
 * a minute), announces what is new, what changed and what is gone, and above
 * all which trades wait for the trader. Each trade and status is announced
 * once, across restarts too (the seen set is saved before it is announced),
 * so the trader is told once and never spammed.
 */

export type WatchedTrade = PendingTrade & {
  needsAction: boolean;
  /** Age of the trade partner's platform account, in whole days. */
  partnerAgeDays: number;
  /** The partner's account is younger than the configured age: a common sign of a scam. */
  youngPartner: boolean;
};

export interface BalanceReading extends Balance {
  readAt: number;
}

export interface TradeWatcherEvents extends Record<string, unknown> {
  /** Every pending trade after a load. */
  trades: readonly WatchedTrade[];
  /** Trades not announced before (one event per load, only when there are some). */
  new: readonly WatchedTrade[];
  changed: readonly StatusChange<WatchedTrade>[];
  gone: readonly GoneTrade[];
  /** Trades that newly wait for the trader: notify these (grouped when many). */
  needsAction: readonly WatchedTrade[];
  balance: BalanceReading;
  error: SerializedApiError;
}

export interface TradeWatcherOptions {
  scheduler: Pick<Scheduler, 'request'>;
  clock: Clock;
  seen: SeenTradesStore;
  /** Between the end of one poll and the start of the next; default and minimum 60 s. */
  pollIntervalMs?: number;
  /** Between balance reads; default 5 minutes. */
  balanceIntervalMs?: number;
  /** Partners whose account is younger than this many days are flagged; default 30. */
  youngAccountDays?: number;
}

export interface TradeWatcher {
  start(): void;
  stop(): void;
  /** Loads both trade lists now (waiting for their rate slots); resolves when done. */
  checkNow(): Promise<void>;
  /** New timing and young-account age, applied to the running watcher: no request is repeated, no trade dropped. */
  configure(next: { pollIntervalMs?: number; youngAccountDays?: number }): void;
  /** Reads the balance now. Rejects with ApiError when it cannot. */
  refreshBalance(): Promise<BalanceReading>;
  trades(): readonly WatchedTrade[];
  balance(): BalanceReading | null;
  on<K extends keyof TradeWatcherEvents>(event: K, listener: (payload: TradeWatcherEvents[K]) => void): Unsubscribe;
}

const DAY_MS = 86_400_000;

export function createTradeWatcher(options: TradeWatcherOptions): TradeWatcher {
  const { scheduler, clock } = options;
  let pollIntervalMs = Math.max(RATE_WINDOW_MS, options.pollIntervalMs ?? RATE_WINDOW_MS);
  const balanceIntervalMs = options.balanceIntervalMs ?? 5 * 60_000;
  let youngAccountDays = options.youngAccountDays ?? 30;
  /** Cut short when the poll interval changes, so the next poll keeps to the new one. */
  let pollWait = new AbortController();
  const emitter = createEmitter<TradeWatcherEvents>();

  let seen: Map<string, string> | null = null;
  let current: WatchedTrade[] = [];
  let lastBalance: BalanceReading | null = null;
  let running: AbortController | null = null;
  let check: Promise<void> | null = null;

  const reportError = (error: unknown) => {
    emitter.emit('error', (isApiError(error) ? error : new ApiError('network', String(error))).toJSON());
  };

  const ageOf = (trade: PendingTrade, now: number) => {
    const partnerAgeDays = Math.floor((now - trade.partner_steam_creation_time * 1000) / DAY_MS);
    return { partnerAgeDays, youngPartner: partnerAgeDays < youngAccountDays };
  };
  const watched = (trade: PendingTrade, now: number): WatchedTrade => ({ ...trade, needsAction: needsAction(trade), ...ageOf(trade, now) });

  const loadSeen = async (): Promise<Map<string, string>> => {
    if (seen) return seen;
    try {
      seen = new Map(await options.seen.load());
    } catch (error) {
      // Without the saved set every trade may be announced again; better than none.
      reportError(error);
      seen = new Map();
    }
    return seen;
  };

  const runCheck = async (signal?: AbortSignal) => {
    const known = await loadSeen();
    const requestOptions = { lane: 'poll' as const, ...(signal ? { signal } : {}) };
    const [market, buyOrder] = await Promise.allSettled([
      scheduler.request('load_pending', {}, requestOptions),
      scheduler.request('load_pending_buy_orders', {}, requestOptions),
    ]);
    if (signal?.aborted) return;
    const loaded: TradeType[] = [];
    const now = clock.now();
    let trades: WatchedTrade[] = [];
    for (const [type, result] of [['market', market], ['buy_order', buyOrder]] as const) {
      if (result.status === 'fulfilled') {
        loaded.push(type);
        trades.push(...result.value.map((t) => watched(t, now)));
      } else {
        reportError(result.reason);
        // Keep what we knew of this type rather than dropping it.
        trades.push(...current.filter((t) => t.trade_type === type));
      }
    }
    if (loaded.length === 0) return;
    const diff = diffTrades(known, trades.filter((t) => loaded.includes(t.trade_type)), loaded);
    seen = diff.seen;
    const changedSeen = diff.added.length + diff.changed.length + diff.gone.length > 0;
    if (changedSeen) {
      try {
        await options.seen.save(diff.seen);
      } catch (error) {
        reportError(error);
      }
    }
    trades = trades.sort((a, b) => a.timestamp - b.timestamp || tradeKey(a).localeCompare(tradeKey(b)));
    current = trades;
    emitter.emit('trades', current);
    if (diff.added.length > 0) emitter.emit('new', diff.added);
    if (diff.changed.length > 0) emitter.emit('changed', diff.changed);
    if (diff.gone.length > 0) emitter.emit('gone', diff.gone);
    if (diff.needsAction.length > 0) emitter.emit('needsAction', diff.needsAction);
  };

  const checkNow = (): Promise<void> => {
    if (check) return check;
    const pending = runCheck(running?.signal).finally(() => {
      if (check === pending) check = null;
    });
    check = pending;
    return pending;
  };

  const refreshBalance = async (signal?: AbortSignal): Promise<BalanceReading> => {
    const balance = await scheduler.request('get_balance', {}, { lane: 'poll', ...(signal ? { signal } : {}) });
    lastBalance = { ...balance, readAt: clock.now() };
    emitter.emit('balance', lastBalance);
    return lastBalance;
  };

  /** Runs `step` now and then every `intervalMs()` after it ends, until stopped; `wake()` re-reads the interval. */
  const loop = async (signal: AbortSignal, intervalMs: () => number, step: () => Promise<unknown>, wake?: () => AbortSignal) => {
    while (!signal.aborted) {
      try {
        await step();
      } catch (error) {
        if (signal.aborted) return;
        reportError(error);
      }
      const ended = clock.now();
      for (;;) {
        const left = ended + intervalMs() - clock.now();
        if (left <= 0) break;
        const cut = wake?.();
        try {
          await clock.sleep(left, cut ? AbortSignal.any([signal, cut]) : signal);
          break;
        } catch {
          if (signal.aborted) return;
          // The interval changed: wait out what is left of the new one.
        }
      }
    }
  };

  return {
    start() {
      if (running) return;
      const control = new AbortController();
      running = control;
      void loop(control.signal, () => pollIntervalMs, checkNow, () => pollWait.signal);
      void loop(control.signal, () => balanceIntervalMs, () => refreshBalance(control.signal));
    },
    stop() {
      running?.abort(new Error('trade watcher stopped'));
      running = null;
      check = null;
    },
    checkNow,
    configure(next) {
      if (next.youngAccountDays !== undefined && next.youngAccountDays !== youngAccountDays) {
        youngAccountDays = next.youngAccountDays;
        const now = clock.now();
        current = current.map((t) => ({ ...t, ...ageOf(t, now) }));
        emitter.emit('trades', current);
      }
      if (next.pollIntervalMs !== undefined) {
        pollIntervalMs = Math.max(RATE_WINDOW_MS, next.pollIntervalMs);
        pollWait.abort();
        pollWait = new AbortController();
      }
    },
    refreshBalance: () => refreshBalance(),
    trades: () => current,
    balance: () => lastBalance,
    on: (event, listener) => emitter.on(event, listener),
  };
}
