import { afterEach, describe, expect, it } from 'vitest';
import { createKeyCounts, keyCountSql } from '../../../src-main/core/store/key-counts.ts';
import { draftFixture, seedListings, type DraftFixture } from '../drafts/fixtures.ts';

let f: DraftFixture;
afterEach(() => f.dispose());

describe('key counts: what a few of a draft\'s keys add to a table\'s counts', () => {
  it('reads each key by an index, never a walk of the table or the draft', () => {
    f = draftFixture();
    for (const domain of ['listings', 'buyOrders'] as const) {
      for (const arm of ['created', 'ledger'] as const) {
        const plan = f.t.store.db.prepare(`EXPLAIN QUERY PLAN ${keyCountSql(domain, arm)}`)
          .all({ draft: 'd', deleteAll: null, keys: '["1"]' }).map((row) => String(row.detail));
        expect(plan.filter((step) => step.startsWith('SCAN')), `${domain}, ${arm}`).toEqual(['SCAN json_each VIRTUAL TABLE INDEX 1:']);
        expect(plan.filter((step) => step.startsWith('SEARCH')).length, `${domain}, ${arm}`).toBeGreaterThanOrEqual(3);
      }
    }
  });

  it('counts the rows it creates and the held rows it changes, an edit and a delete of one row once', () => {
    f = draftFixture();
    seedListings(f.t, 10);
    const counts = createKeyCounts(f.t.store);
    const { id } = f.drafts.create('d');
    const keys = ['1000001', '1000002', '1000003', '77', '88'];
    expect(counts(id, 'listings', keys)).toEqual({ created: 0, changed: 0 });
    f.drafts.addChanges(id, [
      { kind: 'listing.edit', asset_id: '1000001', price: 1 },
      { kind: 'listing.delete', asset_id: '1000001' },
      { kind: 'listing.delete', asset_id: '1000002' },
      { kind: 'listing.create', asset_id: '77', price: 900, promoted: 0 },
      { kind: 'listing.edit', asset_id: '1000009', price: 1 },
    ]);
    expect(counts(id, 'listings', keys)).toEqual({ created: 1, changed: 3 });
    expect(counts(id, 'listings', ['1000009'])).toEqual({ created: 0, changed: 1 });
    expect(counts(id, 'buyOrders', keys)).toEqual({ created: 0, changed: 0 });
    expect(counts('another', 'listings', keys)).toEqual({ created: 0, changed: 0 });
  });
});
