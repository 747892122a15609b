import { afterEach, describe, expect, it } from 'vitest';
import type { Change, DraftEntry } from '../../../src-main/core/drafts/change.ts';
import { targetOf } from '../../../src-main/core/drafts/change.ts';
import { WAITING_COUNTS } from '../../../src-main/core/store/drafts-repo.ts';
import { LINKED, MAIN, tempStore, type TempStore } from './temp-store.ts';

let t: TempStore;
afterEach(() => t.dispose());

const entry = (change: Change, seq: number, extra: Partial<DraftEntry> = {}): DraftEntry => ({
  target: targetOf(change), seq, change, status: 'pending', error: null, batchId: null, updatedAt: 5, ...extra,
});

/** One change of every kind, with every optional field used somewhere. */
const EVERY_KIND: Change[] = [
  { kind: 'listing.create', account: LINKED, asset_id: '11', price: 100, promoted: 1, game: '440', sku: '5021;6', user_note: 'new' },
  { kind: 'listing.create', account: MAIN, asset_id: '12', price: 101, promoted: 0, game: '570' },
  { kind: 'listing.edit', account: MAIN, asset_id: '13', listing_id: 'L13', price: 102, promoted: 0, user_note: '' },
  { kind: 'listing.edit', account: MAIN, asset_id: '14', listing_id: 'L14', price: 103, promoted: 1 },
  { kind: 'listing.delete', account: MAIN, asset_id: '15', if_exists: true },
  { kind: 'listing.delete', account: MAIN, asset_id: '16' },
  { kind: 'listing.deleteAll', active_only: true, replaced: 3 },
  { kind: 'buyOrder.create', account: MAIN, sku: '5021;6', price: 50, quantity: 2, user_note: 'buy' },
  { kind: 'buyOrder.edit', account: MAIN, sku: '5002;6', price: 51, quantity: 3, active: 0 },
  { kind: 'buyOrder.delete', account: MAIN, sku: '5000;6', if_exists: false },
  { kind: 'buyOrder.deleteAll' },
];

describe('drafts repo: a draft\'s changes as columns', () => {
  it('reads back every kind of change exactly as written, with its status, error and batch', () => {
    t = tempStore();
    const { draft_id: id } = t.repos.drafts.create('d');
    const written = EVERY_KIND.map((c, i) => entry(c, i + 1, i === 2 ? { status: 'failed', error: { kind: 'rejected', message: 'no' } } : i === 3 ? { status: 'queued', batchId: 'b1' } : {}));
    t.repos.drafts.writeEntries(id, written);
    t.reopen();
    const read = t.repos.drafts.entriesFor(id, written.map((e) => e.target));
    expect(read).toEqual(written);
    expect(t.repos.drafts.entriesOfBatch('b1').map((e) => e.target)).toEqual(['L:14']);
    expect(t.repos.drafts.statusCounts(id)).toEqual({ pending: 9, failed: 1, queued: 1 });
  });

  it('refuses a change the shared schema refuses, naming the field, and writes none of the call', () => {
    t = tempStore();
    const { draft_id: id } = t.repos.drafts.create('d');
    const bad = { kind: 'listing.edit', account: MAIN, asset_id: '1', listing_id: 'L1', price: 0, promoted: 0 } as Change;
    expect(() => t.repos.drafts.writeEntries(id, [entry(EVERY_KIND[0] as Change, 1), entry(bad, 2)])).toThrow(/price/);
    expect(t.repos.drafts.statusCounts(id)).toEqual({});
  });

  it('pages a draft in the order its changes were made, after a cursor, leaving removed ones out', () => {
    t = tempStore();
    const { draft_id: id } = t.repos.drafts.create('d');
    t.repos.drafts.writeEntries(id, EVERY_KIND.map((c, i) => entry(c, 100 - i, i === 0 ? { status: 'dropped' } : {})));
    const first = t.repos.drafts.entriesPage(id, null, 4);
    expect(first.map((e) => e.seq)).toEqual([90, 91, 92, 93]);
    const last = first.at(-1) as DraftEntry;
    const [slot, key] = [last.target.split(':')[0] as 'BD', last.target.split(':')[1] ?? ''];
    const rest = t.repos.drafts.entriesPage(id, { seq: last.seq, slot, key }, 100);
    expect(rest.map((e) => e.seq)).toEqual([94, 95, 96, 97, 98, 99]);
  });

  it('hands out sequence numbers that never repeat, across restarts', () => {
    t = tempStore();
    const { draft_id: id } = t.repos.drafts.create('d');
    expect(t.repos.drafts.takeSeqs(id, 3)).toBe(1);
    expect(t.repos.drafts.takeSeqs(id, 0)).toBe(4);
    t.reopen();
    expect(t.repos.drafts.takeSeqs(id, 1)).toBe(4);
    expect(t.repos.drafts.takeSeqs(id, 1)).toBe(5);
  });

  it('moves rows between statuses in one statement, a bounded number at a time', () => {
    t = tempStore();
    const { draft_id: id } = t.repos.drafts.create('d');
    t.repos.drafts.writeEntries(id, EVERY_KIND.map((c, i) => entry(c, i + 1, i < 2 ? { status: 'failed', error: { kind: 'server', message: 'x' } } : {})));
    // Only those made before a sequence number (the entries here are numbered 1…11).
    expect(t.repos.drafts.moveStatus(id, ['pending', 'failed'], 'queued', { seqBelow: 5 })).toBe(4);
    expect(t.repos.drafts.entriesByStatus(id, ['queued']).map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(t.repos.drafts.moveStatus(id, ['pending', 'failed'], 'queued', { limit: 4 })).toBe(4);
    expect(t.repos.drafts.moveStatus(id, ['pending', 'failed'], 'queued')).toBe(3);
    expect(t.repos.drafts.statusCounts(id)).toEqual({ queued: 11 });
    expect(t.repos.drafts.entriesByStatus(id, ['queued']).every((e) => e.error === null && e.batchId === null)).toBe(true);
  });

  it('counts an apply\'s waiting changes from the status index alone, and counts them right', () => {
    t = tempStore();
    const plan = (sql: string) => t.store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all().map((row) => String(row.detail)).filter((step) => /^(SEARCH|SCAN) draft_entries\b/.test(step));
    // A count that reads each change's row for its batch or its order took 5-10 ms at 5,000 changes: only the few
    // changes made since the run started are read (through the order index, from the run's first sequence number).
    expect(plan(WAITING_COUNTS.queuedWithoutBatch)).toEqual([expect.stringMatching(/USING COVERING INDEX draft_entries_status\b/)]);
    expect(plan(WAITING_COUNTS.pendingBelow)).toEqual([
      expect.stringMatching(/USING COVERING INDEX draft_entries_status\b/),
      expect.stringMatching(/USING INDEX draft_entries_order \(draft_id=\? AND seq>\?\)/),
    ]);
    const { draft_id: id } = t.repos.drafts.create('d');
    t.repos.drafts.writeEntries(id, EVERY_KIND.map((c, i) => entry(c, i + 1, i < 3 ? { status: 'queued' } : i === 3 ? { status: 'queued', batchId: 'b1' } : {})));
    // Three queued without a batch; of the seven pending (seq 5…11), those below 8 count while the run is queued.
    expect(t.repos.drafts.queuedWithoutBatch(id)).toBe(3);
    expect(t.repos.drafts.queuedWithoutBatch(id, 8)).toBe(6);
  });
});
