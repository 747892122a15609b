import { describe, expect, it } from 'vitest';
import { liveDeskFixture } from '../../support/live-desk.ts';
import { deskStackFixture, MIN } from './desk-stack.ts';

const start = deskStackFixture();
/**
 * The answer's bound (35 s) is 5 s above the request's own deadline (30 s):
 * at ×20 that margin is 250 ms of real time, enough for a loaded test machine
 * (at ×300 it was 17 ms, and a busy machine crossed it).
 */
const SCALE = 20;

describe('fault suite: a server that accepts and never answers', () => {
  it('answers "beat now" with a clear error within 35 s and shows it as the last error', async () => {
    const { sandbox, ws, until, clock } = await start({ scale: SCALE });
    await until(() => ws.heartbeat.state.lastBeatAt, 'the first beat');
    // Far enough from the last beat that its rate slot is free again.
    await until(() => clock.now() - (ws.heartbeat.state.lastBeatAt ?? 0) > 2 * MIN || null, 'two minutes');
    sandbox.faults.set({ silent: { endpoints: ['set_user_agent'] } });
    const t0 = clock.now();
    await ws.heartbeat.beatNow();
    expect(clock.now() - t0).toBeLessThan(35_000);
    expect(ws.heartbeat.state.lastError).toMatchObject({ kind: 'network', message: expect.stringMatching(/no answer/) });
    expect(ws.heartbeat.state.status).toBe('expiring');
  });

  it('answers a balance refresh with a clear error within 35 s', async () => {
    const { sandbox, ws, until, clock } = await start({ scale: SCALE });
    await until(() => ws.trades.balance(), 'the first balance');
    await until(() => clock.now() - (ws.trades.balance()?.readAt ?? 0) > 2 * MIN || null, 'two minutes');
    sandbox.faults.set({ silent: { endpoints: ['get_balance'] } });
    const t0 = clock.now();
    await expect(ws.trades.refreshBalance()).rejects.toMatchObject({ kind: 'network', message: expect.stringMatching(/no answer/) });
    expect(clock.now() - t0).toBeLessThan(35_000);
    expect(ws.trades.balanceState().lastError).toMatchObject({ kind: 'network' });
  });
});

describe('fault suite: key saves in a row', () => {
  const startDesk = liveDeskFixture();

  it('ten saves of a new key cause one refresh of each kind, the same key saved again none, and a balance read still answers at once', async () => {
    const { clock, sandbox, desk } = await startDesk(300);
    const ws = desk.workspace();
    const until = async (read: () => unknown, what: string) => {
      const end = clock.now() + 5 * MIN;
      while (!read()) {
        if (clock.now() > end) throw new Error(`still waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    await until(() => ws.trades.balance() && ws.accounts.snapshot().main && ws.heartbeat.state.lastBeatAt, 'the start-up reads');
    await until(() => clock.now() - (ws.trades.balance()?.readAt ?? 0) > MIN, 'a minute');
    const before = (endpoint: string) => sandbox.log.requests.filter((r) => r.endpoint === endpoint).length;
    const counts = { get_balance: before('get_balance'), get_linked_trade_urls: before('get_linked_trade_urls') };

    // The key the desk already holds, saved again: nothing new to check, nothing sent.
    for (let i = 0; i < 10; i++) await desk.keys.set(sandbox.apiKey);
    await new Promise((r) => setTimeout(r, 200));
    expect(before('get_balance') - counts.get_balance).toBe(0);
    expect(before('get_linked_trade_urls') - counts.get_linked_trade_urls).toBe(0);

    // A new key (here: the same one after a removal), saved ten times in a row: one refresh of each kind.
    await desk.keys.remove();
    for (let i = 0; i < 10; i++) await desk.keys.set(sandbox.apiKey);
    const t0 = clock.now();
    const balance = await ws.trades.refreshBalance();
    expect(balance.readAt - t0).toBeLessThan(35_000);
    await new Promise((r) => setTimeout(r, 200));

    expect(before('get_balance') - counts.get_balance).toBe(1);
    expect(before('get_linked_trade_urls') - counts.get_linked_trade_urls).toBe(1);
  });
});
