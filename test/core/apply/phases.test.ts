import { afterEach, describe, expect, it } from 'vitest';
import { createJournal } from '../../../src-main/core/apply/journal.ts';
import { advance, type PhaseDeps, type WaitingMemo } from '../../../src-main/core/apply/phases.ts';
import { createDraftService, type DraftService } from '../../../src-main/core/drafts/draft-service.ts';
import { LINKED, tempStore, type TempStore } from '../store/temp-store.ts';
import type { ChangeInput } from '../../../src-shared/drafts.ts';

/**
 * Planning a run phase by phase, with each run's waiting groups kept between
 * plannings (a place per group) or read afresh each time: the same batches in
 * the same order, deletes before the creates that need them, every change
 * planned once, also after a planning rolled back with its transaction.
 */
const open: { t: TempStore; drafts: DraftService }[] = [];
afterEach(() => {
  for (const o of open.splice(0)) {
    o.drafts.dispose();
    o.t.dispose();
  }
});

function startedRun() {
  const t = tempStore();
  const drafts = createDraftService({ store: t.store, repos: t.repos });
  open.push({ t, drafts });
  t.repos.listings.upsertMany(Array.from({ length: 300 }, (_, i) => ({
    asset_id: String(5_000 + i), listing_id: `L${i}`, sku: '5021;6', price: 100, promoted: 0 as const, game: '440', account: t.repos.accounts.main()?.account_id ?? '',
  })));
  const { id } = drafts.create('phases');
  const errors = drafts.addChanges(id, [
    // Relists: the delete of each asset goes in phase 1, its create in phase 2.
    ...Array.from({ length: 230 }, (_, i): ChangeInput => ({ kind: 'listing.delete', asset_id: String(5_000 + i) })),
    ...Array.from({ length: 230 }, (_, i): ChangeInput => ({ kind: 'listing.create', asset_id: String(5_000 + i), price: 200, promoted: 0 })),
    ...Array.from({ length: 70 }, (_, i): ChangeInput => ({ kind: 'listing.edit', asset_id: String(5_230 + i), price: 300 })),
    ...Array.from({ length: 150 }, (_, i): ChangeInput => ({ kind: 'listing.create', asset_id: String(9_000 + i), price: 400, promoted: 1 })),
    // Creates for a linked account go in requests of their own (its proxy).
    ...Array.from({ length: 40 }, (_, i): ChangeInput => ({ kind: 'listing.create', asset_id: String(9_500 + i), price: 500, promoted: 0, account: LINKED })),
  ]).errors;
  expect(errors).toEqual([]);
  return { t, id };
}

/** Plans until nothing is left, each batch done before the next planning; what was planned, in order. */
function planAll(t: TempStore, draftId: string, waiting: WaitingMemo | undefined, rollBackFirst = false): { phase: number; endpoint: string; targets: string[] }[] {
  const deps: PhaseDeps = { repos: t.repos, db: t.store.db, touched: () => undefined, ...(waiting ? { waiting } : {}) };
  const journal = createJournal(t.store, deps);
  const run = journal.startRun(draftId);
  while (!journal.queueMore(run.run_id));
  if (rollBackFirst) expect(() => t.store.transaction(() => {
    expect(advance(run, deps, 2).length).toBeGreaterThan(0);
    throw new Error('the disk is full');
  })).toThrow('the disk is full');
  const planned: { phase: number; endpoint: string; targets: string[] }[] = [];
  for (let tasks = advance(run, deps, 2); tasks.length > 0; tasks = advance(run, deps, 2)) {
    for (const task of tasks) {
      const b = t.repos.journal.batch(task.id);
      if (!b) throw new Error('no batch');
      // Nothing of a later phase while an earlier one has a change waiting.
      expect(t.repos.drafts.queuedWithoutBatch(draftId) === 0 || b.phase <= Math.min(...pendingPhases(t, draftId))).toBe(true);
      planned.push({ phase: b.phase, endpoint: b.endpoint, targets: [...b.targets] });
      t.repos.journal.setBatchState(task.id, 'done', { status: 'done' });
      t.repos.drafts.setStatus(draftId, b.targets, 'done', null);
    }
  }
  return planned;
}

/** The phases of the changes still waiting (a create of an asset the draft also deletes is phase 2). */
function pendingPhases(t: TempStore, draftId: string): number[] {
  const rows = t.store.db.prepare(`SELECT e.kind, EXISTS (SELECT 1 FROM draft_entries d WHERE d.draft_id = e.draft_id AND d.slot = 'LD' AND d.key = e.key) AS relist
    FROM draft_entries e WHERE e.draft_id = ? AND e.status = 'queued' AND e.batch_id IS NULL`).all(draftId) as { kind: string; relist: number }[];
  return rows.map((r) => (r.kind === 'listing.create' && r.relist ? 2 : 1));
}

describe('planning a run phase by phase', () => {
  it('plans the same batches with the waiting groups kept as read afresh, every change once and deletes first', () => {
    const a = startedRun();
    const b = startedRun();
    const kept = planAll(a.t, a.id, new Map());
    const fresh = planAll(b.t, b.id, undefined);
    expect(kept).toEqual(fresh);
    const targets = kept.flatMap((p) => p.targets);
    expect(new Set(targets).size).toBe(targets.length);
    expect(targets).toHaveLength(230 + 230 + 70 + 150 + 40);
    // The relists' creates come after every delete.
    const lastDelete = kept.findLastIndex((p) => p.endpoint === 'delete_listing');
    const firstRelist = kept.findIndex((p) => p.phase === 2);
    expect(firstRelist).toBeGreaterThan(lastDelete);
    // The linked account's creates went in batches of their own.
    const linked = new Set(Array.from({ length: 40 }, (_, i) => `L:${9_500 + i}`));
    const linkedBatches = kept.filter((p) => p.targets.some((t) => linked.has(t)));
    expect(linkedBatches.length).toBeGreaterThan(0);
    expect(linkedBatches.every((p) => p.targets.every((t) => linked.has(t)))).toBe(true);
  });

  it('plans every change once after a planning rolled back with its transaction', () => {
    const a = startedRun();
    const planned = planAll(a.t, a.id, new Map(), true);
    const targets = planned.flatMap((p) => p.targets);
    expect(new Set(targets).size).toBe(targets.length);
    expect(targets).toHaveLength(230 + 230 + 70 + 150 + 40);
    expect(a.t.repos.drafts.statusCounts(a.id)).toEqual({ done: 720 });
  });
});
