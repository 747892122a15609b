import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src-main/sandbox/index.ts';
import { call, manualClock, type ManualClock } from './helpers.ts';

/** The trade lists' knobs: answers a service may give that no trader made. */

const MIN = 60_000;
const opened: Sandbox[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

async function sandbox(options: { tradeMoney?: boolean } = {}): Promise<{ s: Sandbox; clock: ManualClock }> {
  const clock = manualClock();
  const s = await startSandbox({ clock, seed: 9, pastDays: 0, tradeSchedule: false, ...options });
  opened.push(s);
  return { s, clock };
}

type Trade = { trade_id: string; total: number; timestamp: number; status: string; items: { price: number; quantity: number }[] };
async function list(s: Sandbox, clock: ManualClock, endpoint: 'load_pending' | 'load_pending_buy_orders' = 'load_pending'): Promise<Trade[]> {
  clock.advance(MIN);
  const reply = await call(s, endpoint);
  expect(reply.status).toBe(200);
  return reply.body as Trade[];
}

describe('trade list knobs', () => {
  it('relistCompleted: a trade that went through is listed again as it was while pending', async () => {
    const { s, clock } = await sandbox({ tradeMoney: true });
    s.admin.seedListings(1);
    s.faults.set({ listingSales: { meanGapMs: MIN, limit: 1, tradeMs: 2 * MIN } });
    const seen = await list(s, clock);
    expect(seen).toHaveLength(1);
    const sale = seen[0] as Trade;
    clock.advance(5 * MIN);
    expect(await list(s, clock)).toEqual([]);
    expect(s.admin.settledTrades().map((t) => t.tradeId)).toEqual([sale.trade_id]);
    s.faults.set({ relistCompleted: { count: 1 } });
    expect(await list(s, clock)).toEqual([sale]);
    expect(s.log.requests.at(-1)?.faults).toEqual(['relistCompleted']);
    expect(await list(s, clock)).toEqual([]);
    // Further back than `withinMs`: not listed again.
    s.faults.set({ relistCompleted: { withinMs: MIN } });
    expect(await list(s, clock)).toEqual([]);
  });

  it('hostileTradeNumber: a total, timestamp, price or quantity answered as 2^53 − 1, for the trades named', async () => {
    const { s, clock } = await sandbox();
    const a = s.admin.addTrade({ trade_type: 'market', trade_id: '1' });
    s.admin.addTrade({ trade_type: 'market', trade_id: '2' });
    s.faults.set({ hostileTradeNumber: { tradeIds: ['1'] } });
    const [first, second] = await list(s, clock);
    expect(first).toMatchObject({ trade_id: '1', total: Number.MAX_SAFE_INTEGER, timestamp: a.timestamp });
    expect(second?.total).not.toBe(Number.MAX_SAFE_INTEGER);
    s.faults.set({ hostileTradeNumber: { field: 'timestamp' } });
    expect((await list(s, clock)).map((t) => t.timestamp)).toEqual([Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]);
    s.faults.set({ hostileTradeNumber: { field: 'quantity', value: 0, count: 1 } });
    expect((await list(s, clock)).map((t) => t.items[0]?.quantity)).toEqual([0, 0]);
    expect((await list(s, clock)).map((t) => t.items[0]?.quantity)).not.toContain(0);
    // The other list, and other endpoints, are untouched unless named.
    s.faults.set({ hostileTradeNumber: { endpoints: ['load_pending_buy_orders'] } });
    expect((await list(s, clock)).map((t) => t.total)).not.toContain(Number.MAX_SAFE_INTEGER);
  });

  it('negativeTradeTotal: a trade answered with its total below zero', async () => {
    const { s, clock } = await sandbox();
    const a = s.admin.addTrade({ trade_type: 'market', trade_id: '1', total: 700 });
    s.faults.set({ negativeTradeTotal: true });
    expect((await list(s, clock)).map((t) => t.total)).toEqual([-a.total]);
    s.faults.set({ negativeTradeTotal: { cents: 5 } });
    expect((await list(s, clock)).map((t) => t.total)).toEqual([-5]);
  });

  it('tradeFlood: N more trades in one answer, the same ones while the knob holds, gone when it is turned off', async () => {
    const { s, clock } = await sandbox();
    s.faults.set({ tradeFlood: { count: 2_000, endpoints: ['load_pending'] } });
    const flood = await list(s, clock);
    expect(flood).toHaveLength(2_000);
    expect(new Set(flood.map((t) => t.trade_id)).size).toBe(2_000);
    expect(await list(s, clock)).toEqual(flood);
    expect(await list(s, clock, 'load_pending_buy_orders')).toEqual([]);
    s.faults.set({ tradeFlood: false });
    expect(await list(s, clock)).toEqual([]);
  });
});
