import { afterEach, describe, expect, it } from 'vitest';
import { PART_SQL } from '../../../src-main/core/store/review-reads.ts';
import { tempStore, type TempStore } from './temp-store.ts';

let t: TempStore;
afterEach(() => t.dispose());

describe('review reads: a part of a draft', () => {
  it('is read by the primary key from its start to its end, by every statement that reads one (the last part too)', () => {
    t = tempStore();
    for (const [name, sql] of Object.entries(PART_SQL)) {
      for (const to of [{ to_slot: 'L', to_key: '42' }, { to_slot: null, to_key: null }]) {
        const explain = t.store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
        // The creates name no main account.
        explain.setAllowUnknownNamedParameters(true);
        const plan = explain.all({ draft: 'd', main: 'm', from_slot: 'B', from_key: '7', ...to }).map((row) => String(row.detail));
        // One bound only, or the slot pinned beside the range, and each part reads every row after its start: a review
        // of 47,000 changes in parts of 4,000 read them six times over.
        expect(plan.filter((step) => step.startsWith('SEARCH e ')), `${name}, ${to.to_slot === null ? 'the last part' : 'a part'}`)
          .toEqual(['SEARCH e USING PRIMARY KEY (draft_id=? AND (slot,key)>(?,?) AND (slot,key)<(?,?))']);
      }
    }
  });
});
