import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src-main/core/clock.ts';
import { createTradeHistory, type TradeHistory } from '../../../src-main/core/history/trade-history.ts';
import { historySummary } from '../../../src-shared/history.ts';
import { startSandbox, type Sandbox } from '../../../src-main/sandbox/index.ts';
import { tempStore, type TempStore } from '../store/temp-store.ts';

/**
 * A sandbox profile's History after the simulated fortnight before its
 * start: the figures the desk computes from what it recorded (the same
 * recorder the live watcher feeds) agree with the simulator's own record of
 * every trade and every balance reading.
 */

const START = Date.UTC(2026, 2, 16, 9, 30);
const DAY = 86_400_000;
let t: TempStore | null = null;
let sandbox: Sandbox | null = null;
afterEach(async () => {
  t?.dispose();
  t = null;
  await sandbox?.close();
  sandbox = null;
});

async function filled(seed: number): Promise<{ history: TradeHistory; sandbox: Sandbox }> {
  const clock = { now: () => START } as Clock;
  sandbox = await startSandbox({ clock, seed, tradeSchedule: false, pastDays: 14 });
  t = tempStore({ clock, seedAccounts: false });
  const history = createTradeHistory({ store: t.store, repos: t.repos, ownIds: () => [] });
  const past = sandbox.past();
  if (past === null) throw new Error('the sandbox has no past');
  const began = performance.now();
  expect(history.fillPast(past.events, past.ownIds)).toBeGreaterThan(1_000);
  console.log(`filled the past in ${Math.round(performance.now() - began)} ms (drawing it included)`);
  return { history, sandbox };
}

const dayOf = (ms: number) => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

describe('the sandbox past in History', () => {
  it('gives the totals per day the simulator recorded, every reading, and each trade the ending it had', async () => {
    const { history, sandbox: sim } = await filled(12);
    const record = sim.admin.pastRecord();
    if (record === null) throw new Error('no record');
    const range = { from: START - 15 * DAY, to: START + DAY, account: null };
    const summary = history.summary(range);

    // The simulator's truth, per day the desk saw each completed trade leave the lists.
    const expected = new Map<string, { sales: { count: number; amount: number }; purchases: { count: number; amount: number } }>();
    for (const tr of record.trades.filter((x) => x.completed)) {
      const day = dayOf(tr.seenGoneAt);
      const slot = expected.get(day) ?? { sales: { count: 0, amount: 0 }, purchases: { count: 0, amount: 0 } };
      const side = tr.side === 'sale' ? slot.sales : slot.purchases;
      side.count += 1;
      side.amount += tr.total;
      expected.set(day, slot);
    }
    const shown = summary.days.filter((d) => d.sales.count + d.purchases.count > 0);
    expect(shown.map((d) => d.key)).toEqual([...expected.keys()].sort());
    for (const d of shown) expect({ sales: d.sales, purchases: d.purchases }, d.key).toEqual(expected.get(d.key));
    console.log(`a simulated fortnight: ${record.trades.length} trades (${record.trades.filter((x) => x.completed).length} completed) on ${shown.length} days, ` +
      `sales ${summary.sales.count} for ${summary.sales.amount} ¢, purchases ${summary.purchases.count} for ${summary.purchases.amount} ¢, ${summary.vanished} vanished`);

    // Believable: trades every day, sales and filled buy orders both, a few declined.
    expect(shown.length).toBeGreaterThanOrEqual(14);
    expect(summary.sales.count).toBeGreaterThan(50);
    expect(summary.purchases.count).toBeGreaterThan(30);
    expect(summary.vanished).toBe(record.trades.filter((x) => !x.completed).length);
    expect(summary.pending).toBe(0);

    // Weeks add up to the days.
    const sum = (list: typeof summary.days) => list.reduce((a, p) => a + p.sales.amount - p.purchases.amount, 0);
    expect(sum(summary.weeks)).toBe(sum(summary.days));

    // Every reading kept; the chart's points are readings the simulator made, with its balance.
    const kept = Number((t?.store.db.prepare('SELECT count(*) AS n FROM balance_readings').get() as { n: number }).n);
    expect(kept).toBe(record.readings.length);
    const truth = new Map(record.readings.map((r) => [r.at, r.balance]));
    expect(summary.balance.length).toBeGreaterThan(100);
    expect(historySummary.parse({ stamp: 1, ...summary })).toBeTruthy();
    for (const p of summary.balance) expect(p.balance, `reading at ${p.at}`).toBe(truth.get(p.at));
    expect(record.readings.every((r) => r.balance >= 0)).toBe(true);

    // The last reading of the past is the balance the simulator starts with.
    expect(record.readings.at(-1)?.balance).toBe(sim.admin.balance().balance);

    // Listing to sale is known for the sales the desk listed.
    expect(summary.listingToSale.sales).toBe(summary.sales.count);
    expect(summary.listingToSale.known).toBeLessThanOrEqual(summary.sales.count);
    expect(summary.listingToSale.known).toBeGreaterThan(20);
    expect(summary.listingToSale.medianMs).toBeGreaterThan(0);
  });

  it('is filled once: a history with anything in it is left alone', async () => {
    const { history, sandbox: sim } = await filled(13);
    const again = sim.past();
    expect(again && history.fillPast(again.events, again.ownIds)).toBe(0);
  });

  it('is the same past for the same seed and start, and the live schedule is untouched by it', async () => {
    const a = await startSandbox({ clock: { now: () => START } as Clock, seed: 5, pastDays: 14 });
    const b = await startSandbox({ clock: { now: () => START } as Clock, seed: 5, pastDays: 0 });
    try {
      expect(a.admin.pastRecord()).toEqual((await startSandbox({ clock: { now: () => START } as Clock, seed: 5 }).then(async (c) => {
        const r = c.admin.pastRecord();
        await c.close();
        return r;
      })));
      expect(b.admin.pastRecord()).toBeNull();
      expect(a.admin.trades()).toEqual(b.admin.trades());
      expect(a.admin.balance()).toEqual(b.admin.balance());
    } finally {
      await a.close();
      await b.close();
    }
  });
});
