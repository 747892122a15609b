import { afterEach, describe, expect, it } from 'vitest';
import type { ApplyHandle } from '../../../src-main/core/apply/apply-run.ts';
import { createJournal } from '../../../src-main/core/apply/journal.ts';
import { AHEAD, type PhaseDeps } from '../../../src-main/core/apply/phases.ts';
import { planThenQueue } from '../../../src-main/core/apply/run-planning.ts';
import type { BatchTask } from '../../../src-main/core/scheduler/index.ts';
import { createDraftService, type DraftService } from '../../../src-main/core/drafts/draft-service.ts';
import { tempStore, type TempStore } from '../store/temp-store.ts';

/**
 * A new run's steps as it starts: its first batch at once, then its changes
 * queued a part a step, and only then its window topped up a batch a step,
 * so a step of each never shares a turn of the event loop.
 */
let t: TempStore;
let drafts: DraftService;
afterEach(() => {
  drafts.dispose();
  t.dispose();
});

describe('a new run\u2019s first steps', () => {
  it('tops up the window only once every change is queued, however long queuing takes', async () => {
    t = tempStore();
    drafts = createDraftService({ store: t.store, repos: t.repos });
    const { id } = drafts.create('d');
    drafts.addChanges(id, Array.from({ length: 900 }, (_, i) => ({ kind: 'listing.create', asset_id: String(100 + i), price: 10, promoted: 0 })));
    const phaseDeps: PhaseDeps = { repos: t.repos, db: t.store.db, touched: () => undefined, waiting: new Map() };
    const journal = createJournal(t.store, phaseDeps);
    const run = journal.startRun(id);
    // Queuing that takes forty steps (each a turn of the event loop, longer than the first requests are given).
    const steps: string[] = [];
    let parts = 0;
    const queueMore = () => {
      parts += 1;
      steps.push('queue');
      return parts >= 40 && journal.queueMore(run.run_id);
    };
    const job = { add: (tasks: readonly BatchTask[]) => void steps.push(...tasks.map(() => 'plan')) };
    const handle = { runId: run.run_id, draftId: id, job } as unknown as ApplyHandle;
    await new Promise<void>((resolve) => planThenQueue({ store: t.store, journal: { queueMore }, phaseDeps, goesOn: () => true }, run, handle, resolve));
    for (let step = 0; step < 2 * AHEAD; step++) await new Promise((resolve) => setImmediate(resolve));
    // The first batch before anything else; every other after the last part is queued; the window full in the end.
    expect(steps[0]).toBe('plan');
    const lastQueued = steps.lastIndexOf('queue');
    expect(steps.slice(1, lastQueued).filter((s) => s === 'plan')).toEqual([]);
    expect(steps.filter((s) => s === 'plan')).toHaveLength(AHEAD);
  });
});
