import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src-main/core/clock.ts';
import { RECORD_PART } from '../../../src-main/core/history/record-parts.ts';
import { createTradeHistory } from '../../../src-main/core/history/trade-history.ts';
import type { PendingTrade } from '../../../src-shared/trades.ts';
import { buyOrderTrade, marketTrade } from '../trades/fixtures.ts';
import { MAIN, tempStore, type TempStore } from '../store/temp-store.ts';

/**
 * A load of thousands of trades is recorded in parts, as the other long jobs
 * are: each step between two turns of the event loop writes at most one
 * part, and the steps grow with the trades, not with their square. Counted
 * in rows written (SQLite's total_changes) and turns taken, never timed.
 */

const T0 = Date.UTC(2025, 0, 6, 9);
const MIN = 60_000;
let t: TempStore | null = null;
afterEach(() => {
  t?.dispose();
  t = null;
});

/** n trades of one item each: half sales, half filled buy orders, of totals 100..999. */
function answer(n: number): PendingTrade[] {
  return Array.from({ length: n }, (_, i) => (i % 2 === 0
    ? { ...marketTrade(String(10_000 + i), 'Action Required'), total: 100 + (i % 900) }
    : { ...buyOrderTrade(String(10_000 + i), 'Waiting for seller'), buyer_id: MAIN, supplier_id: '76561198000000009', total: 100 + (i % 900) }));
}

interface Steps { listed: number; gone: number; reading: number; mostRowsInAStep: number; completed: number }

/** Records a load of n trades, a load with all of them gone, and a reading moved by what they all paid. */
async function record(n: number): Promise<Steps> {
  t?.dispose();
  t = tempStore({ clock: { now: () => T0 } as Clock });
  const { db } = t.store;
  const changes = () => Number((db.prepare('SELECT total_changes() AS n').get() as { n: number }).n);
  let turns = 0;
  let mark = changes();
  let most = 0;
  const turn = async () => {
    turns += 1;
    most = Math.max(most, changes() - mark);
    await new Promise((resolve) => setImmediate(resolve));
    mark = changes();
  };
  const h = createTradeHistory({ store: t.store, repos: t.repos, ownIds: () => [MAIN], turn });
  const trades = answer(n);
  const paid = trades.reduce((sum, x) => sum + (x.trade_type === 'market' ? x.total : -x.total), 0);
  await h.noteBalance({ balance: 1_000_000, pending_balance: 0, readAt: T0 });
  const counted = async (step: () => Promise<unknown>) => {
    const before = turns;
    mark = changes();
    await step();
    most = Math.max(most, changes() - mark);
    return turns - before;
  };
  const listed = await counted(() => h.notePending(trades, T0 + MIN));
  const gone = await counted(() => h.noteGone(trades.map((x) => ({ tradeType: x.trade_type, tradeId: x.trade_id })), T0 + 2 * MIN));
  const reading = await counted(() => h.noteBalance({ balance: 1_000_000 + paid, pending_balance: 0, readAt: T0 + 5 * MIN }));
  const completed = Number((db.prepare("SELECT count(*) AS n FROM trade_history WHERE ending = 'balance_moved'").get() as { n: number }).n);
  return { listed, gone, reading, mostRowsInAStep: most, completed };
}

describe('recording a load of thousands of trades', () => {
  it('writes one part per step, a trade and its item at most RECORD_PART times per step', async () => {
    const n = 4 * RECORD_PART;
    const steps = await record(n);
    expect(steps.completed).toBe(n);
    expect(steps.listed).toBe(4);
    // A trade is a row and its item another; ending a part also notes what is left to explain.
    expect(steps.mostRowsInAStep).toBeLessThanOrEqual(2 * RECORD_PART + 1);
  });

  it('takes steps in proportion to the trades: twice the trades, twice the steps', async () => {
    const small = await record(4 * RECORD_PART);
    const large = await record(8 * RECORD_PART);
    expect(large.completed).toBe(8 * RECORD_PART);
    expect(large.mostRowsInAStep).toBeLessThanOrEqual(2 * RECORD_PART + 1);
    for (const phase of ['listed', 'gone', 'reading'] as const) {
      expect(small[phase], phase).toBeGreaterThan(1);
      expect(large[phase], phase).toBeGreaterThanOrEqual(2 * small[phase] - 2);
      expect(large[phase], phase).toBeLessThanOrEqual(2 * small[phase] + 2);
    }
  });
});
