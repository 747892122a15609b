import { afterEach, describe, expect, it } from 'vitest';
import { createLedgerSales } from '../../../src-main/core/trades/ledger-sales.ts';
import { LINKED, MAIN, tempStore, type TempStore } from '../store/temp-store.ts';
import { marketTrade, buyOrderTrade } from './fixtures.ts';

let t: TempStore;
afterEach(() => t.dispose());

const listing = (asset: string, extra: Record<string, unknown> = {}) => ({
  asset_id: asset, listing_id: `L${asset}`, sku: '378;6', price: 450, promoted: 0 as const, game: '440', account: MAIN, ...extra,
});
const sale = (tradeId: string, items: { sku: string; price: number; quantity: number }[], supplier = MAIN) => ({
  ...marketTrade(tradeId, 'Action Required'),
  supplier_id: supplier,
  items: items.map((i) => ({ name: 'x', quality: 'Unique', image_url: '', particle_url: '', ...i })),
});

function setup() {
  t = tempStore();
  t.repos.listings.upsertMany([listing('1'), listing('2'), listing('3', { price: 500 }), listing('4', { account: LINKED })]);
  return createLedgerSales({ store: t.store, repos: t.repos, ownIds: () => [MAIN, LINKED] });
}
const states = () => Object.fromEntries(t.repos.listings.all().map((l) => [l.asset_id, [l.state, l.trade_id]]));

describe('ledger learns of sales from the trades', () => {
  it('marks the oldest active listing of the seller, SKU and price "sold in trade", once however often it is seen', () => {
    const sales = setup();
    expect(sales.notePending([sale('900', [{ sku: '378;6', price: 450, quantity: 1 }])])).toEqual(['1']);
    expect(sales.notePending([sale('900', [{ sku: '378;6', price: 450, quantity: 1 }])])).toEqual([]);
    expect(states()).toMatchObject({ 1: ['sold_in_trade', '900'], 2: ['active', null], 3: ['active', null], 4: ['active', null] });
    expect(t.repos.listings.get('1')?.state_reason).toBe('sold in trade 900');
  });

  it('takes as many listings as the trade sold, on the seller\'s account only', () => {
    const sales = setup();
    sales.notePending([
      sale('901', [{ sku: '378;6', price: 450, quantity: 2 }]),
      sale('902', [{ sku: '378;6', price: 450, quantity: 1 }], LINKED),
      // Bought by us, a price nothing is listed at, and a buy order trade: none of these sold a listing of ours.
      sale('903', [{ sku: '378;6', price: 450, quantity: 1 }], '76561198999999999'),
      sale('904', [{ sku: '378;6', price: 451, quantity: 1 }]),
      { ...buyOrderTrade('905', 'Action required'), supplier_id: MAIN },
    ]);
    expect(states()).toMatchObject({ 1: ['sold_in_trade', '901'], 2: ['sold_in_trade', '901'], 3: ['active', null], 4: ['sold_in_trade', '902'] });
  });

  it('marks them sold once the trade leaves the pending list, and says so in the activity log', () => {
    const sales = setup();
    sales.notePending([sale('906', [{ sku: '378;6', price: 500, quantity: 1 }])]);
    expect(sales.noteGone([{ key: 'market:906', tradeType: 'market', tradeId: '906', lastStatus: 'Action Required' }])).toEqual(['3']);
    expect(t.repos.listings.get('3')).toMatchObject({ state: 'sold', trade_id: '906' });
    expect(t.repos.activity.list().map((a) => [a.endpoint, a.targets, a.note?.split(';')[0]])).toEqual([
      ['load_pending', ['L:3'], 'sold: trade 906 has left the pending list'],
      ['load_pending', ['L:3'], 'sold in trade 906'],
    ]);
  });

  it('prefers a listing a refused edit already showed sold over an active twin', () => {
    const sales = setup();
    t.repos.listings.markEnded(['2'], 'sold', { reason: 'items.0.listing_id: listing L2 is sold' });
    sales.notePending([sale('907', [{ sku: '378;6', price: 450, quantity: 1 }])]);
    expect(states()).toMatchObject({ 1: ['active', null], 2: ['sold_in_trade', '907'] });
  });

  it('prefers a listing a refused edit showed unknown to the service over an active twin: the sale names its trade', () => {
    const sales = setup();
    t.repos.listings.markEnded(['2'], 'not_on_service', { reason: 'items.0.listing_id: unknown listing L2' });
    sales.notePending([sale('908', [{ sku: '378;6', price: 450, quantity: 1 }])]);
    expect(states()).toMatchObject({ 1: ['active', null], 2: ['sold_in_trade', '908'] });
    expect(t.repos.listings.get('2')?.state_reason).toBe('sold in trade 908');
  });
});
