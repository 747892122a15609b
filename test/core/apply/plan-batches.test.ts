import { describe, expect, it } from 'vitest';
import { phaseOf, planBatches, readAhead, repoLookup, type PlanEntry } from '../../../src-main/core/apply/plan-batches.ts';
import { targetOf, type Change } from '../../../src-main/core/drafts/change.ts';
import { tempStore } from '../store/temp-store.ts';

const MAIN = '76561198000000001';
const LINKED_A = '200';
const LINKED_B = '300';

const entry = (change: Change): PlanEntry => ({ target: targetOf(change), change });
const create = (asset: number, account = MAIN): PlanEntry =>
  entry({ kind: 'listing.create', account, asset_id: String(asset), price: 100, promoted: 0, game: '440' });

describe('planBatches', () => {
  it('groups by endpoint and by proxy, at most 100 items per batch, in draft order', () => {
    const entries: PlanEntry[] = [
      ...Array.from({ length: 250 }, (_, i) => create(1000 + i)),
      ...Array.from({ length: 120 }, (_, i) => create(5000 + i, LINKED_A)),
      ...Array.from({ length: 3 }, (_, i) => create(7000 + i, LINKED_B)),
      ...Array.from({ length: 101 }, (_, i) => entry({ kind: 'listing.edit', account: LINKED_A, asset_id: String(9000 + i), listing_id: `L${i}`, price: 5, promoted: 1 })),
      entry({ kind: 'buyOrder.create', account: LINKED_A, sku: 'a;b', price: 5, quantity: 2, user_note: 'hi' }),
    ];
    const batches = planBatches(entries, 1, MAIN);
    const shape = batches.map((b) => [b.endpoint, b.proxy, b.targets.length]);
    expect(shape).toEqual([
      ['create_listing', null, 100], ['create_listing', null, 100], ['create_listing', null, 50],
      ['create_listing', LINKED_A, 100], ['create_listing', LINKED_A, 20],
      ['create_listing', LINKED_B, 3],
      // Edits carry no proxy on the wire, whatever account owns the listing.
      ['edit_listing', null, 100], ['edit_listing', null, 1],
      ['create_buy_order', LINKED_A, 1],
    ]);
    for (const b of batches) {
      const input = b.input as { items: unknown[]; multiaccount_proxy?: string };
      expect(input.items).toHaveLength(b.targets.length);
      expect(input.multiaccount_proxy).toBe(b.proxy ?? undefined);
    }
    expect((batches[1]?.input as { items: { asset_id: string }[] }).items[0]?.asset_id).toBe('1100');
    expect(batches[1]?.targets[0]).toBe('L:1100');
    expect((batches.at(-1)?.input as { items: unknown[] }).items[0]).toEqual({ sku: 'a;b', price: 5, quantity: 2, user_note: 'hi' });
  });

  it('makes a delete-all its own request', () => {
    const batches = planBatches([
      entry({ kind: 'listing.deleteAll', active_only: false }),
      entry({ kind: 'buyOrder.deleteAll' }),
    ], 0, MAIN);
    expect(batches.map((b) => [b.endpoint, b.input, b.targets])).toEqual([
      ['delete_all_listings', { active_only: false }, ['LA']],
      ['delete_all_buy_orders', {}, ['BA']],
    ]);
  });
});

describe('phaseOf', () => {
  it('runs delete-alls first and a create after the delete of the same asset or SKU', () => {
    const deletes = new Set(['LD:5', 'BD:x;y']);
    expect(phaseOf({ kind: 'listing.deleteAll', active_only: true }, deletes)).toBe(0);
    expect(phaseOf({ kind: 'buyOrder.deleteAll' }, deletes)).toBe(0);
    expect(phaseOf({ kind: 'listing.delete', account: MAIN, asset_id: '5' }, deletes)).toBe(1);
    expect(phaseOf({ kind: 'listing.create', account: MAIN, asset_id: '5', price: 1, promoted: 0, game: '440' }, deletes)).toBe(2);
    expect(phaseOf({ kind: 'listing.create', account: MAIN, asset_id: '6', price: 1, promoted: 0, game: '440' }, deletes)).toBe(1);
    expect(phaseOf({ kind: 'buyOrder.create', account: MAIN, sku: 'x;y', price: 1, quantity: 1 }, deletes)).toBe(2);
  });
});

describe('readAhead', () => {
  it('answers as the row-by-row lookup does, from one read of each table for the changes it is given', () => {
    const t = tempStore();
    try {
      t.repos.listings.upsertMany([1, 2, 3].map((i) => ({ asset_id: `10${i}`, listing_id: `L${i}`, sku: '5021;6', price: 100 * i, promoted: 0 as const, game: '440', account: MAIN })));
      t.repos.buyOrders.upsertMany([{ sku: '5021;6', price: 50, quantity: 2, active: 1 as const, account: MAIN }]);
      const changes: Change[] = [
        { kind: 'listing.edit', account: MAIN, asset_id: '101', listing_id: 'L1', price: 5, promoted: 0 },
        { kind: 'listing.delete', account: MAIN, asset_id: '109' },
        { kind: 'buyOrder.edit', account: MAIN, sku: '5021;6', price: 5, quantity: 1, active: 1 },
        { kind: 'buyOrder.delete', account: MAIN, sku: '5000;6' },
      ];
      const reads = { listings: 0, buyOrders: 0 };
      const counted = {
        listings: { get: (id: string) => (reads.listings++, t.repos.listings.get(id)), getMany: (ids: readonly string[]) => t.repos.listings.getMany(ids) },
        buyOrders: { get: (sku: string) => (reads.buyOrders++, t.repos.buyOrders.get(sku)), getMany: (skus: readonly string[]) => t.repos.buyOrders.getMany(skus) },
      };
      const ahead = readAhead(counted, changes);
      const oneByOne = repoLookup(t.repos);
      for (const id of ['101', '109']) expect(ahead.listings.get(id), id).toEqual(oneByOne.listings.get(id));
      for (const sku of ['5021;6', '5000;6']) expect(ahead.buyOrders.get(sku), sku).toEqual(oneByOne.buyOrders.get(sku));
      expect(reads).toEqual({ listings: 0, buyOrders: 0 });
      // A row no change named is read as it is asked for.
      expect(ahead.listings.get('102')?.price).toBe(200);
      expect(reads).toEqual({ listings: 1, buyOrders: 0 });
    } finally {
      t.dispose();
    }
  });
});
