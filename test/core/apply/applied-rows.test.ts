import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordAppliedMany, type DoneChange } from '../../../src-main/core/apply/applied-rows.ts';
import type { Change } from '../../../src-main/core/drafts/change.ts';
import { openStore, type Store } from '../../../src-main/core/store/db.ts';
import { createRepos, type Repos } from '../../../src-main/core/store/index.ts';

/**
 * A batch's done changes go into the ledger and the undo's record in one
 * pass (rows read once before and once after): what that pass keeps must be
 * what recording them one by one keeps, for every kind of change, and for
 * the batches one pass cannot take (a row changed twice, a delete-all).
 */

const MAIN = '76561198000000001';
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function profile(): { store: Store; repos: Repos; runId: number } {
  const dir = mkdtempSync(join(tmpdir(), 'desk-applied-'));
  dirs.push(dir);
  const store = openStore(join(dir, 'profile.sqlite'));
  const repos = createRepos(store);
  repos.accounts.upsert({ account_id: MAIN, kind: 'main' });
  repos.listings.upsertMany([1, 2, 3].map((i) => ({
    asset_id: `100${i}`, listing_id: `200${i}`, sku: '5021;6', price: 100 * i, promoted: 0, game: '440', account: MAIN, user_note: i === 1 ? 'kept' : '',
  })));
  repos.buyOrders.upsert({ sku: '725;6', account: MAIN, price: 50, quantity: 2, active: 1 });
  const draft = repos.drafts.create('batch');
  return { store, repos, runId: repos.journal.createRun(draft.draft_id).run_id };
}

const edit = (asset: string, price: number): Change => ({ kind: 'listing.edit', asset_id: asset, listing_id: `200${asset.slice(3)}`, price, promoted: 1, account: MAIN });
const BATCH: readonly DoneChange[] = [
  { change: edit('1001', 150) },
  { change: { kind: 'listing.delete', asset_id: '1002', account: MAIN } },
  { change: { kind: 'listing.create', asset_id: '1009', sku: '378;6', price: 70, promoted: 0, game: '440', account: MAIN }, created: { asset_id: '1009', listing_id: '2009', sku: '378;6' } },
  { change: { kind: 'buyOrder.edit', sku: '725;6', price: 60, quantity: 3, active: 1, account: MAIN } },
  { change: { kind: 'buyOrder.create', sku: '5000;6', price: 3, quantity: 4, account: MAIN } },
];

/** What the undo reads back, and the ledger, without the stamps. */
function kept(p: { store: Store; repos: Repos; runId: number }) {
  return {
    applied: p.repos.applied.page(p.runId, null, 100).map(({ at: _at, ...row }) => row),
    listings: p.repos.listings.all().map(({ updated_at: _u, ...row }) => row),
    buyOrders: p.repos.buyOrders.all().map(({ updated_at: _u, ...row }) => row),
  };
}

describe('recording a batch of done changes', () => {
  it('keeps what one by one keeps: each row before and after, every kind of change', () => {
    const many = profile();
    many.store.transaction(() => recordAppliedMany(many.repos, many.runId, BATCH));
    const single = profile();
    single.store.transaction(() => BATCH.forEach((d) => recordAppliedMany(single.repos, single.runId, [d])));
    expect(kept(many)).toEqual(kept(single));
    const rows = new Map(kept(many).applied.map((r) => [`${r.slot}${r.key}`, r]));
    expect(rows.get('L1001')).toMatchObject({ before: { price: 100, promoted: 0, user_note: 'kept' }, after: { price: 150, promoted: 1, user_note: 'kept' } });
    expect(rows.get('L1002')).toMatchObject({ before: { price: 200, listing_id: '2002' }, after: null });
    expect(rows.get('L1009')).toMatchObject({ before: null, after: { price: 70, listing_id: '2009' }, sku: '378;6' });
    expect(rows.get('B725;6')).toMatchObject({ before: { price: 50, quantity: 2 }, after: { price: 60, quantity: 3 } });
    expect(rows.get('B5000;6')).toMatchObject({ before: null, after: { price: 3, quantity: 4 } });
  });

  it('keeps a row changed twice as its first before and last after, and a delete-all in its place', () => {
    const p = profile();
    p.store.transaction(() => recordAppliedMany(p.repos, p.runId, [
      { change: edit('1001', 150) },
      { change: edit('1001', 170) },
      { change: edit('1003', 310) },
      { change: { kind: 'listing.deleteAll', active_only: true } },
    ]));
    const rows = new Map(kept(p).applied.map((r) => [`${r.slot}${r.key}`, r]));
    expect(rows.get('L1001')).toMatchObject({ before: { price: 100 }, after: null, kind: 'listing.deleteAll' });
    expect(rows.get('L1003')).toMatchObject({ before: { price: 300 }, after: null });
    expect(rows.get('L1002')).toMatchObject({ before: { price: 200 }, after: null });
    expect(kept(p).listings).toEqual([]);
    const q = profile();
    q.store.transaction(() => recordAppliedMany(q.repos, q.runId, [{ change: edit('1001', 150) }, { change: edit('1001', 170) }]));
    expect(kept(q).applied).toEqual([expect.objectContaining({ key: '1001', before: expect.objectContaining({ price: 100 }), after: expect.objectContaining({ price: 170 }) })]);
  });
});
