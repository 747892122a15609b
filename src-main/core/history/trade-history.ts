import type { Store } from '../store/db.ts';
import type { Repos } from '../store/index.ts';
import type { NameIndex } from '../store/name-index.ts';
import { createHistoryRepo, type HistoryRepo } from '../store/history-repo.ts';
import { createHistoryReads, type HistoryRangeInput } from '../store/history-reads.ts';
import { createEmitter, type Unsubscribe } from '../events.ts';
import type { HistoryShow, HistoryRowView } from '../../../src-shared/history.ts';
import { historySummary, type HistorySummaryFigures } from './history-report.ts';
import { createHistoryTable, type HistoryCsvOptions } from './history-table.ts';
import { createListingEvidence } from './listing-evidence.ts';
import { fillPast, type PastEvent } from './past-fill.ts';
import { inTurns, type Steps } from './record-parts.ts';
import { createTradeRecorder, type TradeRecorder } from './trade-recorder.ts';
import { nextTurn, type Turn } from '../turn.ts';

/** The recorder's methods as the live watcher calls them: run a part at a time, resolving with their result. */
type Recorded<T> = { [K in keyof T]: T[K] extends (...args: infer A) => Steps<infer R> ? (...args: A) => Promise<R> : never };

/**
 * The trade history of one workspace: the recorder the trade watcher feeds,
 * the figures and the table the History screen asks for, and the fill of a
 * sandbox's past. Recordings run one after another, each a part at a time
 * with a turn of the event loop between two parts (record-parts.ts).
 * `changed` fires after anything was recorded, so the screen asks again.
 */

export interface TradeHistory extends Recorded<TradeRecorder> {
  readonly repo: HistoryRepo;
  summary(range: HistoryRangeInput): HistorySummaryFigures;
  /** `text`: only trades with an item the search finds, as every table's search reads it (store/item-match.ts). */
  page(range: HistoryRangeInput, show: HistoryShow, offset: number, limit: number, text?: string): { total: number; rows: HistoryRowView[] };
  /** The trades of `page` as a CSV file in the screen's words and the trader's time zone (history-table.ts). */
  csv(range: HistoryRangeInput, show: HistoryShow, options?: HistoryCsvOptions): { csv: string; rows: number };
  /**
   * Records a service's past into an empty history, once (see past-fill.ts),
   * in one go: the sandbox's past, filled as its profile opens, before the
   * watcher records anything. `ownIds`: the accounts of that past.
   */
  fillPast(events: Iterable<PastEvent>, ownIds?: readonly string[]): number;
  on(event: 'changed', listener: () => void): Unsubscribe;
  /** The last write that failed (disk full, a locked file), null when none: the watcher goes on regardless. */
  problem(): string | null;
}

export function createTradeHistory(deps: {
  store: Store;
  repos: Pick<Repos, 'listings'>;
  ownIds: () => readonly string[];
  /** The service's clock, for the bound on trade timestamps; default the store's. */
  serviceNow?: () => number;
  /** How a recording gives the event loop back between its parts. */
  turn?: Turn;
  /** The names tables the search reads, put in step with the trades' items before a search (store/name-index.ts). */
  nameIndex?: NameIndex;
}): TradeHistory {
  const { store } = deps;
  const turn = deps.turn ?? nextTurn;
  const repo = createHistoryRepo(store);
  const reads = createHistoryReads(store.db);
  const evidence = createListingEvidence(reads, deps.repos);
  const serviceNow = deps.serviceNow ? { serviceNow: deps.serviceNow } : {};
  const recorder = createTradeRecorder({ repo, ownIds: deps.ownIds, listings: evidence, ...serviceNow });
  const table = createHistoryTable(reads);
  const emitter = createEmitter<{ changed: undefined }>();
  const changed = () => emitter.emit('changed', undefined);
  let problem: string | null = null;
  /**
   * The history is a record beside the watcher: a failed write is kept as a
   * problem, never thrown into the watcher's loop. The screen is told only
   * when what it shows changed (a load that saw nothing new tells nothing).
   */
  let queue: Promise<unknown> = Promise.resolve();
  const record = (steps: () => Steps<boolean>): Promise<boolean> => {
    const run = queue.then(async () => {
      let wrote = true;
      try {
        wrote = await inTurns(steps(), turn);
        problem = null;
      } catch (error) {
        problem = error instanceof Error ? error.message : String(error);
      }
      if (wrote) changed();
      return wrote;
    });
    queue = run;
    return run;
  };

  return {
    repo,
    notePending: (trades, at) => record(() => recorder.notePending(trades, at)),
    noteGone: (gone, at) => record(() => recorder.noteGone(gone, at)),
    noteBalance: (reading) => record(() => recorder.noteBalance(reading)),
    problem: () => problem,
    summary: (range) => historySummary(reads, range),
    page(range, show, offset, limit, text) {
      if (text !== undefined && text.trim() !== '') deps.nameIndex?.sync();
      return table.page(range, show, offset, limit, text);
    },
    csv(range, show, options) {
      if (options?.text !== undefined && options.text.trim() !== '') deps.nameIndex?.sync();
      return table.csv(range, show, options);
    },
    fillPast(events, ownIds) {
      const pastRecorder = ownIds === undefined ? recorder : createTradeRecorder({ repo, ownIds: () => ownIds, listings: evidence, ...serviceNow });
      const n = fillPast(repo, pastRecorder, events, store.clock.now());
      if (n > 0) changed();
      return n;
    },
    on: (event, listener) => emitter.on(event, () => listener()),
  };
}
