import { describe, expect, it } from 'vitest';
import type { ApplyProgress } from '../../../src-main/core/apply/apply-run.ts';
import { ENDPOINTS, type EndpointName } from '../../../src-main/core/api/endpoints.ts';
import { applyJobView } from '../../../src-main/ipc/views.ts';
import { describeError } from '../../../src-renderer/src/lib/error-text.ts';
import { auditApply, prepareApplyProfile, type DraftSizes } from './apply-audit.ts';
import { applyFixture } from './support.ts';

/**
 * The disk fills up in the middle of an apply: SQLite itself answers
 * "database or disk is full" (the store's page limit, set the moment a
 * create leaves, so its answer cannot be journaled). The apply pauses with
 * the reason, sends nothing while it waits, and goes on by itself once
 * there is room; afterwards the profile and the service agree on every
 * change, none lost and none created twice.
 */
const SIZES: DraftSizes = { edits: 300, deletes: 100, relists: 20, creates: 500, linkedCreates: 100, buyOrders: 100, linkedBuyOrders: 50 };

// A service minute lasts 0.1 s.
const hooks: { onSend?: (endpoint: EndpointName) => void } = {};
const start = applyFixture(600, { live: { onSend: (endpoint) => hooks.onSend?.(endpoint) } });

describe('an apply on a disk that fills up', () => {
  it('pauses with "the disk is full", resumes once space is freed, and loses or duplicates nothing', async () => {
    const s = await start();
    const { sandbox, clock } = s.live;
    const { draftId, changes } = prepareApplyProfile(s.t.path, sandbox, clock, SIZES);
    s.restart();
    const store = s.t.store;
    let creates = 0;
    hooks.onSend = (endpoint) => {
      // The third create leaves with its "sent" journaled; the file may not grow from here on.
      if (endpoint === 'create_listing' && ++creates === 3) store.setPageLimit(0);
    };
    const seen: ApplyProgress[] = [];
    let paused: (p: ApplyProgress) => void = () => undefined;
    const pausedSeen = new Promise<ApplyProgress>((resolve) => (paused = resolve));
    s.apply.on('progress', (p) => {
      seen.push(p);
      if (p.state === 'paused' && p.storeProblem) paused(p);
    });

    const handle = s.apply.apply(draftId);
    const pause = await pausedSeen;
    expect(pause.storeProblem).toEqual({ kind: 'disk_full', message: expect.stringMatching(/^The disk is full/) });
    // What the trader reads: a sentence, not "Something went wrong".
    const view = applyJobView(pause);
    expect(view?.storeProblem && describeError(view.storeProblem)).toBe(
      'The disk is full: free some space. Nothing saved was lost, and the desk carries on once there is room.',
    );

    // Paused: what was on its way lands, then no write is sent, for several service minutes. (A step that
    // finds room after all, in pages another step freed, lets the job go on until the next one fails.)
    const writes = () => sandbox.log.requests.filter((r) => r.endpoint !== null && ENDPOINTS[r.endpoint].write).length;
    let quiet = false;
    for (let tries = 0; tries < 10 && !quiet; tries++) {
      await clock.sleep(60_000);
      const before = { sent: handle.progress().requestsSent, landed: writes() };
      await clock.sleep(5 * 60_000);
      const after = handle.progress();
      quiet = after.state === 'paused' && after.requestsSent === before.sent && writes() === before.landed && before.landed === before.sent;
    }
    expect(quiet).toBe(true);
    expect(handle.progress()).toMatchObject({ state: 'paused', storeProblem: { kind: 'disk_full' } });
    // The store still answers while it waits.
    expect(s.t.repos.drafts.statusCounts(draftId).queued).toBeGreaterThan(0);

    // Space freed: the apply resumes by itself, with no restart.
    store.setPageLimit(null);
    const final = await handle.done;
    expect(final.state).toBe('done');
    expect(final.storeProblem).toBeUndefined();
    expect(seen.some((p) => p.state === 'running' && p.requestsSent > pause.requestsSent)).toBe(true);

    const audit = auditApply(s.t.path, draftId, sandbox, clock);
    expect(audit.counts).toMatchObject({
      changes, applied: changes, lost: 0, unknownOutcome: 0, otherFailed: 0,
      appliedButNotOnService: 0, duplicateCreates: 0, duplicateBuyOrderCreates: 0,
    });
    // Every create the service saw was sent once: one request per journaled create batch.
    const createRequests = sandbox.log.requests.filter((r) => r.endpoint === 'create_listing' && r.status === 200).length;
    const createBatches = (store.db.prepare("SELECT count(*) AS n FROM apply_batches WHERE endpoint = 'create_listing'").get() as { n: number }).n;
    expect(createRequests).toBe(createBatches);
    // The store is usable again: a draft can be made.
    expect(s.drafts.create('after').id).toBeTruthy();
  });
});
