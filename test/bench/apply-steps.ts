/**
 * The steps an apply of a 47,000-change draft takes on the data worker's one
 * thread before and between its requests, each timed: planning its first
 * batch and queuing its changes a part at a time as it starts, then journaling
 * each outcome (here every batch answered done at once), then planning the
 * batch that takes its place, on a step of its own as the apply does. The
 * goal is that no step holds the thread more than about 20 ms. Run:
 * `node --experimental-strip-types test/bench/apply-steps.ts` (BENCH_CHANGES
 * for another draft size).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createJournal } from '../../src-main/core/apply/journal.ts';
import { advance, AHEAD, AHEAD_AT_START, type PhaseDeps } from '../../src-main/core/apply/phases.ts';
import { openStore } from '../../src-main/core/store/db.ts';
import { createRepos } from '../../src-main/core/store/index.ts';
import { BENCH_MAIN } from './bench-ledger.ts';
import { seedProfile } from './scale/seed-profile.ts';

const CHANGES = Number(process.env.BENCH_CHANGES ?? 47_000);

const dir = mkdtempSync(join(tmpdir(), 'desk-apply-steps-'));
try {
  const path = join(dir, 'default.sqlite');
  const seeded = seedProfile(path, {
    account: BENCH_MAIN, settings: {}, serviceListings: [], listings: CHANGES + 3_000, draftChanges: CHANGES, applyDraft: false,
  });
  if (!seeded.bigDraft) throw new Error('no draft was seeded');
  const draftId = seeded.bigDraft;
  const store = openStore(path);
  const repos = createRepos(store);
  const deps: PhaseDeps = { repos, db: store.db, touched: () => undefined, waiting: new Map() };
  const journal = createJournal(store, deps);

  const timed = <T>(steps: number[], step: () => T): T => {
    const t = performance.now();
    const result = step();
    steps.push(performance.now() - t);
    return result;
  };
  // As the apply starts: the run journaled with a first part of its changes queued (Apply answers), its first batch
  // planned on the next step (the first request leaves), the rest queued a part a step, the window topped up a batch
  // a step; then each outcome journaled (the service's answer: done), which plans the batch that takes its place.
  const queueSteps: number[] = [];
  const planSteps: number[] = [];
  const outcomeSteps: number[] = [];
  const nextSteps: number[] = [];
  const open: string[] = [];
  const run = timed(queueSteps, () => journal.startRun(draftId));
  open.push(...timed(planSteps, () => store.transaction(() => advance(run, deps, AHEAD_AT_START))).map((t) => t.id));
  const firstBatchMs = (queueSteps[0] ?? 0) + (planSteps[0] ?? 0);
  while (!timed(queueSteps, () => journal.queueMore(run.run_id)));
  for (let ahead = AHEAD_AT_START + 1; ahead <= AHEAD; ahead++) {
    open.push(...timed(planSteps, () => store.transaction(() => advance(run, deps, ahead))).map((t) => t.id));
  }
  let batches = open.length;
  for (let id = open.shift(); id !== undefined; id = open.shift()) {
    journal.prepareSend(id);
    const { followUps } = timed(outcomeSteps, () => journal.recordOutcome(id, { status: 'done', response: { success: true } }));
    // The batch that takes its place is planned on a step of its own, as the apply does (apply-run.ts, planLater).
    const next = [...followUps, ...timed(nextSteps, () => journal.planNext(run.run_id))];
    open.push(...next.map((t) => t.id));
    batches += next.length;
  }
  if (repos.drafts.statusCounts(draftId).done !== CHANGES) throw new Error(`not every change was recorded done: ${JSON.stringify(repos.drafts.statusCounts(draftId))}, ${batches} batches`);
  store.close();

  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const figure = (xs: number[]) => {
    const s = sorted(xs);
    return `${s.length} steps, median ${(s[Math.floor((s.length - 1) / 2)] ?? 0).toFixed(1)} ms, max ${(s.at(-1) ?? 0).toFixed(1)} ms`;
  };
  const queuedMs = queueSteps.reduce((a, b) => a + b, 0);
  console.log(`An apply of ${CHANGES.toLocaleString('en')} price edits (goal: no step over about 20 ms)`);
  console.log(`  its first batch planned ${firstBatchMs.toFixed(0)} ms after Apply (two steps: the run journaled, then planned)`);
  console.log(`  queuing its changes as it starts: ${figure(queueSteps)} (${queuedMs.toFixed(0)} ms in all)`);
  console.log(`  planning its first batches (one, then the window topped up to ${AHEAD}): ${figure(planSteps)}`);
  console.log(`  journaling each of its ${batches} outcomes (ledger, undo record, draft, activity): ${figure(outcomeSteps)}`);
  console.log(`  planning the batch that takes each one's place: ${figure(nextSteps)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
