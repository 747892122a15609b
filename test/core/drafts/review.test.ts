import { afterEach, describe, expect, it } from 'vitest';
import { createDraftService } from '../../../src-main/core/drafts/draft-service.ts';
import { BUY_ORDER_CUT_NOTE } from '../../../src-main/core/drafts/review.ts';
import { createItemNames } from '../../../src-main/core/items/index.ts';
import { schemaNameIndex } from '../../../src-main/core/store/name-index.ts';
import { draftReview } from '../../../src-shared/draft-views.ts';
import { draftFixture, ledgerListing, LINKED, MAIN, seedListings, type DraftFixture } from './fixtures.ts';
import type { ChangeInput } from '../../../src-shared/drafts.ts';

let f: DraftFixture;
afterEach(() => f.dispose());

/** Every row of the review, history included, in its order. */
const allRows = (id: string) => f.drafts.reviewPage(id, { show: 'all', offset: 0, limit: 100_000 });

/** A draft deleting 600 ledger listings and listing the same assets again, plus `more` changes. */
function relistDraft(more: readonly ChangeInput[]): string {
  f = draftFixture();
  const rows = Array.from({ length: 600 }, (_, i) => ledgerListing(String(10_000 + i)));
  f.t.repos.listings.upsertMany(rows);
  const { id } = f.drafts.create('d');
  const r = f.drafts.addChanges(id, [
    ...rows.map((row): ChangeInput => ({ kind: 'listing.delete', asset_id: row.asset_id })),
    ...rows.map((row): ChangeInput => ({ kind: 'listing.create', asset_id: row.asset_id, price: 99, promoted: 0 })),
    ...more,
  ]);
  expect(r.errors).toEqual([]);
  return id;
}

describe('draft review', () => {
  it('shows before → after per field against the ledger', async () => {
    f = draftFixture();
    f.t.repos.listings.upsertMany([ledgerListing('1', { price: 500, user_note: 'old' }), ledgerListing('2')]);
    f.t.repos.buyOrders.upsert({ sku: 'a;1', account: MAIN, price: 100, quantity: 2 });
    const { id } = f.drafts.create('d');
    f.drafts.addChanges(id, [
      { kind: 'listing.edit', asset_id: '1', price: 450, user_note: '' },
      { kind: 'listing.delete', asset_id: '2' },
      { kind: 'listing.create', asset_id: '3', price: 120, promoted: 1, account: LINKED },
      { kind: 'buyOrder.edit', sku: 'a;1', active: 0 },
      { kind: 'buyOrder.create', sku: 'b;1', price: 10, quantity: 5 },
    ]);
    const r = await f.drafts.review(id);
    // In the order the apply runs them: deletes, creates, edits.
    expect(allRows(id).rows.map((row) => [row.changeId, row.fields, row.note])).toEqual([
      ['LD:2', [{ field: 'listing', before: 'L2', after: null }, { field: 'price', before: 1000, after: null }], null],
      ['L:3', [
        { field: 'price', before: null, after: 120 }, { field: 'promoted', before: null, after: 1 },
        { field: 'game', before: null, after: '440' }, { field: 'account', before: null, after: LINKED },
      ], null],
      ['L:1', [{ field: 'price', before: 500, after: 450 }, { field: 'user_note', before: 'old', after: '' }], null],
      ['B:b;1', [
        { field: 'price', before: null, after: 10 }, { field: 'quantity', before: null, after: 5 }, { field: 'account', before: null, after: MAIN },
      ], BUY_ORDER_CUT_NOTE],
      ['B:a;1', [{ field: 'active', before: 1, after: 0 }], null],
    ]);
    expect(r.requestsPerEndpoint).toEqual({ edit_listing: 1, delete_listing: 1, create_listing: 1, edit_buy_order: 1, create_buy_order: 1 });
    expect(r.byStatus).toEqual({ pending: 5 });
    expect(r.openByKind).toEqual({ 'listing.edit': 1, 'listing.delete': 1, 'listing.create': 1, 'buyOrder.edit': 1, 'buyOrder.create': 1 });
  });

  it('counts requests per endpoint, proxy and phase, and gives the ETA the limits allow', async () => {
    // 600 deletes, the same 600 assets listed again, and 1,000 new listings.
    const id = relistDraft([
      ...Array.from({ length: 1_000 }, (_, i): ChangeInput => ({ kind: 'listing.create', asset_id: String(50_000 + i), price: 99, promoted: 0 })),
      { kind: 'listing.deleteAll', active_only: true },
    ]);
    const r = await f.drafts.review(id);
    const page = f.drafts.reviewPage(id, { show: 'open', offset: 0, limit: 10 });
    expect(page.rows).toHaveLength(10);
    expect(page.total).toBe(1_001 + 600);
    // The delete-all comes first and says what it replaced.
    expect(page.rows[0]).toMatchObject({ changeId: 'LA', note: expect.stringMatching(/replaced 600 pending edits and deletes/) });
    // The delete-all replaced the 600 deletes; the creates of ledger assets now wait only for it.
    expect(r.requestsPerEndpoint).toEqual({ delete_all_listings: 1, create_listing: 16 });
    // Phase 0: one delete-all (0 s). Phase 1: 16 creates at 5/min → (ceil(16/5) − 1) × 60 s.
    expect(r.etaMs).toBe(3 * 60_000);
    expect(r.removes).toEqual({ listings: 600, buyOrders: 0 });
  });

  it('runs relists after their deletes in the ETA', async () => {
    const id = relistDraft([]);
    const r = await f.drafts.review(id);
    expect(r.requestsPerEndpoint).toEqual({ delete_listing: 6, create_listing: 6 });
    // 6 deletes: 60 s; then 6 creates: 60 s.
    expect(r.etaMs).toBe(2 * 60_000);
  });

  it('groups creates per account in a mixed draft and counts what each delete-all removes, active_only respected', async () => {
    f = draftFixture();
    f.t.repos.listings.upsertMany([
      ledgerListing('1'), ledgerListing('2'), ledgerListing('3'), ledgerListing('4', { state: 'sold' }), ledgerListing('5', { state: 'inactive' }),
    ]);
    f.t.repos.buyOrders.upsertMany(['a;1', 'a;2', 'a;3'].map((sku) => ({ sku, account: MAIN, price: 100, quantity: 1 })));
    const { id } = f.drafts.create('d');
    const creates = (from: number, n: number, account: string) =>
      Array.from({ length: n }, (_, i): ChangeInput => ({ kind: 'listing.create', asset_id: String(from + i), price: 99, promoted: 0, account }));
    expect(f.drafts.addChanges(id, [
      ...creates(1_000, 701, MAIN), ...creates(5_000, 50, LINKED),
      { kind: 'listing.deleteAll', active_only: false },
      { kind: 'buyOrder.deleteAll' },
      { kind: 'buyOrder.create', sku: 'n;1', price: 5, quantity: 2 },
    ]).errors).toEqual([]);
    const r = await f.drafts.review(id);
    expect(draftReview.parse({ ...r, stamp: 1 })).toMatchObject({ draftId: id });
    // Main's 701 creates take 8 requests, the linked account's 50 one more: a request acts for one account.
    expect(r.requestsPerEndpoint).toEqual({ create_listing: 9, delete_all_listings: 1, delete_all_buy_orders: 1, create_buy_order: 1 });
    // Delete-alls first (one request each, at once); then 9 creates at 5/min: (ceil(9/5) − 1) × 60 s.
    expect(r.etaMs).toBe(60_000);
    expect(r.removes).toEqual({ listings: 5, buyOrders: 3 });
    const byId = new Map(allRows(id).rows.map((row) => [row.changeId, row]));
    expect(byId.get('LA')?.fields).toEqual([{ field: 'listings', before: 5, after: 0 }]);
    expect(byId.get('BA')?.fields).toEqual([{ field: 'buy orders', before: 3, after: 0 }]);
    expect(byId.get('L:5000')).toMatchObject({ kind: 'listing.create', target: '5000', account: LINKED });
    expect(byId.get('L:5000')?.fields[0]).toEqual({ field: 'price', before: null, after: 99 });

    // Active listings only: the sold and the inactive one stay.
    f.drafts.addChanges(id, [{ kind: 'listing.deleteAll', active_only: true }]);
    expect((await f.drafts.review(id)).removes).toEqual({ listings: 3, buyOrders: 3 });
  });

  it('reviews a 50,000-change draft a part at a time, with the same counts', async () => {
    f = draftFixture();
    seedListings(f.t, 50_000);
    const { id } = f.drafts.create('big');
    expect((await f.bulk(id, 'listings', { filter: {} }, { op: 'multiply', percent: 95, rounding: 'down' })).changed).toBe(50_000);
    let turns = 0;
    const ticking = setInterval(() => (turns += 1), 0);
    const r = await f.drafts.review(id);
    clearInterval(ticking);
    // Timers ran while it counted: the thread was given back between parts.
    expect(turns).toBeGreaterThan(3);
    const page = f.drafts.reviewPage(id, { show: 'open', offset: 49_900, limit: 100 });
    expect(page.total).toBe(50_000);
    expect(page.rows).toHaveLength(100);
    expect(r.requestsPerEndpoint).toEqual({ edit_listing: 500 });
    // 500 edits at 5/min: (100 − 1) minutes.
    expect(r.etaMs).toBe(99 * 60_000);
  });
});

describe('the review’s time to apply', () => {
  it('counts the rate slots still in use: an edit behind five busy slots waits for the first to free', async () => {
    f = draftFixture();
    f.t.repos.listings.upsertMany(Array.from({ length: 100 }, (_, i) => ledgerListing(String(20_000 + i))));
    const busy = (scope: string) => (scope === 'edit_listing' ? [40_000, 41_000, 42_000, 43_000, 44_000] : []);
    const drafts = createDraftService({ store: f.t.store, repos: f.t.repos, busySlots: busy });
    const { id } = drafts.create('d');
    drafts.addChanges(id, Array.from({ length: 100 }, (_, i): ChangeInput => ({ kind: 'listing.edit', asset_id: String(20_000 + i), price: 1_001 })));
    // With every slot free, one request goes at once; behind five busy ones it waits for the first to free.
    expect((await f.drafts.review(id)).etaMs).toBe(0);
    expect((await drafts.review(id)).etaMs).toBe(40_000);
    drafts.dispose();
  });
});

describe('draft review search', () => {
  it('finds the changes of the items a search finds, as every table does, and changes by key or note', async () => {
    f = draftFixture();
    const drafts = createDraftService({ store: f.t.store, repos: f.t.repos, nameIndex: schemaNameIndex(f.t.store, f.t.repos.settings, createItemNames(), ['ledger']) });
    f.t.repos.listings.upsertMany([ledgerListing('1', { sku: '378;5;u13' }), ledgerListing('2', { sku: '5021;6' })]);
    f.t.repos.buyOrders.upsert({ sku: '205;11;kt-3', account: MAIN, price: 100, quantity: 2 });
    const { id } = drafts.create('d');
    drafts.addChanges(id, [
      { kind: 'listing.edit', asset_id: '1', price: 450 },
      { kind: 'listing.delete', asset_id: '2' },
      { kind: 'listing.create', asset_id: '3', price: 120, promoted: 0, sku: '30911;5;u14', user_note: 'fresh unbox' },
      { kind: 'buyOrder.edit', sku: '205;11;kt-3', price: 90 },
      { kind: 'buyOrder.create', sku: '5021;6;uncraftable', price: 10, quantity: 5 },
    ]);
    const found = (text: string) => drafts.reviewPage(id, { show: 'all', text, offset: 0, limit: 100 }).rows.map((r) => r.changeId);
    expect(found('unusual')).toEqual(['L:3', 'L:1']);
    expect(found('team captain burning flames')).toEqual(['L:1']);
    expect(found('pro ks')).toEqual(['B:205;11;kt-3']);
    expect(found('mann co supply crate key')).toEqual(['LD:2', 'B:5021;6;uncraftable']);
    expect(found('non-craft')).toEqual(['B:5021;6;uncraftable']);
    expect(found('fresh')).toEqual(['L:3']);
    expect(found('2')).toEqual(['LD:2', 'B:5021;6;uncraftable', 'B:205;11;kt-3']);
    expect(drafts.reviewPage(id, { show: 'all', text: 'unusual', offset: 0, limit: 1 })).toMatchObject({ total: 2, rows: [{ changeId: 'L:3' }] });
    drafts.dispose();
  });
});
