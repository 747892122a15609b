import { afterEach, describe, expect, it } from 'vitest';
import { startRun, type RunDeps } from '../../../src-main/core/apply/apply-run.ts';
import { createJournal } from '../../../src-main/core/apply/journal.ts';
import type { ListingSends } from '../../../src-main/core/apply/listing-sends.ts';
import { advance, type PhaseDeps } from '../../../src-main/core/apply/phases.ts';
import { createDraftService, type DraftService } from '../../../src-main/core/drafts/draft-service.ts';
import type { BatchOutcome, BatchTask, Job, JobOptions } from '../../../src-main/core/scheduler/index.ts';
import { tempStore, type TempStore } from '../store/temp-store.ts';

/**
 * How a run's job journals an outcome: the batch is settled in the turn of
 * the event loop its answer came in, and the next batches are planned in the
 * turn after, so what else is due meanwhile (a page, a beat) runs between
 * the two instead of waiting behind both.
 */
let t: TempStore;
let drafts: DraftService;
afterEach(() => {
  drafts.dispose();
  t.dispose();
});

const quietSends: ListingSends = { turn: async () => undefined, done: () => undefined, readTrades: () => undefined, waiting: () => null, on: () => () => undefined };

describe('an apply run\u2019s outcomes', () => {
  it('plans the next batches only after the timers due when a batch was settled have run', async () => {
    t = tempStore();
    drafts = createDraftService({ store: t.store, repos: t.repos });
    const { id } = drafts.create('d');
    drafts.addChanges(id, Array.from({ length: 300 }, (_, i) => ({ kind: 'listing.create', asset_id: String(100 + i), price: 10, promoted: 0 })));
    const phaseDeps: PhaseDeps = { repos: t.repos, db: t.store.db, touched: (d, targets) => drafts.refresh(d, targets), waiting: new Map() };
    const journal = createJournal(t.store, phaseDeps);
    const run = journal.startRun(id);
    const [task] = advance(run, phaseDeps, 1, 1);
    if (!task) throw new Error('no batch planned');
    let options: JobOptions | undefined;
    const job = { on: () => () => undefined, progress: () => ({ state: 'running' }), done: new Promise(() => undefined) } as unknown as Job;
    const deps: RunDeps = {
      store: t.store, repos: t.repos, journal, quantities: null, sends: quietSends, emitter: { emit: () => undefined },
      scheduler: { startJob: (_tasks: readonly BatchTask[], o: JobOptions) => ((options = o), job) } as unknown as RunDeps['scheduler'],
      suspended: () => false, waiting: () => 0, ended: () => undefined,
    };
    startRun(deps, run, [task]);
    journal.prepareSend(task.id);
    const items = (t.repos.journal.batch(task.id)?.input as { items: { asset_id: string }[] }).items;
    const outcome: BatchOutcome = { status: 'done', response: { success: true, created_listings: items.map((i) => ({ listing_id: `L${i.asset_id}`, sku: 'x;y', asset_id: i.asset_id })) } };
    const planned = () => t.repos.journal.batches({ runId: run.run_id, states: ['planned'] }).length;

    // A timer due as the answer is read (as a page asked meanwhile is): it finds the batch settled and nothing planned yet.
    let seen: { state: string | undefined; planned: number } | null = null;
    setTimeout(() => (seen = { state: t.repos.journal.batch(task.id)?.state, planned: planned() }), 0);
    const answer = await options?.onOutcome?.(task, outcome);
    expect(seen).toEqual({ state: 'done', planned: 0 });
    // The next batches follow, planned in the turn after and handed to the job.
    const followUps = (answer as { followUps: readonly BatchTask[] }).followUps;
    expect(followUps.length).toBeGreaterThan(0);
    expect(followUps.map((f) => f.id).sort()).toEqual(t.repos.journal.batches({ runId: run.run_id, states: ['planned'] }).map((b) => b.batch_id).sort());
  });
});
