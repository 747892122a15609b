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

  it('search the trades by their items as every table does: words in any order, the quality a name does not print, short forms', async () => {
    const all = await call(live.router, 'history:page', { range: range(), show: 'all', offset: 0, limit: 500 });
    type Item = (typeof all.rows)[number]['items'][number];
    /** The search finds exactly the trades of the range with an item `holds` says it means. */
    const findsExactly = async (text: string, holds: (i: Item) => boolean) => {
      const page = await call(live.router, 'history:page', { range: range(), show: 'all', text, offset: 0, limit: 500 });
      expect(page.rows.map((r) => r.key), text).toEqual(all.rows.filter((r) => r.items.some(holds)).map((r) => r.key));
      expect(page.total, text).toBeGreaterThan(0);
      return page.total;
    };
    const quality = (i: Item) => Number(i.sku.split(';')[1]);
    const unusual = await findsExactly('unusual', (i) => quality(i) === 5);
    await findsExactly('team captain burning flames', (i) => i.name === 'Burning Flames Team Captain');
    await findsExactly('CAPTAIN TEAM', (i) => i.name.endsWith('Team Captain'));
    await findsExactly('spec ks', (i) => i.name.includes('Specialized Killstreak'));
    await findsExactly('mann co supply crate key', (i) => i.name.includes('Mann Co. Supply Crate Key'));
    const one = all.rows[0]?.tradeId ?? '';
    expect((await call(live.router, 'history:page', { range: range(), show: 'all', text: one })).rows.map((r) => r.tradeId)).toContain(one);
    const csv = await call(live.router, 'history:exportCsv', { range: range(), show: 'all', text: 'unusual' });
    expect(csv.rows).toBe(unusual);
  }, 30_000);

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

  it('read a typed name in any order and case, say which name a mistyped one is near, and offer what else the item comes as', async () => {
    const reversed = await call(live.router, 'items:search', { text: 'team captain burning flames' });
    expect(reversed.resolved).toMatchObject({ ok: true, sku: '378;5;u13' });
    expect(reversed.nearMiss).toBeNull();
    const typo = await call(live.router, 'items:search', { text: 'Mann Co Suply Crate Key' });
    expect(typo.resolved).toMatchObject({ ok: false, reason: 'no_such_item' });
    expect(typo.nearMiss).toEqual({ name: 'Mann Co. Supply Crate Key', sku: '5021;6' });
    const variants = await call(live.router, 'items:variants', { sku: '378;6' });
    expect(variants.name).toBe('Team Captain');
    expect(variants.groups?.find((g) => g.part === 'quality')?.options).toContainEqual({ label: 'Unusual', sku: '378;5', chosen: false });
    expect((await call(live.router, 'items:variants', { sku: '999999;6' })).groups).toBeNull();
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
