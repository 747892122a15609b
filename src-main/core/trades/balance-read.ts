import type { Balance } from '../api/schemas.ts';
import type { Clock } from '../clock.ts';
import { createRetryingRead, type RetryingRead } from '../scheduler/retrying-read.ts';
import type { Scheduler } from '../scheduler/types.ts';

/**
 * The balance, read one request at a time however many ask (get_balance
 * allows two a minute): the Overview's refresh, the watcher's periodic read
 * and the apply's readings around buy order creates all share it.
 */

export interface BalanceReading extends Balance {
  readAt: number;
}

export interface BalanceRead extends RetryingRead<BalanceReading> {
  /**
   * The read on its way, or a new one, with no deadline. `fresh`: a reading
   * whose request leaves after this call (one on its way is waited for, then
   * another is made), so it reflects everything answered before the call.
   */
  readBalance(options?: { fresh?: boolean }): Promise<BalanceReading>;
  /** The last reading, null before one. */
  last(): BalanceReading | null;
}

export function createBalanceRead(deps: {
  scheduler: Pick<Scheduler, 'request'>;
  clock: Clock;
  /** Each reading, as it lands. */
  onReading: (reading: BalanceReading) => void;
}): BalanceRead {
  const { scheduler, clock } = deps;
  let last: BalanceReading | null = null;
  /** Reads started so far, and which one each reading came from: `fresh` waits for a later one. */
  let started = 0;
  const readNumber = new WeakMap<BalanceReading, number>();
  const read = createRetryingRead({
    clock,
    what: 'get_balance',
    async read(signal) {
      const number = (started += 1);
      // One try each: the retrying read plans the next, so a failure is shown at once.
      const balance = await scheduler.request('get_balance', {}, { lane: 'poll', signal, retries: 0 });
      const reading = { ...balance, readAt: clock.now() };
      readNumber.set(reading, number);
      last = reading;
      deps.onReading(reading);
      return reading;
    },
  });

  return {
    ...read,
    async readBalance(options = {}) {
      const startedBefore = started;
      for (;;) {
        const reading = await read.read();
        // A read that left before the call may not see what the caller did just before it.
        if (!options.fresh || (readNumber.get(reading) ?? 0) > startedBefore) return reading;
      }
    },
    last: () => last,
  };
}
