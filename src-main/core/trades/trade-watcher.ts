import { RATE_WINDOW_MS } from '../api/endpoints.ts';
import { ApiError, isApiError, type SerializedApiError } from '../api/errors.ts';
import type { PendingTrade } from '../../../src-shared/trades.ts';
import type { Clock } from '../clock.ts';
import { createEmitter, type Unsubscribe } from '../events.ts';
import type { ReadState } from '../scheduler/retrying-read.ts';
import { INTERACTIVE_DEADLINE_MS, type Scheduler } from '../scheduler/types.ts';
import type { AnnouncedTradesStore, SeenTradesStore } from '../store/watcher-memory.ts';
import { announceInParts, createMemoryAnnouncedTradesStore } from './announced-trades.ts';
import { createBalanceRead, type BalanceReading } from './balance-read.ts';
import { repeatEvery } from './repeat-every.ts';
import type { RecordedLoad } from './trade-recording.ts';
import { diffInParts, tradeKey, type GoneTrade, type StatusChange, type TradeType } from './trade-diff.ts';
import { watchedInParts, watchedTrade, type WatchedTrade } from './watched-trade.ts';
import { inTurns, nextTurn, type Turn } from '../turn.ts';
import { byCodeUnit } from '../../../src-shared/text-order.ts';

/**
 * Watches the pending trades: polls both trade lists (each allows one request
 * a minute), announces what is new, what changed and what is gone, and above
 * all which trades wait for the trader. Each trade and status is announced
 * once while the trade is pending, across restarts too (the seen set and the
 * announcements are saved before they are announced), so the trader is told
 * once and never spammed. A load of thousands of trades is taken in, told
 * apart from the seen set and saved in steps of WATCH_PART trades, a turn of
 * the event loop apart, as the recording that follows it is.
 */

export type { WatchedTrade } from './watched-trade.ts';
export type { BalanceReading } from './balance-read.ts';

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
  /** Every step of reading the balance (reading, retrying and when, done), for the screen. */
  balanceState: ReadState;
  error: SerializedApiError;
}

export interface TradeWatcherOptions {
  /** `nextSlotAt` tells when the next load can go (`nextReadAt`); without it that is not known. */
  scheduler: Pick<Scheduler, 'request'> & Partial<Pick<Scheduler, 'nextSlotAt'>>;
  clock: Clock;
  seen: SeenTradesStore;
  /** The trades and statuses told as needing action; kept in memory only when absent. */
  announced?: AnnouncedTradesStore;
  /** Between the end of one poll and the start of the next; default and minimum 60 s. */
  pollIntervalMs?: number;
  /** Between balance reads; default 5 minutes. A failed read is tried again sooner, with backoff. */
  balanceIntervalMs?: number;
  /** Partners whose account is younger than this many days are flagged; default 30. */
  youngAccountDays?: number;
  /** Records each load (trade-recording.ts); a load ends once recorded, so whoever waits for one finds its sales in the ledger. */
  record?: (load: RecordedLoad) => Promise<void>;
  /** How a large load gives the event loop back between its steps; default the next turn. */
  turn?: Turn;
}

export interface TradeWatcher {
  start(): void;
  stop(): void;
  /**
   * Loads both trade lists now (waiting for their rate slots), or joins the
   * load on its way; resolves when done, rejects (ApiError) when neither list
   * could be loaded. `fresh`: a load already on its way may have been sent
   * before this call, so it is followed by one more (shared by every fresh
   * caller meanwhile).
   */
  checkNow(options?: { fresh?: boolean }): Promise<void>;
  /**
   * When (monotonic ms) the next load of the trade lists can be sent: the
   * later of the two lists' free rate slots (one request a minute each);
   * Infinity while a load is on its way and holds them; null when the
   * scheduler cannot tell.
   */
  nextReadAt(): number | null;
  /**
   * Reads the balance now, or joins the read on its way (one at a time,
   * however many ask). Rejects with ApiError when it cannot, within 30 s.
   */
  refreshBalance(): Promise<BalanceReading>;
  /**
   * The balance for the desk's own use (the apply's buy order creates),
   * through the same one-at-a-time read, with no deadline: the read on its
   * way, or a new one. `fresh`: a reading whose request leaves after this
   * call (one on its way is waited for, then another is made), so it
   * reflects everything answered before the call.
   */
  readBalance(options?: { fresh?: boolean }): Promise<BalanceReading>;
  trades(): readonly WatchedTrade[];
  /** When a load last answered (either list), on the desk's clock; null before the first ("checked 40 s ago"). */
  checkedAt(): number | null;
  /**
   * When the load of the trades on hand was asked for: the lists are the
   * service's as of some moment between this and `checkedAt`, so a trade they
   * hold was still pending at least until this (History's windows need the
   * earlier bound: a balance read answered meanwhile may already show it).
   */
  listedAt(): number | null;
  balance(): BalanceReading | null;
  /** How the balance reads are going: retrying after a failure (and when), or done. */
  balanceState(): ReadState;
  /**
   * Applies the trader's settings live, without a request: the poll interval
   * re-plans the wait under way; the young-account age re-flags the trades on
   * hand (announced as 'trades').
   */
  configure(settings: { pollIntervalMs?: number; youngAccountDays?: number }): void;
  on<K extends keyof TradeWatcherEvents>(event: K, listener: (payload: TradeWatcherEvents[K]) => void): Unsubscribe;
}

export function createTradeWatcher(options: TradeWatcherOptions): TradeWatcher {
  const { scheduler, clock } = options;
  const turn = options.turn ?? nextTurn;
  const pollFloor = (ms: number) => Math.max(RATE_WINDOW_MS, ms);
  let pollIntervalMs = pollFloor(options.pollIntervalMs ?? RATE_WINDOW_MS);
  const balanceIntervalMs = options.balanceIntervalMs ?? 5 * 60_000;
  let youngAccountDays = options.youngAccountDays ?? 30;
  /** Waits between polls under way: a new interval wakes them to measure again. */
  const pollWaits = new Set<AbortController>();
  const emitter = createEmitter<TradeWatcherEvents>();

  let seen: Map<string, string> | null = null;
  const announcedStore = options.announced ?? createMemoryAnnouncedTradesStore();
  let announced: readonly string[] | null = null;
  let current: WatchedTrade[] = [];
  let checkedAt: number | null = null;
  let listedAt: number | null = null;
  let running: AbortController | null = null;
  let check: Promise<void> | null = null;

  const reportError = (error: unknown) => {
    emitter.emit('error', (isApiError(error) ? error : new ApiError('network', String(error))).toJSON());
  };

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

  const loadAnnounced = async (): Promise<readonly string[]> => {
    if (announced) return announced;
    try {
      announced = await announcedStore.load();
    } catch (error) {
      // Without it a trade already told about may be told again; better than none.
      reportError(error);
      announced = [];
    }
    return announced;
  };

  /** Saves what changed before anything is announced, so a crash never makes the trader be told twice. */
  const save = async (write: () => Promise<void>) => {
    try {
      await write();
    } catch (error) {
      reportError(error);
    }
  };

  const runCheck = async (signal?: AbortSignal) => {
    const known = await loadSeen();
    const told = await loadAnnounced();
    const requestOptions = { lane: 'poll' as const, ...(signal ? { signal } : {}) };
    const askedAt = clock.now();
    const [market, buyOrder] = await Promise.allSettled([
      scheduler.request('load_pending', {}, requestOptions),
      scheduler.request('load_pending_buy_orders', {}, requestOptions),
    ]);
    if (signal?.aborted) return;
    const loaded: TradeType[] = [];
    const lists: Array<readonly PendingTrade[]> = [];
    const failures: unknown[] = [];
    const now = clock.now();
    // Keep what we knew of a list that failed to load rather than dropping it.
    const kept: WatchedTrade[] = [];
    for (const [type, result] of [['market', market], ['buy_order', buyOrder]] as const) {
      if (result.status === 'fulfilled') {
        loaded.push(type);
        lists.push(result.value);
      } else {
        reportError(result.reason);
        failures.push(result.reason);
        kept.push(...current.filter((t) => t.trade_type === type));
      }
    }
    if (loaded.length === 0) throw failures[0];
    checkedAt = now;
    listedAt = askedAt;
    const fresh = await inTurns(watchedInParts(lists, now, youngAccountDays), turn);
    const diff = await inTurns(diffInParts(known, fresh, loaded), turn);
    seen = diff.seen;
    // The seen set keeps the trades of a list that failed to load: their announcements stay too.
    const news = await inTurns(announceInParts(told, diff.needsAction, diff.seen), turn);
    const changedSeen = diff.added.length + diff.changed.length + diff.gone.length > 0;
    if (changedSeen) await save(() => options.seen.save(diff.seen, turn));
    if (news.memory.length !== told.length || news.fresh.length > 0) {
      announced = news.memory;
      await save(() => announcedStore.save(news.memory));
    }
    current = [...fresh, ...kept].sort((a, b) => a.timestamp - b.timestamp || byCodeUnit(tradeKey(a), tradeKey(b)));
    emitter.emit('trades', current);
    if (diff.added.length > 0) emitter.emit('new', diff.added);
    if (diff.changed.length > 0) emitter.emit('changed', diff.changed);
    if (diff.gone.length > 0) emitter.emit('gone', diff.gone);
    if (news.fresh.length > 0) emitter.emit('needsAction', news.fresh);
    await options.record?.({ trades: current, gone: diff.gone, listedAt: askedAt, at: now });
  };

  let followUp: Promise<void> | null = null;
  const checkNow = (options: { fresh?: boolean } = {}): Promise<void> => {
    if (options.fresh && check) {
      followUp ??= check.catch(() => undefined).then(() => {
        followUp = null;
        return checkNow();
      });
      return followUp;
    }
    if (check) return check;
    const pending = runCheck(running?.signal).finally(() => {
      if (check === pending) check = null;
    });
    check = pending;
    return pending;
  };

  const balanceRead = createBalanceRead({ scheduler, clock, onReading: (reading) => emitter.emit('balance', reading) });
  balanceRead.on('state', (state) => {
    if (state.phase === 'retrying' && state.lastError) emitter.emit('error', state.lastError);
    emitter.emit('balanceState', state);
  });

  return {
    nextReadAt() {
      const at = scheduler.nextSlotAt;
      if (at === undefined) return null;
      return Math.max(at('load_pending', 'poll'), at('load_pending_buy_orders', 'poll'));
    },
    start() {
      if (running) return;
      const control = new AbortController();
      running = control;
      // A load's failures are reported by the load itself.
      void repeatEvery(clock, control.signal, () => pollIntervalMs, () => checkNow().catch(() => undefined), pollWaits);
      // The first read is retried with backoff until it succeeds; then one every interval.
      balanceRead.start();
      // Its failures are reported by the read's own state (and retried there).
      void repeatEvery(clock, control.signal, () => balanceIntervalMs, () => balanceRead.read().catch(() => undefined));
    },
    stop() {
      running?.abort(new Error('trade watcher stopped'));
      running = null;
      check = null;
      balanceRead.stop();
    },
    checkNow,
    refreshBalance: () => balanceRead.read(INTERACTIVE_DEADLINE_MS),
    readBalance: (options) => balanceRead.readBalance(options),
    trades: () => current,
    checkedAt: () => checkedAt,
    listedAt: () => listedAt,
    balance: () => balanceRead.last(),
    balanceState: () => balanceRead.state(),
    configure(settings) {
      if (settings.pollIntervalMs !== undefined) {
        pollIntervalMs = pollFloor(settings.pollIntervalMs);
        for (const wake of pollWaits) wake.abort();
      }
      if (settings.youngAccountDays !== undefined && settings.youngAccountDays !== youngAccountDays) {
        youngAccountDays = settings.youngAccountDays;
        const now = clock.now();
        current = current.map((t) => watchedTrade(t, now, youngAccountDays));
        emitter.emit('trades', current);
      }
    },
    on: (event, listener) => emitter.on(event, listener),
  };
}
