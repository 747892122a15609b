import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src-main/sandbox/index.ts';
import { createRandom } from '../../src-main/sandbox/catalog/prng.ts';
import type { DeskConnection } from '../../src-main/main-thread/desk-connection.ts';
import { auditApply, batchesInFlight } from '../core/apply/apply-audit.ts';
import { until } from '../desktop/boot-support.ts';
import { call } from '../support/router-call.ts';
import { openApplyDesk } from './apply-desk.ts';
import { DESK_WORKER } from './desk-worker-entry.ts';

/**
 * The data worker alone dies mid-apply, as the app runs it: the main thread's
 * connection stays, the worker is killed at seeded random moments while
 * batches are on their way, and each time it is started again, reopens the
 * store and resumes the apply through the journal. Afterwards: no listing
 * created twice, no change lost, every change applied or shown as an unknown
 * outcome with its choices.
 */
const SCALE = 25; // a service minute lasts 2.4 s
const KILLS = 5;
const SEED = 20_261_122;

const dir = mkdtempSync(join(tmpdir(), 'desk-worker-kill-'));
let sandbox: Sandbox | undefined;
let connection: DeskConnection | undefined;
afterAll(async () => {
  await connection?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the data worker killed mid-apply', () => {
  it('is restarted, resumes the apply from its journal, creates nothing twice and loses nothing', async () => {
    // Writes take 20 s of service time, 0.8 s here, so most kills land on requests in flight.
    const opened = await openApplyDesk(dir, { scale: SCALE, seed: 9, spawn: () => new Worker(DESK_WORKER) });
    ({ sandbox, connection } = opened);
    const { path, draft, clock } = opened;
    const errors = () => opened.errors.map((e) => e.message);
    const desk = connection;
    const sentBatches = () => batchesInFlight(path);

    await call(desk.router, 'drafts:apply', { draftId: draft.draftId });
    const jobState = async () => (await call(desk.router, 'apply:state', {})).job?.state;
    const random = createRandom(SEED);
    let kills = 0;
    let killedInFlight = 0;
    // Kill at random moments of each start's apply, until it has ended (a kill turns the batches on their way into unknown outcomes).
    while (kills < KILLS) {
      await until('the apply to run, or to end', async () => ['running', 'done'].includes((await jobState()) ?? ''), 30_000);
      if ((await jobState()) === 'done') break;
      await new Promise((r) => setTimeout(r, 300 + Math.floor(random() * 1_200)));
      if (sentBatches() > 0) killedInFlight += 1;
      await desk.kill();
      kills += 1;
      await until('the worker to be back', () => desk.desk.storeState() === 'ready', 30_000);
    }
    sandbox.faults.clear();
    await until('the resumed apply to end', async () => (await call(desk.router, 'apply:state', {})).job?.state === 'done', 120_000);

    const audit = auditApply(path, draft.draftId, sandbox, clock);
    console.log(`worker kill test: ${JSON.stringify({ ...audit.counts, kills, killedWithBatchesInFlight: killedInFlight })}`);
    expect(errors().filter((m) => m === 'data worker stopped')).toHaveLength(kills);
    expect(killedInFlight).toBeGreaterThanOrEqual(2);
    // Each start got work done before it was killed: the journal carried it over.
    expect(audit.counts.applied).toBeGreaterThan(0);
    expect(audit.counts.changes).toBe(draft.changes);
    expect(audit.counts.duplicateCreates).toBe(0);
    expect(audit.counts.duplicateBuyOrderCreates).toBe(0);
    expect(audit.counts.lost).toBe(0);
    expect(audit.counts.otherFailed).toBe(0);
    expect(audit.mismatches).toEqual([]);
    expect(audit.unknownNotShown).toEqual([]);
    expect(audit.unknownBatches.every((u) => u.choices.length > 0)).toBe(true);
    // The screens see the same: every unknown outcome is listed for the trader.
    const shown = await call(desk.router, 'apply:unknownOutcomes', {});
    expect(shown.outcomes).toHaveLength(audit.counts.unknownBatches);
    expect(audit.keyInProfile).toBe(false);
  }, 180_000);
});
