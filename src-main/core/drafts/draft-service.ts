import { z } from 'zod';
import { conflict, notFound, quoted } from '../errors.ts';
import { createEmitter, type Unsubscribe } from '../events.ts';
import type { Store } from '../store/db.ts';
import type { Repos } from '../store/index.ts';
import { isLockedStatus, type Change, type DraftEntry } from './change.ts';
import type { BulkDomain, BulkOp, BulkPlan } from './bulk-ops.ts';
import { lastPlan, plannedWithEffect } from './bulk-plans.ts';
import { createLedgerCache, type LedgerView } from './ledger-view.ts';
import { dependentsOf, type ChangeIssue, type MergeContext } from './merge.ts';
import { patchLayer } from './patch.ts';
import type { PatchCounts } from './patch-effect.ts';
import { reviewDraft, reviewOrder, reviewRows, type DraftReview, type ReviewRow, type ReviewShow } from './review.ts';
import { emptyWorkingSet, entryOf, stageChanges, tombstone } from './draft-staging.ts';
import { createPatchFolder, whenQuiet, type PatchFolder } from './patch-folder.ts';
import { liveEntries, liveEntry, type WorkingSet } from './working-set.ts';
import { createDraftLoader } from './draft-loader.ts';
import { createDraftCounts, draftSummary } from './draft-counts.ts';
import type { DraftSummary } from '../../../src-shared/contract.ts';
import type { Turn } from './sliced-read.ts';
import { createCurrentDraft, newestDraft } from './current-draft.ts';

/**
 * Drafts, edited offline. Every change is validated with the shared field
 * rules and the ledger the moment it is made, and written to the database
 * before the call returns: closing the app, a crash or a week offline loses
 * nothing. The IPC layer and the review/apply code call this service.
 */
export const draftName = z.string().trim().min(1).max(200);

export interface AddChangesResult {
  readonly added: number;
  /** One per refused input: its index in the call, the row (target) and the field. */
  readonly errors: readonly (ChangeIssue & { readonly index: number })[];
}

export interface BulkResult extends Omit<BulkPlan, 'patch'> {
  /** Rows whose value changed. */
  readonly changed: number;
}

export interface DraftServiceDeps {
  store: Store;
  repos: Repos;
  /** Runs folding work later, off the caller's path; default: once the drafts have been quiet a moment (see `whenQuiet`). */
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
  /** Stores a bulk operation over these rows (asset IDs or SKUs) as one patch. */
  bulk(draftId: string, domain: BulkDomain, keys: readonly string[], op: BulkOp): BulkResult;
  /** What `bulk` would do, storing nothing (a null draft: over the ledger alone). */
  preview(draftId: string | null, domain: BulkDomain, keys: readonly string[], op: BulkOp): BulkResult;
  /** The draft as it is in memory (null: none), for queries that lay it over the ledger. */
  workingSet(draftId: string | null): WorkingSet | null;
  /** Bumped on every change of the draft; results laid over it are cached by it. */
  version(draftId: string): number;
  /** The ledger held in memory for drafting. */
  ledgerView(): LedgerView;
  /** What the bulk edit that made the draft's current version did to its counts; null when its last change was another. */
  laidEffect(draftId: string): PatchCounts | null;
  /** The draft edits go into: kept in the profile, so every window and restart agrees. */
  current(): string | null;
  select(draftId: string): DraftSummary;
  /** The current draft, or a new one made on the spot. */
  ensureCurrent(): string;
  /** Folds pending bulk patches into per-change rows now (apply and export call it). */
  flush(draftId: string): void;
  /** The review's summary: open changes by kind, requests per endpoint, ETA, what delete-alls remove. */
  review(draftId: string): DraftReview;
  /** A page of the review's rows (before → after), open ones by default, in the order the apply runs them. */
  reviewPage(draftId: string, query: { show: ReviewShow; kind?: string; offset: number; limit: number }): { total: number; rows: ReviewRow[] };
  /** The in-memory draft and ledger, for review and CSV export (read-only use). */
  snapshot(draftId: string): { ws: WorkingSet; ledger: LedgerView };
  /**
   * Reads the ledger and the current draft into memory a slice at a time,
   * letting other calls in between (after the workspace opens): the first
   * screen that shows them then need not wait for them.
   */
  warm(turn?: Turn): Promise<void>;
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
  let lastEditAt = 0;
  const folder: PatchFolder = createPatchFolder({ store, repos, sets, defer: deps.defer ?? whenQuiet(() => lastEditAt) });

  const requireDraft = (id: string) => {
    const row = repos.drafts.get(id);
    if (!row) throw notFound(`There is no draft ${quoted(id)}; it may have been discarded`);
    return row;
  };
  const versions = new Map<string, number>();
  const changed = (draftId: string) => {
    lastEditAt = Date.now();
    versions.set(draftId, (versions.get(draftId) ?? 0) + 1);
    emitter.emit('changed', { draftId });
  };
  const plans = lastPlan((id, domain, keys, op, ws) => plannedWithEffect(domain, keys, op, ws, ledger()), (id) => `${id}|${service.version(id ?? '')}|${ledger().version}`);
  /** Per draft, what the bulk edit that made its version did to its counts (see laidEffect). */
  const effects = new Map<string, { version: number; counts: PatchCounts }>();
  /** The last review page's order: paging through a 47,000-change draft sorts it once. */
  let reviewCache: { key: string; entries: DraftEntry[] } | null = null;
  const currentDraft = createCurrentDraft(repos.settings, (id) => repos.drafts.get(id) !== null);

  const loader = createDraftLoader({
    repos, clock: store.clock, ledger, sets, currentDraft: () => currentDraft.get(), onPatches: (id) => folder.schedule(id),
  });

  function load(id: string): WorkingSet {
    if (!sets.has(id)) requireDraft(id);
    return loader.load(id);
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

  const countsOf = createDraftCounts({ repos, isHeld: (id) => sets.has(id), load, version: (id) => versions.get(id) ?? 0, laidEffect: (id) => service.laidEffect(id) });
  const summaryOf = (id: string): DraftSummary => draftSummary(requireDraft(id), countsOf(id));

  /** Writes rows to disk first, then to memory; a failed write leaves memory untouched. */
  function commit(ws: WorkingSet, writes: readonly DraftEntry[]) {
    if (writes.length === 0) return;
    repos.drafts.writeEntries(ws.draftId, writes);
    for (const e of writes) ws.entries.set(e);
    changed(ws.draftId);
  }

  const service: DraftService = {
    list: () => repos.drafts.list().map((d) => summaryOf(d.draft_id)),
    create(name) {
      const row = repos.drafts.create(draftName.parse(name));
      // A new draft is where the trader works next.
      currentDraft.set(row.draft_id);
      changed(row.draft_id);
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
      if (currentDraft.get() === id) currentDraft.set(newestDraft(repos.drafts.list()));
      changed(id);
    },
    entries(id) {
      return [...load(id).entries.values()].filter((e) => e.status !== 'dropped').sort((a, b) => a.seq - b.seq);
    },
    addChanges(id, inputs) {
      const ws = load(id);
      const { staged, errors, added, nextSeq } = stageChanges(ws, inputs, contextOf(ws), store.clock.now());
      commit(ws, [...staged.values()]);
      ws.nextSeq = nextSeq;
      return { added, errors };
    },
    checkChanges(id, inputs) {
      const ws = load(id);
      const { errors, added } = stageChanges(ws, inputs, contextOf(ws), store.clock.now());
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
    bulk(id, domain, keys, op) {
      const ws = load(id);
      const { patch, effect, ...plan } = plans.plan(id, domain, keys, op, ws);
      if (!patch) return { ...plan, changed: 0 };
      const seq = ws.nextSeq++;
      repos.drafts.addPatch(id, seq, patch);
      // Stored, then laid over the draft in memory without building its entries: they are built while the
      // app is idle, or when the draft is next read in full, not before the reply and the page the screen asks next.
      const known = effect?.seq === seq ? effect : null;
      ws.entries.lay(patchLayer(ledger(), seq, patch, store.clock.now(), known?.positions));
      // Announced first: folding then waits for the screen's questions about it to be answered.
      changed(id);
      if (known) effects.set(id, { version: service.version(id), counts: known.counts });
      folder.schedule(id);
      return { ...plan, changed: patch.ids.length };
    },
    preview(id, domain, keys, op) {
      const ws = id === null ? emptyWorkingSet() : load(id);
      const { patch, effect: _, ...plan } = plans.plan(id, domain, keys, op, ws);
      return { ...plan, changed: patch?.ids.length ?? 0 };
    },
    workingSet: (id) => (id === null ? null : load(id)),
    version: (id) => versions.get(id) ?? 0,
    ledgerView: () => ledger(),
    laidEffect(id) {
      const laid = effects.get(id);
      return laid && laid.version === service.version(id) ? laid.counts : null;
    },
    current: () => currentDraft.get(),
    select(id) {
      requireDraft(id);
      currentDraft.set(id);
      changed(id);
      return summaryOf(id);
    },
    ensureCurrent() {
      const id = currentDraft.get();
      if (id !== null) return id;
      const draft = service.create(`Draft ${new Date(store.clock.now()).toISOString().slice(0, 16).replace('T', ' ')}`);
      return draft.id;
    },
    flush(id) {
      load(id);
      folder.foldAll(id);
    },
    snapshot: (id) => ({ ws: load(id), ledger: ledger() }),
    review: (id) => reviewDraft(load(id), ledger(), repos.accounts.main()?.account_id ?? ''),
    reviewPage(id, query) {
      const ws = load(id);
      const key = `${id}|${service.version(id)}|${query.show}|${query.kind ?? ''}`;
      if (reviewCache?.key !== key) reviewCache = { key, entries: reviewOrder(ws, query.show, query.kind) };
      const { entries } = reviewCache;
      return { total: entries.length, rows: reviewRows(entries.slice(query.offset, query.offset + query.limit), ledger()) };
    },
    refresh(id, targets) {
      const ws = sets.get(id);
      if (!ws) return;
      for (const e of repos.drafts.entriesFor(id, targets)) ws.entries.set(e);
      changed(id);
    },
    putEntry(id, target, change) {
      const ws = load(id);
      commit(ws, [{ ...entryOf(change, ws.nextSeq++, store.clock.now()), target }]);
    },
    on: (event, listener) => emitter.on(event, listener),
    warm: (turn) => loader.warm(turn),
    dispose() {
      loader.stop();
      folder.stop();
      sets.clear();
    },
  };
  return service;
}
