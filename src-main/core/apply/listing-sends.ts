import { RATE_WINDOW_MS } from '../api/endpoints.ts';
import type { Clock } from '../clock.ts';
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
 */
export interface TradeReads {
  /** Loads the trade lists; `fresh`: a load sent after this call. The ledger learns the sales from it. */
  checkNow(options?: { fresh?: boolean }): Promise<void>;
}

export interface ListingSends {
  /** Before a batch is checked and sent: a listing batch waits for its turn and for a trade read asked for. */
  turn(runId: number, task: BatchTask): Promise<void>;
  /** The batch was answered, goes back to wait, or was not sent: the next one may go. */
  done(taskId: string): void;
  /** A refusal said a listing is gone: the trades are read once before the next listing batch goes. */
  readTrades(): void;
}

/** The longest a listing batch waits for the trade read (two of its one-a-minute turns and more); then it goes with what the ledger knows. */
export const TRADE_READ_WAIT_MS = 3 * RATE_WINDOW_MS;

export function createListingSends(deps: { readonly clock: Clock; readonly trades?: TradeReads }): ListingSends {
  /** The last turn given out per run and endpoint: the next one waits for it. */
  const tails = new Map<string, Promise<void>>();
  const releases = new Map<string, () => void>();
  let reading: Promise<void> | null = null;

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
    readTrades() {
      const trades = deps.trades;
      if (!trades || reading !== null) return;
      const stop = new AbortController();
      const read = trades.checkNow({ fresh: true }).catch(() => undefined);
      const enough = deps.clock.sleep(TRADE_READ_WAIT_MS, stop.signal).catch(() => undefined);
      reading = Promise.race([read, enough]).finally(() => {
        stop.abort();
        reading = null;
      });
    },
  };
}
