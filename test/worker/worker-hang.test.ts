import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BroadcastChannel, Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src-main/sandbox/index.ts';
import type { DeskConnection } from '../../src-main/main-thread/desk-connection.ts';
import { auditApply } from '../core/apply/apply-audit.ts';
import { until } from '../desktop/boot-support.ts';
import { call } from '../support/router-call.ts';
import { openApplyDesk } from './apply-desk.ts';

/**
 * The data worker stops answering mid-apply (its thread spins for good, as a
 * hung step would): main's liveness check finds it within the stated time,
 * ends it and starts it again through the same path as a worker that died,
 * and the apply resumes from its journal. Afterwards: no listing created
 * twice, no change lost, every change applied or shown as an unknown outcome.
 */
const SCALE = 25;
const HANGS = 2;
const LIVENESS = { pingEveryMs: 200, hangAfterMs: 1_500 };
const HANGING_WORKER = new URL('./hanging-desk-worker.ts', import.meta.url);

const dir = mkdtempSync(join(tmpdir(), 'desk-worker-hang-'));
let sandbox: Sandbox | undefined;
let connection: DeskConnection | undefined;
afterAll(async () => {
  await connection?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a data worker that stops answering mid-apply', () => {
  it('is found within the stated time, ended and restarted, and the apply resumes from its journal', async () => {
    const hangChannel = `desk-worker-hang-${process.pid}-${Date.now()}`;
    const hang = new BroadcastChannel(hangChannel);
    const opened = await openApplyDesk(dir, { scale: SCALE, seed: 12, spawn: () => new Worker(HANGING_WORKER, { workerData: { hangChannel } }), liveness: LIVENESS });
    ({ sandbox, connection } = opened);
    const { path, draft, clock } = opened;
    const desk = connection;
    const jobState = async () => (await call(desk.router, 'apply:state', {})).job?.state;
    await call(desk.router, 'drafts:apply', { draftId: draft.draftId });

    const foundAfter: number[] = [];
    try {
      for (let i = 0; i < HANGS; i++) {
        await until('the apply to run', async () => (await jobState()) === 'running', 30_000);
        await new Promise((r) => setTimeout(r, 600));
        const states: string[] = [];
        const off = desk.desk.on('store', (s) => states.push(s));
        const hungAt = Date.now();
        hang.postMessage('hang');
        // A call made to the hung worker is refused as busy once it is ended, never left hanging.
        const during = await desk.router.invoke('apply:state', {});
        if (!during.ok) expect(during.error.kind).toBe('busy');
        await until('the hung worker to be ended', () => states.includes('restarting'), 30_000);
        foundAfter.push(Date.now() - hungAt);
        await until('the worker to be back', () => desk.desk.storeState() === 'ready', 30_000);
        off();
      }
    } finally {
      hang.close();
    }
    sandbox.faults.clear();
    await until('the resumed apply to end', async () => (await jobState()) === 'done', 120_000);

    const audit = auditApply(path, draft.draftId, sandbox, clock);
    console.log(`worker hang test: ${JSON.stringify({ ...audit.counts, hangs: HANGS, foundAfterMs: foundAfter })}`);
    // Found within a ping interval and the silence allowed, plus the moments it takes to end a thread.
    for (const ms of foundAfter) expect(ms).toBeLessThan(LIVENESS.pingEveryMs + LIVENESS.hangAfterMs + 2_000);
    const hangsLogged = opened.errors.filter((e) => e.message.includes('stopped answering') && typeof e.fields?.silentMs === 'number');
    expect(hangsLogged).toHaveLength(HANGS);
    expect(opened.errors.filter((e) => e.message === 'data worker stopped')).toHaveLength(HANGS);
    expect(audit.counts.applied).toBeGreaterThan(0);
    expect(audit.counts.changes).toBe(draft.changes);
    expect(audit.counts.duplicateCreates).toBe(0);
    expect(audit.counts.duplicateBuyOrderCreates).toBe(0);
    expect(audit.counts.lost).toBe(0);
    expect(audit.counts.otherFailed).toBe(0);
    expect(audit.mismatches).toEqual([]);
    expect(audit.unknownNotShown).toEqual([]);
    const shown = await call(desk.router, 'apply:unknownOutcomes', {});
    expect(shown.outcomes).toHaveLength(audit.counts.unknownBatches);
  }, 180_000);
});
