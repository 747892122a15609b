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

  it('tells which entries were added or settled, and reads them back by id, oldest first', () => {
    t = tempStore();
    const { activity } = t.repos;
    const told: number[][] = [];
    const off = activity.onChanged((ids) => told.push([...ids]));
    const a = activity.recordSent({ batchId: 'b1', endpoint: 'create_listing', account: '1', targets: ['L:1'], itemCount: 1 });
    const b = activity.recordNote({ endpoint: 'load_pending', account: null, targets: ['L:2'], note: 'sold in trade 9' });
    activity.recordOutcome('b1', 'done');
    // A batch with nothing sent under its id changes no entry.
    activity.recordOutcome('b9', 'done');
    expect(told).toEqual([[a], [b], [a]]);
    expect(activity.byIds([b, a, 999]).map((e) => [e.id, e.status])).toEqual([[a, 'done'], [b, 'done']]);
    off();
    activity.recordSent({ batchId: 'b2', endpoint: 'edit_listing', account: null, targets: [], itemCount: 1 });
    expect(told).toHaveLength(3);
  });
});
