import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import { createLedgerChecker } from '../../../src-main/core/trades/ledger-check.ts';
import { MAIN, tempStore, type TempStore } from '../store/temp-store.ts';

let t: TempStore;
afterEach(() => t.dispose());

const listing = (asset: string, extra: Record<string, unknown> = {}) => ({
  asset_id: asset, listing_id: `L${asset}`, sku: '378;6', price: 450, promoted: 0 as const, game: '440', account: MAIN, ...extra,
});

function setup(balance: () => Promise<unknown>) {
  t = tempStore();
  const { listings } = t.repos;
  listings.upsertMany([listing('1'), listing('2'), listing('3'), listing('4'), listing('5', { listing_id: null })]);
  listings.markEnded(['2'], 'sold_in_trade', { reason: 'sold in trade 900', tradeId: '900' });
  listings.markEnded(['3'], 'not_on_service', { reason: 'items.0.listing_id: no listing L3' });
  listings.markEnded(['4'], 'sold', { reason: 'sold in trade 800, which has left the pending list', tradeId: '800' });
  const asked: string[] = [];
  const checker = createLedgerChecker({
    store: t.store,
    repos: t.repos,
    clock: { now: () => 1_000, monotonic: () => 1_000, sleep: () => Promise.resolve() },
    trades: {
      checkNow: async () => void asked.push('trades'),
      refreshBalance: async () => (asked.push('balance'), balance()) as never,
    },
  });
  return { checker, asked };
}

describe('check ledger', () => {
  it('re-reads trades and balance, and lists the rows in doubt with why', async () => {
    const { checker, asked } = setup(() => Promise.reject(new ApiError('network', 'get_balance: no answer within 30 s; still trying')));
    const result = await checker.check();
    expect(asked.sort()).toEqual(['balance', 'trades']);
    expect(result).toMatchObject({ checkedAt: 1_000, trades: { ok: true }, balance: { ok: false, error: { kind: 'network' } } });
    expect(result.rows.map((r) => [r.key, r.state, r.tradeId])).toEqual([
      ['2', 'sold_in_trade', '900'],
      ['3', 'not_on_service', undefined],
      ['5', 'active', undefined],
    ]);
    expect(result.rows[1]?.reason).toMatch(/not on the service: items\.0\.listing_id: no listing L3; clear it/);
    expect(result.rows[2]?.reason).toMatch(/listing ID is unknown/);
  });

  it('clears ended rows the trader no longer wants, never a standing one', () => {
    const { checker } = setup(() => Promise.resolve());
    expect(checker.clear(['1', '2', '3', '4', 'nope'])).toBe(2);
    expect(t.repos.listings.all().map((l) => l.asset_id)).toEqual(['1', '2', '5']);
  });
});
