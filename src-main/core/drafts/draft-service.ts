import { z } from 'zod';
import { conflict, notFound, quoted } from '../desk-error.ts';
import { createEmitter, type Unsubscribe } from '../events.ts';
import type { Store } from '../store/db.ts';
import type { Repos } from '../store/index.ts';
import { changeInput, isLockedStatus, targetOf, type Change, type DraftEntry } from './change.ts';
import { planBulk, type BulkDomain, type BulkOp, type RefusedRow, type Selection } from './bulk-ops.ts';
import { createLedgerCache, type LedgerView } from './ledger-view.ts';
import { dependentsOf, mergeChange, type ChangeIssue, type MergeContext } from './merge.ts';
import { applyPatch } from './patch.ts';
import { reviewDraft, type DraftReview } from './review.ts';
import { createPatchFolder, type PatchFolder } from './patch-folder.ts';
import { createEntryIndex, liveEntries, liveEntry, overlay, type WorkingSet } from './working-set.ts';

/**
 * Drafts, edited offline. Every change is validated with the shared field
 * rules and the ledger the moment it is made, and written to the database
 * before the call returns: closing the app, a crash or a week offline loses
 * nothing. The IPC layer and the review/apply code call this service.
 */
export const draftName = z.string().trim().min(1).max(200);

export interface DraftSummary {
  readonly id: string;
  readonly name: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Changes still to apply or resolve (pending, failed, in flight, unknown). */
  readonly changeCount: number;
  readonly failedCount: number;
  readonly unknownCount: number;
  readonly doneCount: number;
}

export interface AddChangesResult {
  readonly added: number;
  /** One per refused input: its index in the call, the row (target) and the field. */
  readonly errors: readonly (ChangeIssue & { readonly index: number })[];
}

export interface BulkResult {
  /** Rows whose value changed. */
  readonly changed: number;
  /** Rows the selection matched. */
  readonly matched: number;
  /** Non-empty means nothing changed. */
  readonly refused: readonly RefusedRow[];
}

export interface DraftServiceDeps {
  store: Store;
  repos: Repos;
  /** Runs folding work later, off the caller's path; default `setImmediate`. */
  defer?: (task: () => void) => void;
}

export interface DraftService {
  list(): DraftSummary[];
  create(name: string): DraftSummary;
  rename(draftId: string, name: string): DraftSummary;
  /** Deletes a draft; refused while any of its changes is in flight or unresolved. */
  discard(draftId: string): void;
  /** The draft's changes in the order they were made (removed ones left out). */
  entries(draftId: string): DraftEntry[];
  addChanges(draftId: string, inputs: readonly unknown[]): AddChangesResult;
  /**
   * What `addChanges` would answer, storing nothing: the CSV import previews
   * a file with the same rules it will be committed with.
   */
  checkChanges(draftId: string, inputs: readonly unknown[]): AddChangesResult;
  removeChanges(draftId: string, targets: readonly string[]): AddChangesResult;
  bulk(draftId: string, domain: BulkDomain, selection: Selection, op: BulkOp): BulkResult;
  /** Folds pending bulk patches into per-change rows now (apply and export call it). */
  flush(draftId: string): void;
  /** The review: diff against the ledger, requests per endpoint, ETA, what delete-alls remove. */
  review(draftId: string, page?: { offset?: number; limit?: number }): DraftReview;
  /** The in-memory draft and ledger, for review and CSV export (read-only use). */
  snapshot(draftId: string): { ws: WorkingSet; ledger: LedgerView };
  /** Re-reads these rows after another module changed them (apply). */
  refresh(draftId: string, targets: readonly string[]): void;
  /**
   * Writes a change as pending without the merge rules: for the apply's
   * resolutions, which add what the trader chose (a delete before a create again).
   */
  putEntry(draftId: string, target: string, change: Change): void;
  on(event: 'changed', listener: (e: { draftId: string }) => void): Unsubscribe;
  dispose(): void;
}

export function createDraftService(deps: DraftServiceDeps): DraftService {
  const { store, repos } = deps;
  const ledger = createLedgerCache(store, repos);
  const sets = new Map<string, WorkingSet>();
  const emitter = createEmitter<{ changed: { draftId: string } }>();
  const folder: PatchFolder = createPatchFolder({ store, repos, sets, defer: deps.defer ?? ((t) => void setImmediate(t)) });

  const requireDraft = (id: string) => {
    const row = repos.drafts.get(id);
    if (!row) throw notFound(`There is no draft ${quoted(id)}; it may have been discarded`);
    return row;
  };

  function load(id: string): WorkingSet {
    const cached = sets.get(id);
    if (cached) return cached;
    requireDraft(id);
    const ws: WorkingSet = { draftId: id, entries: createEntryIndex(repos.drafts.entries(id)), nextSeq: repos.drafts.maxSeq(id) + 1 };
    const patches = repos.drafts.patches(id);
    const view = ledger();
    for (const p of patches) applyPatch(ws, view, p.seq, p.body, store.clock.now());
    sets.set(id, ws);
    if (patches.length > 0) folder.schedule(id);
    return ws;
  }

  const contextOf = (ws: WorkingSet): MergeContext => {
    const accounts = new Set(repos.accounts.list().map((a) => a.account_id));
    return {
      ledger: ledger(),
      live: (t) => liveEntry(ws, t),
      liveEntries: () => liveEntries(ws),
      accountExists: (a) => accounts.has(a),
      mainAccount: repos.accounts.main()?.account_id ?? null,
    };
  };

  const summaryOf = (id: string): DraftSummary => {
    const row = requireDraft(id);
    const counts = { pending: 0, failed: 0, unknown: 0, done: 0, queued: 0, sent: 0 };
    for (const e of load(id).entries.values()) if (e.status !== 'dropped') counts[e.status] += 1;
    return {
      id, name: row.name, createdAt: row.created_at, updatedAt: row.updated_at,
      changeCount: counts.pending + counts.failed + counts.unknown + counts.queued + counts.sent,
      failedCount: counts.failed, unknownCount: counts.unknown, doneCount: counts.done,
    };
  };

  /** Writes rows to disk first, then to memory; a failed write leaves memory untouched. */
  function commit(ws: WorkingSet, writes: readonly DraftEntry[]) {
    if (writes.length === 0) return;
    repos.drafts.writeEntries(ws.draftId, writes);
    for (const e of writes) ws.entries.set(e);
    emitter.emit('changed', { draftId: ws.draftId });
  }

  const tombstone = (ws: WorkingSet, target: string, seq: number, now: number): DraftEntry | null => {
    const e = ws.entries.get(target);
    return e ? { ...e, seq, status: 'dropped', error: null, batchId: null, updatedAt: now } : null;
  };

  /** Merges inputs in order, each seeing the ones before it; returns the rows to write, storing nothing. */
  function stage(ws: WorkingSet, inputs: readonly unknown[]) {
    const ctx = contextOf(ws);
    const errors: (ChangeIssue & { index: number })[] = [];
    const staged = new Map<string, DraftEntry>();
    // Later inputs see earlier ones: merge through an overlay, then write all at once.
    const scratch = overlay(ws, staged);
    const scratchCtx: MergeContext = { ...ctx, live: (t) => liveEntry(scratch, t), liveEntries: () => liveEntries(scratch) };
    const now = store.clock.now();
    let added = 0;
    inputs.forEach((raw, index) => {
      const parsed = changeInput.safeParse(raw);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          errors.push({ index, target: targetHint(raw), field: issue.path.join('.') || 'change', message: issue.message });
        }
        return;
      }
      const outcome = mergeChange(parsed.data, scratchCtx);
      if (!outcome.ok) {
        for (const issue of outcome.issues) errors.push({ index, ...issue });
        return;
      }
      for (const target of outcome.drop) {
        const t = tombstone(scratch, target, scratch.nextSeq++, now);
        if (t) staged.set(target, t);
      }
      for (const c of outcome.write) {
        const e = entryOf(c, scratch.nextSeq++, now);
        staged.set(e.target, e);
      }
      added += 1;
    });
    return { staged, errors, added, nextSeq: scratch.nextSeq };
  }

  const service: DraftService = {
    list: () => repos.drafts.list().map((d) => summaryOf(d.draft_id)),
    create(name) {
      const row = repos.drafts.create(draftName.parse(name));
      return summaryOf(row.draft_id);
    },
    rename(id, name) {
      requireDraft(id);
      repos.drafts.rename(id, draftName.parse(name));
      return summaryOf(id);
    },
    discard(id) {
      const ws = load(id);
      if ([...ws.entries.values()].some((e) => isLockedStatus(e.status))) {
        throw conflict('This draft has changes being applied or with an unknown outcome; let the apply finish and resolve them before discarding it');
      }
      folder.forget(id);
      repos.drafts.remove(id);
      sets.delete(id);
      emitter.emit('changed', { draftId: id });
    },
    entries(id) {
      return [...load(id).entries.values()].filter((e) => e.status !== 'dropped').sort((a, b) => a.seq - b.seq);
    },
    addChanges(id, inputs) {
      const ws = load(id);
      const { staged, errors, added, nextSeq } = stage(ws, inputs);
      commit(ws, [...staged.values()]);
      ws.nextSeq = nextSeq;
      return { added, errors };
    },
    checkChanges(id, inputs) {
      const { errors, added } = stage(load(id), inputs);
      return { added, errors };
    },
    removeChanges(id, targets) {
      const ws = load(id);
      const ctx = contextOf(ws);
      const errors: (ChangeIssue & { index: number })[] = [];
      const writes = new Map<string, DraftEntry>();
      const now = store.clock.now();
      targets.forEach((target, index) => {
        const e = liveEntry(ws, target);
        if (!e) return errors.push({ index, target, field: 'target', message: 'no such change in this draft' });
        if (isLockedStatus(e.status)) return errors.push({ index, target, field: 'status', message: 'this change is being applied or its outcome is unknown; resolve it instead' });
        for (const t of [target, ...dependentsOf(target, ctx)]) {
          const dead = tombstone(ws, t, ws.nextSeq++, now);
          if (dead) writes.set(t, dead);
        }
        return undefined;
      });
      commit(ws, [...writes.values()]);
      return { added: writes.size, errors };
    },
    bulk(id, domain, selection, op) {
      const ws = load(id);
      const plan = planBulk(domain, selection, op, ws, ledger());
      if (!plan.patch) return { changed: 0, matched: plan.matched, refused: plan.refused };
      const seq = ws.nextSeq++;
      repos.drafts.addPatch(id, seq, plan.patch);
      applyPatch(ws, ledger(), seq, plan.patch, store.clock.now());
      folder.schedule(id);
      emitter.emit('changed', { draftId: id });
      return { changed: plan.patch.ids.length, matched: plan.matched, refused: [] };
    },
    flush(id) {
      load(id);
      folder.foldAll(id);
    },
    snapshot: (id) => ({ ws: load(id), ledger: ledger() }),
    review: (id, page) => reviewDraft(load(id), ledger(), repos.accounts.main()?.account_id ?? '', page),
    refresh(id, targets) {
      const ws = sets.get(id);
      if (!ws) return;
      for (const e of repos.drafts.entriesFor(id, targets)) ws.entries.set(e);
      emitter.emit('changed', { draftId: id });
    },
    putEntry(id, target, change) {
      const ws = load(id);
      commit(ws, [{ ...entryOf(change, ws.nextSeq++, store.clock.now()), target }]);
    },
    on: (event, listener) => emitter.on(event, listener),
    dispose() {
      folder.stop();
      sets.clear();
    },
  };
  return service;
}

function entryOf(c: Change, seq: number, now: number): DraftEntry {
  return { target: targetOf(c), seq, change: c, status: 'pending', error: null, batchId: null, updatedAt: now };
}

/** Best-effort row name for an input that did not even parse. */
function targetHint(raw: unknown): string {
  if (typeof raw !== 'object' || raw === null) return '';
  const r = raw as Record<string, unknown>;
  const id = r.asset_id ?? r.sku ?? r.listing_id;
  return typeof id === 'string' ? id : '';
}
