import { describe, expect, it } from 'vitest';
import { planUndo } from '../../../src-main/core/apply/undo-plan.ts';
import type { AppliedRow, RowValues } from '../../../src-main/core/store/applied-repo.ts';
import type { BuyOrderRow } from '../../../src-main/core/store/buy-orders-repo.ts';
import type { ListingRow } from '../../../src-main/core/store/listings-repo.ts';

const MAIN = '76561198000000001';
const lv = (price: number, over: Partial<RowValues> = {}): RowValues => ({ listing_id: 'L1', price, promoted: 0, quantity: null, active: null, user_note: '', ...over });
const bv = (price: number, over: Partial<RowValues> = {}): RowValues => ({ listing_id: null, price, promoted: null, quantity: 2, active: 1, user_note: '', ...over });
const applied = (slot: 'L' | 'B', key: string, before: RowValues | null, after: RowValues | null): AppliedRow => ({
  runId: 1, slot, key, account: MAIN, sku: slot === 'B' ? key : '378;6', before, after, kind: 'x', at: 0,
});
const listing = (asset: string, price: number, over: Partial<ListingRow> = {}): ListingRow => ({
  asset_id: asset, listing_id: 'L1', id_unknown: false, sku: '378;6', price, promoted: 0, game: '440', user_note: '', account: MAIN,
  state: 'active', state_reason: null, trade_id: null, updated_at: 0, ...over,
});
const order = (sku: string, price: number, over: Partial<BuyOrderRow> = {}): BuyOrderRow => ({
  sku, account: MAIN, price, quantity: 2, quantity_may_be_cut: false, quantity_at_least: null, active: 1, user_note: '', fills_seen: 0, updated_at: 0, ...over,
});

describe('what an undo takes', () => {
  it('says what cannot come back and why, and counts what is already as before', () => {
    const ledger = new Map<string, ListingRow>([
      ['1', listing('1', 300)],
      ['2', listing('2', 5, { state: 'sold_in_trade', trade_id: '77' })],
      ['4', listing('4', 5, { listing_id: null, id_unknown: true })],
    ]);
    const plan = planUndo([
      applied('L', '1', lv(300), lv(15)),
      applied('L', '2', lv(300), lv(5)),
      applied('L', '3', lv(300), lv(5)),
      applied('L', '4', lv(300), lv(5)),
      applied('L', '5', null, lv(5)),
    ], { listing: (id) => ledger.get(id) ?? null, buyOrder: () => null });
    expect(plan.steps).toEqual([]);
    expect(plan.unchanged).toBe(2);
    expect(plan.notes.map((n) => [n.target, n.kind, n.reason])).toEqual([
      ['L:2', 'lost', 'cannot be undone: the listing was sold in trade 77, which is still pending'],
      ['L:3', 'lost', 'no longer in the ledger (deleted or cleared since this apply): nothing to restore'],
      ['L:4', 'lost', 'its listing ID is unknown (its create response was lost), so it cannot be edited'],
    ]);
  });

  it('brings buy orders back: edited ones edited back, deleted ones created again (active), created ones deleted', () => {
    const ledger = new Map<string, BuyOrderRow>([
      ['1;6', order('1;6', 10, { active: 0, user_note: 'x' })],
      ['3;6', order('3;6', 4, { quantity: 1 })],
      ['4;6', order('4;6', 9)],
    ]);
    const plan = planUndo([
      applied('B', '1;6', bv(50), bv(10, { active: 0, user_note: 'x' })),
      applied('B', '2;6', bv(60, { active: 0, user_note: 'paused' }), null),
      // Created with 2 wanted, cut to 1 by the balance: not a change since.
      applied('B', '3;6', null, bv(4)),
      applied('B', '4;6', bv(9), null),
    ], { listing: () => null, buyOrder: (sku) => ledger.get(sku) ?? null });
    expect(plan.steps.map((s) => [s.what, s.input])).toEqual([
      ['restore', { kind: 'buyOrder.edit', sku: '1;6', price: 50, quantity: 2, active: 1, user_note: '' }],
      ['recreate', { kind: 'buyOrder.create', sku: '2;6', account: MAIN, price: 60, quantity: 2, user_note: 'paused' }],
      ['remove', { kind: 'buyOrder.delete', sku: '3;6' }],
    ]);
    expect(plan.notes.map((n) => [n.target, n.kind, n.reason])).toEqual([
      ['B:2;6', 'partly', 'deleted by this apply while paused: created again, it starts active; pause it once this is applied'],
      ['B:4;6', 'lost', 'deleted by this apply, and a buy order for this SKU stands again since: it is left as it is'],
    ]);
  });

  it('says what changed since the apply, field by field, and undoes it anyway', () => {
    const plan = planUndo([applied('L', '1', lv(300), lv(15))], {
      listing: () => listing('1', 20, { promoted: 1, user_note: 'new' }), buyOrder: () => null,
    });
    expect(plan.steps.map((s) => s.input)).toEqual([{ kind: 'listing.edit', asset_id: '1', price: 300, promoted: 0, user_note: '' }]);
    expect(plan.notes[0]?.reason).toBe(
      'changed since this apply (now $0.20, it left $0.15; now promoted, it left not promoted; now note “new”, it left no note); set back to its values before this apply anyway',
    );
  });
});
