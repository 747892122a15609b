import { afterEach, describe, expect, it } from 'vitest';
import { startRun, type RunDeps } from '../../../src-main/core/apply/apply-run.ts';
import { createJournal } from '../../../src-main/core/apply/journal.ts';
import type { ListingSends } from '../../../src-main/core/apply/listing-sends.ts';
import { advance, type PhaseDeps } from '../../../src-main/core/apply/phases.ts';
import { createDraftService, type DraftService } from '../../../src-main/core/drafts/draft-service.ts';
import type { BatchOutcome, BatchTask, Job, JobOptions } from '../../../src-main/core/scheduler/index.ts';
import { tempStore, type TempStore } from '../store/temp-store.ts';

/**
 * How a run's job journals its batches: an outcome is settled in the turn of
 * the event loop its answer came in, the next batches are planned in a turn
 * after it, and each batch (the run's first too) is checked and journaled as
 * sent in a turn after the one that let it go, so what else is due meanwhile
 * (a page, a beat) runs between them instead of waiting behind all of them.
 */
let t: TempStore;
let drafts: DraftService;
afterEach(() => {
  drafts.dispose();
  t.dispose();
});

const quietSends: ListingSends = { turn: async () => undefined, done: () => undefined, readTrades: () => undefined, waiting: () => null, on: () => () => undefined };

/** A run of 300 creates with its first `planned` batches, its job's options as the scheduler is given them. */
function setup(planned: number) {
  t = tempStore();
  drafts = createDraftService({ store: t.store, repos: t.repos });
  const { id } = drafts.create('d');
  drafts.addChanges(id, Array.from({ length: 300 }, (_, i) => ({ kind: 'listing.create', asset_id: String(100 + i), price: 10, promoted: 0 })));
  const phaseDeps: PhaseDeps = { repos: t.repos, db: t.store.db, touched: (d, targets) => drafts.refresh(d, targets), waiting: new Map() };
  const journal = createJournal(t.store, phaseDeps);
  const run = journal.startRun(id);
  const tasks = advance(run, phaseDeps, planned, planned);
  let options: JobOptions | undefined;
  const job = { on: () => () => undefined, progress: () => ({ state: 'running' }), done: new Promise(() => undefined) } as unknown as Job;
  const deps: RunDeps = {
    store: t.store, repos: t.repos, journal, quantities: null, sends: quietSends, emitter: { emit: () => undefined },
    scheduler: { startJob: (_tasks: readonly BatchTask[], o: JobOptions) => ((options = o), job) } as unknown as RunDeps['scheduler'],
    suspended: () => false, waiting: () => 0, ended: () => undefined,
  };
  startRun(deps, run, tasks);
  if (!options) throw new Error('no job started');
  const state = (task: BatchTask) => t.repos.journal.batch(task.id)?.state;
  return { run, journal, tasks, options, state };
}

/** What a timer due now finds when it runs (as a page asked meanwhile is answered). */
function atTheTimers<T>(look: () => T): { seen: T | null } {
  const at: { seen: T | null } = { seen: null };
  setTimeout(() => (at.seen = look()), 0);
  return at;
}

describe('an apply run\u2019s steps', () => {
  it('plans the next batches only after the timers due when a batch was settled have run', async () => {
    const { run, journal, tasks: [task], options, state } = setup(1);
    if (!task) throw new Error('no batch planned');
    journal.prepareSend(task.id);
    const items = (t.repos.journal.batch(task.id)?.input as { items: { asset_id: string }[] }).items;
    const outcome: BatchOutcome = { status: 'done', response: { success: true, created_listings: items.map((i) => ({ listing_id: `L${i.asset_id}`, sku: 'x;y', asset_id: i.asset_id })) } };
    const planned = () => t.repos.journal.batches({ runId: run.run_id, states: ['planned'] });

    // It finds the batch settled and nothing planned yet.
    const timer = atTheTimers(() => ({ state: state(task), planned: planned().length }));
    const answer = await options.onOutcome?.(task, outcome);
    expect(timer.seen).toEqual({ state: 'done', planned: 0 });
    // The next batches follow, planned in the turn after and handed to the job.
    const followUps = (answer as { followUps: readonly BatchTask[] }).followUps;
    expect(followUps.length).toBeGreaterThan(0);
    expect(followUps.map((f) => f.id).sort()).toEqual(planned().map((b) => b.batch_id).sort());
  });

  it('journals each batch as sent, the run\u2019s first too, only once the timers due then have run', async () => {
    const { tasks: [first, second], options, state } = setup(2);
    if (!first || !second) throw new Error('two batches were to be planned');
    // The first is let go in the turn that planned it (the run's code cold): its check waits for the timers too.
    const atFirst = atTheTimers(() => state(first));
    await options.beforeSend?.(first);
    expect(atFirst.seen).toBe('planned');
    expect(state(first)).toBe('sent');
    const atSecond = atTheTimers(() => state(second));
    await options.beforeSend?.(second);
    expect(atSecond.seen).toBe('planned');
    expect(state(second)).toBe('sent');
  });
});
