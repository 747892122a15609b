import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_MAX_RANGE_MS } from '../../src-shared/history.ts';
import { seedHistoryYear } from '../support/history-year.ts';
import { call, startLiveDesk, type LiveDesk } from './live-desk.ts';

/**
 * The History, item name and ledger export channels over the app's router:
 * answers that fit the contract (checked on the way out), bounded, and
 * refusals that say what and where.
 */

let live: LiveDesk;
beforeAll(async () => {
  live = await startLiveDesk(41);
  seedHistoryYear(live.desk.workspace().history.repo, { end: Date.now(), trades: 2_000, account: live.service.accounts.main, linked: live.service.accounts.linked[0] ?? '1' });
}, 30_000);
afterAll(() => live.close());

/** The last 21 days, midnight to midnight, as the screen asks. */
const range = () => {
  const today = new Date();
  return { from: new Date(today.getFullYear(), today.getMonth(), today.getDate() - 20).getTime(), to: new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1).getTime() };
};

describe('history and export channels', () => {
  it('answer the figures and a page of the trades behind them, stamped', async () => {
    const summary = await call(live.router, 'history:summary', range());
    expect(summary.sales.count).toBeGreaterThan(0);
    expect(summary.days).toHaveLength(21);
    const page = await call(live.router, 'history:page', { range: range(), offset: 0, limit: 5 });
    expect(page.rows).toHaveLength(5);
    expect(page.total).toBe(summary.sales.count + summary.purchases.count);
    expect(page.rows[0]?.at).toBeGreaterThanOrEqual(page.rows[4]?.at ?? Infinity);
    expect(page.stamp).toBe(summary.stamp);
    const csv = await call(live.router, 'history:exportCsv', { range: range() });
    expect(csv.rows).toBe(page.total);
  });

  it('refuse a range that ends before it starts, or covers more than two years, saying where', async () => {
    const backwards = await live.router.invoke('history:summary', { from: 2_000, to: 1_000 });
    expect(backwards).toMatchObject({ ok: false, error: { kind: 'invalid', message: expect.stringContaining('ends before it starts') } });
    const long = await live.router.invoke('history:page', { range: { from: 0, to: HISTORY_MAX_RANGE_MS + 1 } });
    expect(long).toMatchObject({ ok: false, error: { kind: 'invalid', message: expect.stringContaining('two years') } });
  });

  it('resolve a typed name to its SKU with a bounded list of names, and ask which for a shared one', async () => {
    const key = await call(live.router, 'items:search', { text: 'Mann Co. Supply Crate Key' });
    expect(key.resolved).toMatchObject({ ok: true, sku: '5021;6', item: { name: 'Mann Co. Supply Crate Key' } });
    const crate = await call(live.router, 'items:search', { text: 'Mann Co. Supply Crate', limit: 20 });
    expect(crate.resolved).toMatchObject({ ok: false, reason: 'ambiguous' });
    expect(crate.resolved.ok ? [] : crate.resolved.candidates.map((c) => c.sku)).toEqual(expect.arrayContaining(['5022;6']));
    expect(crate.matches.length).toBeLessThanOrEqual(20);
    const refused = await live.router.invoke('items:search', { text: 'x'.repeat(201) });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'invalid' } });
  }, 30_000);

  it('export the ledger matching a filter, or all of it', async () => {
    const ws = live.desk.workspace();
    ws.repos.buyOrders.upsertMany([
      { sku: '5021;6', account: live.service.accounts.main, price: 6_000, quantity: 2, active: 1, user_note: '' },
      { sku: '378;6', account: live.service.accounts.main, price: 1_200, quantity: 1, active: 0, user_note: '' },
    ]);
    expect((await call(live.router, 'ledger:exportCsv', { domain: 'buyOrders', filter: null })).rows).toBe(2);
    const paused = await call(live.router, 'ledger:exportCsv', { domain: 'buyOrders', filter: { active: 0 } });
    expect(paused.rows).toBe(1);
    expect(paused.csv).toContain('378;6,Team Captain');
  });
});
