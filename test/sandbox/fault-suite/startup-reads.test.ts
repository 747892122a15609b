import { describe, expect, it } from 'vitest';
import { deskStackFixture, MIN } from './desk-stack.ts';

const start = deskStackFixture();

describe('fault suite: a malformed first read at start', () => {
  it('retries the accounts read with backoff and knows the accounts within 2 minutes, showing the retry meanwhile', async () => {
    // A minute lasts a second: at ×300 a request held up a quarter of a second on a busy machine took over a minute
    // of the two, and the test failed on the machine's load, not on the desk's backoff.
    const { sandbox, ws, until, clock } = await start({
      scale: 60,
      faults: { malformed: { endpoints: ['get_linked_trade_urls'], count: 1, kind: 'missing_field' } },
      start: false,
    });
    // Every step the screen is told of, from before the desk starts: a retry a few milliseconds long is not missed
    // on a busy machine, as a timer sampling the state can miss it.
    const phases = new Set<string>();
    const off = ws.accounts.on('changed', (snapshot) => phases.add(snapshot.read.phase));
    const t0 = clock.now();
    ws.start();
    const main = await until(() => ws.accounts.snapshot().main, 'the main account', 2 * MIN).finally(off);
    expect(main.account_id).toBe(sandbox.accounts.main);
    expect(clock.now() - t0).toBeLessThan(2 * MIN);
    expect(ws.accounts.snapshot().linked.map((a) => a.account_id).sort()).toEqual([...sandbox.accounts.linked].sort());
    // While it waited, the trader saw why and when the next try comes.
    expect(phases).toContain('retrying');
    expect(ws.accounts.readState()).toMatchObject({ phase: 'done', lastError: null, nextAttemptAt: null });
    // The linked accounts join the heartbeat once known: at its next beat here (the desk also beats at once).
    await until(() => ws.heartbeat.state.accounts.length === 3, 'linked accounts in the heartbeat', 6 * MIN);
  });

  it('retries the first balance read with backoff instead of waiting for the next 5-minute poll', async () => {
    // Six failures: more than the scheduler's own retries used to absorb before the loop slept 5 minutes.
    const { ws, until, clock } = await start({ scale: 60, faults: { serverError: { endpoints: ['get_balance'], count: 6 } }, start: false });
    const phases = new Set<string>();
    const off = ws.trades.on('balanceState', (state) => phases.add(state.phase));
    const t0 = clock.now();
    ws.start();
    await until(() => ws.trades.balance(), 'the balance', 6 * MIN).finally(off);
    expect(clock.now() - t0).toBeLessThan(6 * MIN);
    expect(phases).toContain('retrying');
    expect(ws.trades.balanceState()).toMatchObject({ phase: 'done', lastError: null });
  });
});
