import { afterEach, describe, expect, it } from 'vitest';
import { createApplyService } from '../../../src-main/core/apply/apply-draft.ts';
import { createDraftService } from '../../../src-main/core/drafts/draft-service.ts';
import type { HeartbeatStatus } from '../../../src-main/core/heartbeat/heartbeat.ts';
import type { BatchTask, Scheduler } from '../../../src-main/core/scheduler/index.ts';
import { tempStore, type TempStore } from '../store/temp-store.ts';

let t: TempStore | undefined;
let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  t?.dispose();
});

/** The apply service with a scheduler that only records what it was asked to start. */
function setup(automation: { refusePosts: boolean; status: HeartbeatStatus }) {
  t = tempStore();
  const started: BatchTask[][] = [];
  const scheduler: Pick<Scheduler, 'startJob'> = {
    startJob(tasks) {
      started.push([...tasks]);
      const progress = { jobId: 'j', state: 'done' as const, itemsTotal: 0, itemsDone: 0, itemsFailed: 0, itemsUnknown: 0, itemsLeft: 0, requestsSent: 0, etaMs: 0, startedAt: 0 };
      // A job that never ends: this test is about whether one starts.
      return { id: 'j', progress: () => progress, on: () => () => undefined, pause() {}, resume() {}, cancel() {}, add() {}, done: new Promise(() => undefined) };
    },
  };
  const drafts = createDraftService({ store: t.store, repos: t.repos });
  stop = () => drafts.dispose();
  const apply = createApplyService({
    store: t.store, repos: t.repos, drafts, scheduler,
    automation: { refusePosts: () => automation.refusePosts, status: () => automation.status },
  });
  const { id } = drafts.create('one listing');
  drafts.addChanges(id, [{ kind: 'listing.create', asset_id: '12345678901', price: 100, promoted: 0 }]);
  return { apply, drafts, draftId: id, started };
}

describe('never post while automation is off, in core', () => {
  for (const status of ['lapsed', 'off'] as const) {
    it(`refuses an apply while the heartbeat is ${status}, before anything is journaled or sent`, () => {
      const { apply, drafts, draftId, started } = setup({ refusePosts: true, status });
      expect(() => apply.apply(draftId)).toThrow(expect.objectContaining({ kind: 'conflict', message: expect.stringMatching(/Automation is not active/) }));
      expect(started).toEqual([]);
      expect(t?.repos.journal.runs()).toEqual([]);
      expect(drafts.entries(draftId).map((e) => e.status)).toEqual(['pending']);
    });
  }

  it('applies while the mark is still on (expiring)', () => {
    const { apply, draftId, started } = setup({ refusePosts: true, status: 'expiring' });
    apply.apply(draftId);
    expect(started).toHaveLength(1);
  });

  it('applies while automation is off when the trader allowed it', () => {
    const { apply, draftId, started } = setup({ refusePosts: false, status: 'off' });
    apply.apply(draftId);
    expect(started).toHaveLength(1);
  });
});
