import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../src-main/core/clock.ts';
import { startSandbox, type Sandbox } from '../../src-main/sandbox/index.ts';

/** With `tradeMoney`, scheduled trades that go through move the balance; declined ones and a quiet world do not. */

const opened: Sandbox[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

function clockAt(start: number): Clock & { set(ms: number): void } {
  let now = start;
  return { now: () => now, monotonic: () => now, sleep: () => Promise.resolve(), set: (ms) => void (now = ms) };
}

async function sandbox(tradeMoney: boolean) {
  const clock = clockAt(Date.UTC(2026, 2, 16, 9));
  const s = await startSandbox({ clock, seed: 21, pastDays: 0, tradeMoney });
  opened.push(s);
  return { s, clock };
}

describe('trade money', () => {
  it('moves the balance by what each trade that went through paid, and only by that', async () => {
    const { s, clock } = await sandbox(true);
    const start = s.admin.balance().balance;
    const seenIds = new Set<string>();
    for (let minute = 1; minute <= 6 * 60; minute++) {
      clock.set(Date.UTC(2026, 2, 16, 9) + minute * 60_000);
      for (const t of s.admin.trades()) seenIds.add(t.trade_id);
    }
    const settled = s.admin.settledTrades();
    expect(settled.length).toBeGreaterThan(50);
    expect(s.admin.balance().balance).toBe(start + settled.reduce((a, t) => a + t.amount, 0));
    expect(settled.some((t) => t.amount > 0) && settled.some((t) => t.amount < 0)).toBe(true);
    // Some trades left without going through (declined or expired).
    const gone = [...seenIds].filter((id) => !s.admin.trades().some((t) => t.trade_id === id));
    expect(gone.length).toBeGreaterThan(settled.length);
    // Settled at the moment each left the lists, never twice.
    expect(new Set(settled.map((t) => t.tradeId)).size).toBe(settled.length);
  });

  it('leaves the balance alone without it', async () => {
    const { s, clock } = await sandbox(false);
    const start = s.admin.balance();
    clock.set(Date.UTC(2026, 2, 16, 15));
    expect(s.admin.trades().length).toBeGreaterThan(0);
    expect(s.admin.balance()).toEqual(start);
    expect(s.admin.settledTrades()).toEqual([]);
  });
});
