import type { PendingTrade } from '../../../src-shared/trades.ts';
import { nextTurn, type Turn } from '../turn.ts';
import { inParts, RECORD_PART } from '../history/record-parts.ts';
import type { TradeHistory } from '../history/trade-history.ts';
import type { Store } from '../store/db.ts';
import type { Repos } from '../store/index.ts';
import type { BalanceReading } from './balance-read.ts';
import type { LedgerSales } from './ledger-sales.ts';
import type { GoneTrade } from './trade-diff.ts';

/**
 * What the trade watcher saw, kept: each load's trades as the pending list,
 * the listings they sold marked in the ledger, and History; each balance
 * reading in History. An answer may hold tens of thousands of trades, so a
 * load is recorded RECORD_PART trades per transaction with a turn of the
 * event loop between two parts (as the other long jobs are), one recording
 * after another in the order the watcher saw them.
 */

/** What one load saw. */
export interface RecordedLoad {
  /** Every pending trade after the load (a list that failed to load keeps the trades it had). */
  readonly trades: readonly PendingTrade[];
  readonly gone: readonly GoneTrade[];
  /** When the load was asked for: the lists are the service's as of some moment between this and `at`. */
  readonly listedAt: number;
  /** When it answered. */
  readonly at: number;
}

export interface TradeRecording {
  /** Records a load after those queued before it; rejects with the first failure of the pending list or the ledger (History keeps its own). */
  load(load: RecordedLoad): Promise<void>;
  balance(reading: BalanceReading): Promise<void>;
  /** Resolves once everything queued so far is recorded. */
  idle(): Promise<void>;
}

export interface TradeRecordingDeps {
  readonly store: Pick<Store, 'transaction'>;
  readonly repos: Pick<Repos, 'trades'>;
  readonly sales: Pick<LedgerSales, 'notePending' | 'noteGone'>;
  readonly history: Pick<TradeHistory, 'notePending' | 'noteGone' | 'noteBalance'>;
  readonly turn?: Turn;
}

export function createTradeRecording(deps: TradeRecordingDeps): TradeRecording {
  const { store, repos, sales, history } = deps;
  const turn = deps.turn ?? nextTurn;
  let queue: Promise<unknown> = Promise.resolve();
  const enqueue = (job: () => Promise<void>): Promise<void> => {
    const run = queue.then(job);
    queue = run.catch(() => undefined);
    return run;
  };

  /**
   * Runs every writer on every part, one transaction a part (each writer's
   * own is a savepoint in it), a turn apart; a write that fails is kept as
   * a failure and the others still run.
   */
  async function parts<T>(items: readonly T[], writers: readonly ((part: T[]) => unknown)[], failures: unknown[]): Promise<void> {
    const attempt = (write: () => unknown) => {
      try {
        write();
      } catch (error) {
        failures.push(error);
      }
    };
    for (const part of inParts(items, RECORD_PART)) {
      attempt(() => store.transaction(() => writers.forEach((write) => attempt(() => write(part)))));
      await turn();
    }
  }

  return {
    load: (load) => enqueue(async () => {
      const failures: unknown[] = [];
      // The ledger's sales before History: a sale's listings are marked by the time History asks which they were.
      await parts(load.trades, [(part) => repos.trades.keepPending(part, load.at), (part) => sales.notePending(part)], failures);
      try {
        while (repos.trades.dropPendingNotKeptAt(load.at, RECORD_PART) === RECORD_PART) await turn();
      } catch (error) {
        failures.push(error);
      }
      await history.notePending(load.trades, load.listedAt);
      await parts(load.gone, [(part) => sales.noteGone(part)], failures);
      await history.noteGone(load.gone, load.at);
      if (failures.length > 0) throw failures[0];
    }),
    balance: (reading) => enqueue(async () => void (await history.noteBalance(reading))),
    idle: () => queue.then(() => undefined),
  };
}
