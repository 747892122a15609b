import { RATE_WINDOW_MS } from '../api/endpoints.ts';
import type { Clock } from '../clock.ts';
import { createEmitter, type Unsubscribe } from '../events.ts';
import type { BatchTask } from '../scheduler/index.ts';
import { LISTING_ENDPOINTS } from './ended-listings.ts';

/**
 * Listings sell while an apply runs, and the service refuses a whole batch
 * that names one sold listing. So a run's listing edits (and deletes) go one
 * batch at a time on the wire: the next waits until the one before it is
 * answered, and when that answer said a listing is gone the trades are read
 * first (the trade watcher's read, through the scheduler at its own rate),
 * so every sale they show is in the ledger before the next batch is checked
 * and sent (see journal.ts `prepareSend`): one refusal reveals them all.
 *
 * Going one at a time costs almost nothing: each of the endpoint's five slots
 * a minute stays busy until 60 s after its answer, so a freed slot finds the
 * batch before it answered long ago; only a run's first few batches wait a
 * round trip for each other.
 *
 * The wait for a trade read is the one a trader sees (up to a minute for the
 * read's turn), so it is told as it starts: how many listings it is about,
 * when the read can go, and how long it adds (`waiting`, `on('wait')`).
 */
export interface TradeReads {
  /** Loads the trade lists; `fresh`: a load sent after this call. The ledger learns the sales from it. */
  checkNow(options?: { fresh?: boolean }): Promise<void>;
  /** When (monotonic ms) the next load can be sent; Infinity while one is on its way; null when not known. */
  nextReadAt?(): number | null;
}

/** Listing batches wait for the trade lists to tell whether listings the service said are gone were sold. */
export interface TradeWait {
  /** Listings the service said are gone, since the wait began. */
  readonly listings: number;
  /** When the wait began (monotonic ms). */
  readonly since: number;
  /** When the read can be sent (monotonic ms); null while the read on its way answers first, or when not known. */
  readonly readAt: number | null;
  /** How long the wait lasts from now, at the most the desk expects (the read's turn and its answer). */
  readonly leftMs: number;
}

export interface ListingSends {
  /** Before a batch is checked and sent: a listing batch waits for its turn and for a trade read asked for. */
  turn(runId: number, task: BatchTask): Promise<void>;
  /** The batch was answered, goes back to wait, or was not sent: the next one may go. */
  done(taskId: string): void;
  /** A refusal said `listings` listings are gone: the trades are read once before the next listing batch goes. */
  readTrades(listings?: number): void;
  /** The wait for a trade read under way, or null. */
  waiting(): TradeWait | null;
  /** Told as a wait for a trade read begins and as it ends. */
  on(event: 'wait', listener: (wait: TradeWait | null) => void): Unsubscribe;
}

/** What a load of the trade lists takes once sent, at the most the desk expects (both lists, and the ledger marking their sales). */
export const TRADE_READ_ANSWER_MS = 5_000;

/** The longest a listing batch waits for the trade read (two of its one-a-minute turns and more); then it goes with what the ledger knows. */
export const TRADE_READ_WAIT_MS = 3 * RATE_WINDOW_MS;

export function createListingSends(deps: { readonly clock: Clock; readonly trades?: TradeReads }): ListingSends {
  /** The last turn given out per run and endpoint: the next one waits for it. */
  const tails = new Map<string, Promise<void>>();
  const releases = new Map<string, () => void>();
  let reading: Promise<void> | null = null;
  let wait: { listings: number; since: number } | null = null;
  const emitter = createEmitter<{ wait: TradeWait | null }>();
  const clock = deps.clock;

  /** The wait as it stands now: the read's turn (a minute after the one on its way, when it is), its answer, within the cap. */
  function waiting(): TradeWait | null {
    if (wait === null) return null;
    const now = clock.monotonic();
    const next = deps.trades?.nextReadAt?.() ?? null;
    const readAt = next === null || !Number.isFinite(next) ? null : Math.max(now, next);
    const end = Math.min(wait.since + TRADE_READ_WAIT_MS, (readAt ?? now + RATE_WINDOW_MS) + TRADE_READ_ANSWER_MS);
    return { listings: wait.listings, since: wait.since, readAt, leftMs: Math.max(0, end - now) };
  }

  return {
    async turn(runId, task) {
      if (!LISTING_ENDPOINTS.has(task.endpoint)) return;
      // An earlier attempt's turn (given back on retry; never held twice).
      releases.get(task.id)?.();
      const key = `${runId}:${task.endpoint}`;
      const before = tails.get(key) ?? Promise.resolve();
      let release: () => void = () => undefined;
      const mine = new Promise<void>((resolve) => (release = resolve));
      tails.set(key, before.then(() => mine));
      releases.set(task.id, () => {
        releases.delete(task.id);
        release();
      });
      await before;
      await reading;
    },
    done(taskId) {
      releases.get(taskId)?.();
    },
    readTrades(listings = 1) {
      const trades = deps.trades;
      if (!trades) return;
      if (reading !== null) {
        // Another listing said gone while the read is awaited: the same read tells of it.
        if (wait !== null) wait = { ...wait, listings: wait.listings + listings };
        emitter.emit('wait', waiting());
        return;
      }
      wait = { listings, since: clock.monotonic() };
      const stop = new AbortController();
      const read = trades.checkNow({ fresh: true }).catch(() => undefined);
      const enough = clock.sleep(TRADE_READ_WAIT_MS, stop.signal).catch(() => undefined);
      reading = Promise.race([read, enough]).finally(() => {
        stop.abort();
        reading = null;
        wait = null;
        emitter.emit('wait', null);
      });
      emitter.emit('wait', waiting());
    },
    waiting,
    on: (event, listener) => emitter.on(event, listener),
  };
}
