import { performance } from 'node:perf_hooks';
import type { ChannelOutput, IpcResult } from '../../src-shared/contract.ts';
import { channels } from '../../src-shared/contract.ts';
import { compileNow } from '../../src-shared/plain-parse.ts';
import type { AppLog } from '../core/shell/app-log.ts';
import { nextTurn } from '../core/turn.ts';

/**
 * Main's check of a Listings page, compiled in the first quiet moment after a
 * long ledger's first page rather than on the page that reaches the count
 * (CROSSING_PLAIN_FOR): the compile takes about 10 ms, which that page, one
 * of the first a trader scrolls to, waited for; and the pages before it are
 * checked on the compiled path (0.2 ms) rather than the plain one (1.0–1.3
 * ms). A moment is quiet when no call of the screens is under way.
 *
 * Pages read ahead to warm the worker's code as well were tried: they took
 * the first pages' tail off too, but the worker kept 13–25 MB more after
 * them (docs/performance.md, "The first pages after a start").
 */

/** A ledger smaller than this has few pages, each checked quickly on the plain path: nothing to compile. */
export const WARM_FROM_ROWS = 1_000;

type PageAnswer = Promise<IpcResult<ChannelOutput<'ledger:page'>>>;

export interface PageWarmup {
  /** A call of the screens, answered by `answer`: while one is under way the moment is not quiet. */
  around<T>(answer: () => Promise<T>): Promise<T>;
  /** A screen's `ledger:page`, answered by `answer`: the first of a long ledger has the check compiled after it. */
  page(answer: () => PageAnswer): PageAnswer;
  /** Settles once the compile asked for (if any) is done: for tests. */
  settled(): Promise<void>;
}

export function createPageWarmup(log: Pick<AppLog, 'debug'>): PageWarmup {
  let asked = false;
  let compiled: Promise<void> = Promise.resolve();
  let underWay = 0;
  const whenQuiet: Array<() => void> = [];

  async function quiet(): Promise<void> {
    // A turn first: a call the screens sent with the last one gets in before the compile.
    await nextTurn();
    while (underWay > 0) {
      await new Promise<void>((resolve) => whenQuiet.push(resolve));
      await nextTurn();
    }
  }

  async function compile(page: ChannelOutput<'ledger:page'>): Promise<void> {
    await quiet();
    const started = performance.now();
    compileNow(channels['ledger:page'].output, page);
    log.debug('Listings page check compiled', { ms: Math.round(performance.now() - started) });
  }

  async function around<T>(answer: () => Promise<T>): Promise<T> {
    underWay += 1;
    try {
      return await answer();
    } finally {
      underWay -= 1;
      if (underWay === 0) for (const resolve of whenQuiet.splice(0)) resolve();
    }
  }

  return {
    around,
    async page(answer) {
      const result = await around(answer);
      if (!asked && result.ok && result.value.total >= WARM_FROM_ROWS) {
        asked = true;
        compiled = compile(result.value);
      }
      return result;
    },
    settled: () => compiled,
  };
}
