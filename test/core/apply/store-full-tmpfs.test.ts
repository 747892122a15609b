import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApplyProgress } from '../../../src-main/core/apply/apply-run.ts';
import type { EndpointName } from '../../../src-main/core/api/endpoints.ts';
import { auditApply, prepareApplyProfile, type DraftSizes } from './apply-audit.ts';
import { applyFixture } from './support.ts';

/**
 * The same apply on a real full disk: the profile lives on a small tmpfs,
 * and the moment a create leaves, a file takes every free byte. SQLite's
 * writes fail as they would on a trader's full disk (ENOSPC, at COMMIT);
 * deleting the file frees the space. Mounting needs root: where it is not
 * permitted the test is skipped and says why (the page-limit test in
 * store-full.test.ts always runs).
 */
const mountPoint = mkdtempSync(join(tmpdir(), 'desk-tmpfs-'));
const skipReason = (() => {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', mountPoint], { stdio: 'pipe' });
    return null;
  } catch {
    return 'mount -t tmpfs is not permitted here (needs root)';
  }
})();
afterAll(() => {
  if (skipReason === null) execFileSync('umount', [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

const SIZES: DraftSizes = { edits: 200, deletes: 50, relists: 10, creates: 400, linkedCreates: 50, buyOrders: 50, linkedBuyOrders: 20 };
const hooks: { onSend?: (endpoint: EndpointName) => void } = {};
const start = applyFixture(600, { parent: mountPoint, live: { onSend: (endpoint) => hooks.onSend?.(endpoint) } });

describe('an apply on a tmpfs that fills up', () => {
  it.skipIf(skipReason !== null)(`pauses, resumes once a file is deleted, and loses or duplicates nothing${skipReason ? ` (skipped: ${skipReason})` : ''}`, async () => {
    const s = await start();
    const { sandbox, clock } = s.live;
    const { draftId, changes } = prepareApplyProfile(s.t.path, sandbox, clock, SIZES);
    s.restart();
    const filler = join(mountPoint, 'filler');
    let creates = 0;
    hooks.onSend = (endpoint) => {
      if (endpoint !== 'create_listing' || ++creates !== 3) return;
      // The WAL starts again from nothing, so its next frames need new space; then none is left.
      s.t.store.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      const free = statfsSync(mountPoint);
      writeFileSync(filler, Buffer.alloc(Number(free.bavail * free.bsize)));
    };
    let paused: (p: ApplyProgress) => void = () => undefined;
    const pausedSeen = new Promise<ApplyProgress>((resolve) => (paused = resolve));
    s.apply.on('progress', (p) => {
      if (p.state === 'paused' && p.storeProblem) paused(p);
    });

    const handle = s.apply.apply(draftId);
    const pause = await pausedSeen;
    expect(pause.storeProblem).toMatchObject({ kind: 'disk_full' });
    expect(statfsSync(mountPoint).bavail).toBe(0);

    rmSync(filler);
    const final = await handle.done;
    expect(final).toMatchObject({ state: 'done' });
    expect(final.storeProblem).toBeUndefined();
    const audit = auditApply(s.t.path, draftId, sandbox, clock);
    expect(audit.counts).toMatchObject({
      changes, applied: changes, lost: 0, unknownOutcome: 0, duplicateCreates: 0, duplicateBuyOrderCreates: 0,
    });
  });
});
