import { afterEach, describe, expect, it } from 'vitest';
import { createJournal, QUEUE_PART } from '../../../src-main/core/apply/journal.ts';
import { advance, AHEAD, PER_STEP } from '../../../src-main/core/apply/phases.ts';
import { createDraftService, type DraftService } from '../../../src-main/core/drafts/draft-service.ts';
import { MAIN, tempStore, type TempStore } from '../store/temp-store.ts';

let t: TempStore;
let drafts: DraftService;
afterEach(() => {
  drafts.dispose();
  t.dispose();
});

function setup(creates: number) {
  t = tempStore();
  drafts = createDraftService({ store: t.store, repos: t.repos });
  const { id } = drafts.create('d');
  drafts.addChanges(id, Array.from({ length: creates }, (_, i) => ({ kind: 'listing.create', asset_id: String(100 + i), price: 10, promoted: 0 })));
  const deps = { repos: t.repos, db: t.store.db, touched: (d: string, targets: readonly string[]) => drafts.refresh(d, targets) };
  const journal = createJournal(t.store, deps);
  const run = journal.startRun(id);
  return { id, journal, run, tasks: advance(run, deps) };
}

describe('apply journal', () => {
  it('queues a run\u2019s changes a part at a time, only those made before it started, and knows when all are', () => {
    const total = 2 * QUEUE_PART + QUEUE_PART / 2;
    const { id, journal, run } = setup(total);
    // The first part as the run is journaled; the rest wait, pending, below the sequence number it noted.
    expect(run.queue_below).not.toBeNull();
    expect(t.repos.drafts.statusCounts(id)).toEqual({ queued: QUEUE_PART, pending: total - QUEUE_PART });
    // A change made after the start is not the run's.
    drafts.addChanges(id, [{ kind: 'listing.create', asset_id: '99999', price: 10, promoted: 0 }]);
    expect(journal.queueMore(run.run_id)).toBe(false);
    expect(t.repos.drafts.statusCounts(id)).toEqual({ queued: 2 * QUEUE_PART, pending: QUEUE_PART / 2 + 1 });
    expect(journal.queueMore(run.run_id)).toBe(true);
    expect(t.repos.drafts.statusCounts(id)).toEqual({ queued: total, pending: 1 });
    expect(drafts.entries(id).find((e) => e.target === 'L:99999')?.status).toBe('pending');
    expect(t.repos.journal.run(run.run_id)?.queue_below).toBeNull();
    expect(journal.queueMore(run.run_id)).toBe(true);
    expect(t.repos.drafts.statusCounts(id)).toEqual({ queued: total, pending: 1 });
  });

  it('queues what failed in an earlier apply as the run starts, and never takes again a change that fails while the rest is queued', () => {
    const total = QUEUE_PART + 500;
    t = tempStore();
    drafts = createDraftService({ store: t.store, repos: t.repos });
    const { id } = drafts.create('d');
    drafts.addChanges(id, Array.from({ length: total }, (_, i) => ({ kind: 'listing.create', asset_id: String(100 + i), price: 10, promoted: 0 })));
    // Two changes failed in an earlier apply; made last, they are last in the status index.
    t.repos.drafts.setStatus(id, [`L:${100 + total - 1}`, `L:${100 + total - 2}`], 'failed', { kind: 'rejected', message: 'refused' }, null);
    const deps = { repos: t.repos, db: t.store.db, touched: () => undefined };
    const journal = createJournal(t.store, deps);
    const run = journal.startRun(id);
    expect(t.repos.drafts.statusCounts(id)).toEqual({ queued: QUEUE_PART + 2, pending: total - 2 - QUEUE_PART });
    // One of the first part fails meanwhile (its batch refused): the part after does not queue it again.
    const early = drafts.entries(id).find((e) => e.status === 'queued' && Number(e.target.slice(2)) < 100 + QUEUE_PART);
    t.repos.drafts.setStatus(id, [early?.target ?? ''], 'failed', { kind: 'rejected', message: 'refused' }, null);
    expect(t.repos.drafts.queuedWithoutBatch(id, run.queue_below)).toBe(total - 1);
    expect(journal.queueMore(run.run_id)).toBe(true);
    expect(t.repos.drafts.statusCounts(id)).toEqual({ queued: total - 1, failed: 1 });
    expect(drafts.entries(id).find((e) => e.target === early?.target)?.status).toBe('failed');
  });

  it('records a batch as sent before the request and its outcome after, each committed', () => {
    const { id, journal, tasks } = setup(3);
    expect(tasks).toHaveLength(1);
    const task = tasks[0]!;
    expect(t.repos.journal.batch(task.id)?.state).toBe('planned');
    journal.prepareSend(task.id);
    journal.prepareSend(task.id); // a second attempt of the same batch logs nothing new
    t.reopen(); // another connection sees it: committed
    expect(t.repos.journal.batch(task.id)).toMatchObject({ state: 'sent', item_count: 3 });
    expect(t.repos.drafts.entriesOfBatch(task.id).map((e) => e.status)).toEqual(['sent', 'sent', 'sent']);
    expect(t.repos.activity.list()).toHaveLength(1);
    drafts.dispose();
    drafts = createDraftService({ store: t.store, repos: t.repos });
    const again = createJournal(t.store, { repos: t.repos, db: t.store.db, touched: () => undefined });
    again.recordOutcome(task.id, {
      status: 'done',
      response: { success: true, created_listings: [{ listing_id: 'A', sku: 'x;y', asset_id: '100' }, { listing_id: 'B', sku: 'x;y', asset_id: '101' }] },
    });
    expect(drafts.entries(id).map((e) => [e.target, e.status])).toEqual([['L:100', 'done'], ['L:101', 'done'], ['L:102', 'failed']]);
    expect(t.repos.listings.all().map((l) => [l.asset_id, l.listing_id, l.account])).toEqual([['100', 'A', MAIN], ['101', 'B', MAIN]]);
    expect(t.repos.activity.list()[0]).toMatchObject({ status: 'failed', error: { message: '1 of 3 items were not created' } });
  });

  it('plans a few batches at most for each outcome, and fills the window again over the outcomes after it', () => {
    const { id, journal, run, tasks } = setup(1_500);
    while (!journal.queueMore(run.run_id));
    const deps = { repos: t.repos, db: t.store.db, touched: () => undefined };
    // The whole window planned (at once, as a resumed run has it), then all of it sent together.
    const sent = [...tasks, ...advance(run, deps, AHEAD, AHEAD)];
    expect(sent).toHaveLength(AHEAD);
    for (const task of sent) journal.prepareSend(task.id);
    const planned = () => t.repos.journal.batches({ runId: run.run_id, states: ['planned'] }).length;
    const done = (id: string) => {
      const items = (t.repos.journal.batch(id)?.input as { items: { asset_id: string }[] }).items;
      return { status: 'done' as const, response: { success: true, created_listings: items.map((i) => ({ listing_id: `L${i.asset_id}`, sku: 'x;y', asset_id: i.asset_id })) } };
    };
    // Each outcome plans no more than PER_STEP; the window is full again after a few of them, and never more than full.
    const plannedAfter = sent.map((task) => {
      expect(journal.recordOutcome(task.id, done(task.id)).followUps).toEqual([]);
      const next = journal.planNext(run.run_id);
      expect(next.length).toBeLessThanOrEqual(PER_STEP);
      return planned();
    });
    expect(plannedAfter).toEqual([2, 4, 6, 6, 6, 6]);
    // The rest goes as before: every change done once.
    for (let open = t.repos.journal.batches({ runId: run.run_id, states: ['planned'] }); open.length > 0; open = t.repos.journal.batches({ runId: run.run_id, states: ['planned'] })) {
      for (const b of open) {
        journal.prepareSend(b.batch_id);
        journal.recordOutcome(b.batch_id, done(b.batch_id));
        journal.planNext(run.run_id);
      }
    }
    expect(t.repos.drafts.statusCounts(id)).toEqual({ done: 1_500 });
  });

  it('halves a refused batch when the refusal does not say which item is bad', () => {
    const { id, journal, tasks } = setup(7);
    const task = tasks[0]!;
    journal.prepareSend(task.id);
    const halves = journal.recordOutcome(task.id, { status: 'failed', error: { kind: 'rejected', message: 'create_listing: refused (status 400)' } }).followUps;
    expect(halves.map((h) => h.itemCount)).toEqual([4, 3]);
    expect(t.repos.journal.batch(task.id)?.state).toBe('split');
    // The first half is fine; the second is refused again and splits on.
    journal.prepareSend(halves[0]!.id);
    journal.recordOutcome(halves[0]!.id, { status: 'done', response: { success: true, created_listings: ['100', '101', '102', '103'].map((a) => ({ listing_id: `L${a}`, sku: 'x;y', asset_id: a })) } });
    journal.prepareSend(halves[1]!.id);
    const quarters = journal.recordOutcome(halves[1]!.id, { status: 'failed', error: { kind: 'rejected', message: 'refused' } }).followUps;
    expect(quarters.map((q) => q.itemCount)).toEqual([2, 1]);
    journal.prepareSend(quarters[1]!.id);
    journal.recordOutcome(quarters[1]!.id, { status: 'failed', error: { kind: 'rejected', message: 'asset 106 is not yours' } });
    expect(drafts.entries(id).find((e) => e.target === 'L:106')).toMatchObject({ status: 'failed', error: { message: 'asset 106 is not yours' } });
  });

  it('treats an unreadable response to a write as an unknown outcome, not a failure', () => {
    const { id, journal, tasks } = setup(2);
    journal.prepareSend(tasks[0]!.id);
    journal.recordOutcome(tasks[0]!.id, { status: 'failed', error: { kind: 'bad_response', message: 'not JSON' } });
    expect(drafts.entries(id).map((e) => e.status)).toEqual(['unknown', 'unknown']);
    expect(t.repos.journal.batch(tasks[0]!.id)?.state).toBe('unknown');
  });

  it('puts a batch back to unsent when an attempt changed nothing (429) and it will be tried again', () => {
    const { id, journal, tasks } = setup(2);
    journal.prepareSend(tasks[0]!.id);
    journal.markRetry(tasks[0]!.id, { kind: 'rate_limited', message: '429' });
    expect(t.repos.journal.batch(tasks[0]!.id)?.state).toBe('planned');
    expect(drafts.entries(id).map((e) => e.status)).toEqual(['queued', 'queued']);
    journal.prepareSend(tasks[0]!.id);
    expect(t.repos.activity.list().map((a) => a.status)).toEqual(['sent', 'failed']);
  });
});
