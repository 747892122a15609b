import { afterEach, describe, expect, it } from 'vitest';
import { tempStore, type TempStore } from './temp-store.ts';

let t: TempStore;
afterEach(() => t.dispose());

describe('drafts repo: stored bulk patches', () => {
  it('reads back a patch whole, and its targets alone for folding, in the order stored', () => {
    t = tempStore();
    const { draft_id: id } = t.repos.drafts.create('d');
    t.repos.drafts.addPatch(id, 4, { domain: 'listings', ids: ['1', '2'], set: {}, prices: [100, 200] });
    t.repos.drafts.addPatch(id, 9, { domain: 'buyOrders', ids: ['5021;6'], set: { active: 0 } });
    t.reopen();
    expect(t.repos.drafts.patches(id).map((p) => [p.seq, p.body])).toEqual([
      [4, { domain: 'listings', ids: ['1', '2'], set: {}, prices: [100, 200] }],
      [9, { domain: 'buyOrders', ids: ['5021;6'], set: { active: 0 } }],
    ]);
    expect(t.repos.drafts.patchTargets(id).map(({ seq, domain, ids }) => ({ seq, domain, ids }))).toEqual([
      { seq: 4, domain: 'listings', ids: ['1', '2'] },
      { seq: 9, domain: 'buyOrders', ids: ['5021;6'] },
    ]);
  });

  it('says which table and field a stored patch without targets breaks', () => {
    t = tempStore();
    const { draft_id: id } = t.repos.drafts.create('d');
    t.store.db.prepare('INSERT INTO draft_patches (draft_id, seq, body, created_at) VALUES (?, ?, ?, 0)').run(id, 1, JSON.stringify({ domain: 'listings', set: {} }));
    expect(() => t.repos.drafts.patchTargets(id)).toThrow(/a row of draft_patches does not fit its schema: ids/);
  });
});
