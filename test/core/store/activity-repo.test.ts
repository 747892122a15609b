import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import { tempStore, type TempStore } from './temp-store.ts';

let t: TempStore;
afterEach(() => t.dispose());

describe('activity repo', () => {
  it('logs a request when sent and its outcome after, newest first, searchable by target', () => {
    t = tempStore();
    const { activity } = t.repos;
    activity.recordSent({ batchId: 'b1', endpoint: 'create_listing', account: '1', targets: ['L:100', 'L:101'], itemCount: 2 });
    activity.recordSent({ batchId: 'b2', endpoint: 'edit_buy_order', account: null, targets: ['B:5021;6'], itemCount: 1 });
    activity.recordOutcome('b1', 'done');
    activity.recordOutcome('b2', 'failed', new ApiError('rejected', 'insufficient balance', { status: 400, endpoint: 'edit_buy_order' }).toJSON());
    const all = activity.list();
    expect(all.map((e) => [e.batch_id, e.status])).toEqual([['b2', 'failed'], ['b1', 'done']]);
    expect(all[0]?.error).toMatchObject({ kind: 'rejected', status: 400 });
    expect(activity.list({ text: 'L:101' }).map((e) => e.batch_id)).toEqual(['b1']);
    expect(activity.list({ status: 'failed' })).toHaveLength(1);
    expect(activity.list({ text: '%' })).toHaveLength(0);
  });
});
