import { afterEach, describe, expect, it } from 'vitest';
import { createRepriceRepo, LEDGER_SKUS } from '../../../src-main/core/store/reprice-repo.ts';
import { MAIN, tempStore, type TempStore } from './temp-store.ts';

let t: TempStore;
afterEach(() => t.dispose());

const listing = (asset: string, sku: string) => ({ asset_id: asset, listing_id: `L${asset}`, sku, price: 100, promoted: 0 as const, game: '440', user_note: '', account: MAIN });

describe('reprice repo: the SKUs the price sources are asked about', () => {
  it('are those of standing listings and of buy orders, each once: not of ended listings, nor an empty SKU', () => {
    t = tempStore({ seedAccounts: true });
    t.repos.listings.upsertMany([
      listing('1', '5021;6'), listing('2', '5021;6'), listing('3', '30;6'), listing('4', '31;6'),
      listing('5', '32;6'), listing('6', '32;6'), listing('7', ''),
    ]);
    const setState = t.store.db.prepare('UPDATE listings SET state = ? WHERE asset_id = ?');
    setState.run('inactive', '3');
    setState.run('sold', '4');
    // One of a SKU's listings ended, another still standing: the SKU is asked about.
    setState.run('sold_in_trade', '5');
    t.repos.buyOrders.upsert({ sku: '40;6', account: MAIN, price: 50, quantity: 1 });
    t.repos.buyOrders.upsert({ sku: '5021;6', account: MAIN, price: 50, quantity: 1 });
    expect(createRepriceRepo(t.store).ledgerSkus().sort()).toEqual(['30;6', '32;6', '40;6', '5021;6']);
  });

  it('are read from the SKU index, with no listing row read for each listing', () => {
    t = tempStore();
    const plan = t.store.db.prepare(`EXPLAIN QUERY PLAN ${LEDGER_SKUS}`).all().map((row) => String(row.detail));
    // A scan of the listings that is not covered by its index reads each listing's row for its state.
    expect(plan.filter((step) => /^SCAN listings\b/.test(step) && !step.includes('COVERING INDEX'))).toEqual([]);
  });
});
