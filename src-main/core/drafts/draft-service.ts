import { z } from 'zod';
import type { DraftSummary } from '../../../src-shared/contract.ts';
import type { BulkDomain, BulkOp } from '../../../src-shared/drafts.ts';
import type { DraftGuard, PriceGuard } from '../../../src-shared/price-guard.ts';
import { DEFAULT_PRICE_GUARD } from '../../../src-shared/price-rules.ts';
import { conflict, DomainError, notFound, quoted } from '../errors.ts';
import { createEmitter, type Unsubscribe } from '../events.ts';
import { patchedStatusCounts, type BulkPatch } from '../store/bulk-patch.ts';
import type { Store } from '../store/db.ts';
import { createDraftReads } from '../store/draft-reads.ts';
import type { Repos } from '../store/index.ts';
import type { NameIndex } from '../store/name-index.ts';
import type { SelectedRows } from '../store/ledger-reads.ts';
import type { RateScope } from '../scheduler/types.ts';
import { nextTurn, type Turn } from '../turn.ts';
import type { Change, ChangeInput, DraftEntry, ParsedChangeInput } from './change.ts';
import { createCurrentDraft, newestDraft } from './current-draft.ts';
import type { BulkPlan, DraftBulkEdits, MakeBulkEdits } from './draft-bulk.ts';
import { createDraftChanges, type AddChangesResult } from './draft-changes.ts';
import { ledgerLookup } from './draft-context.ts';
import { draftSummary, type DraftCounts } from './draft-counts.ts';
import { createDraftViews, type CountsMoves, type DraftViews } from './draft-views.ts';
import type { PriceReferences } from './price-references.ts';
import type { Staging } from './draft-staging.ts';
import { createReviewer, type DraftReview, type ReviewPageQuery, type ReviewRow } from './review.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

export type { AddChangesResult };

/**
 * Drafts, edited offline. Every change is validated with the shared field
 * rules (where it came in) and the ledger (here) the moment it is made, and
 * written to the database before the call returns: closing the app, a crash
 * or a week offline loses nothing. Nothing of a draft is held in memory:
 * every question is a query (see store/ledger-reads.ts, store/bulk-rows.ts,
 * review.ts), so a 47,000-change draft costs what the screen shows of it.
 */
export const draftName = lazySchema(() => z.string().trim().min(1).max(200));

export type BulkResult = BulkPlan;

/** The rows a bulk edit works on, as a query (see LedgerQueries.selectedRows). */
export type BulkSelection = SelectedRows;

export interface DraftServiceDeps {
  store: Store;
  repos: Repos;
  /** The trader's price guard (Settings); the default without it. */
  guard?: () => PriceGuard;
  /** How a long job gives the event loop back between its parts; default the next turn. */
  turn?: Turn;
  /** The rate slots in use now, per scope (the scheduler's `busyOffsets`): a review's time to apply counts them. */
  busySlots?: (scope: RateScope) => readonly number[];
  /**
   * Makes the service's bulk edits: core/bulk/bulk-jobs.ts's `createBulkJobs`,
   * handed in by whoever composes the desk (the drafts sit below the bulk
   * edits). Without it the service takes no bulk edit.
   */
  bulk?: MakeBulkEdits;
  /** The names tables the review's search reads, put in step before a search (store/name-index.ts); without it a search finds rows by SKU, asset ID and note. */
  nameIndex?: NameIndex;
  /** What listing prices are held against besides their old price (what they cost): marked by the guard too. */
  references?: PriceReferences;
}

export interface DraftService {
  list(): DraftSummary[];
  /** A new draft, made current unless `select` is false (a draft the desk fills on its own, e.g. a scheduled reprice). */
  create(name: string, options?: { select?: boolean }): DraftSummary;
  rename(draftId: string, name: string): DraftSummary;
  /** Deletes a draft; refused while any of its changes is in flight or unresolved. */
  discard(draftId: string): void;
  /** The draft's changes in the order they were made: reads the whole draft (tests and small drafts; screens page). */
  entries(draftId: string): DraftEntry[];
  /**
   * Merges the inputs into the draft and stores them before it returns. The
   * inputs are of the shared schema's type: read with it where they came in
   * (the router, `readChangeInputs`), or built to it by code; they are not
   * parsed again.
   */
  addChanges(draftId: string, inputs: readonly ChangeInput[]): AddChangesResult;
  /** What `addChanges` would answer, storing nothing. */
  checkChanges(draftId: string, inputs: readonly ChangeInput[]): AddChangesResult;
  /**
   * `checkChanges` for a list too long to hold, in parts: each part sees the
   * ones before it (kept in `staging`), and nothing is stored; `indexBase`
   * is the first input's index in the whole list (a CSV file's reader
   * parsed each row as it read it).
   */
  checkInParts(draftId: string, staging: Staging): (inputs: readonly ParsedChangeInput[], indexBase: number) => AddChangesResult;
  removeChanges(draftId: string, targets: readonly string[]): AddChangesResult;
  /** Takes every change the service refused out of the draft; how many left. */
  removeFailed(draftId: string): number;
  /**
   * Writes a bulk edit over the selected rows into the draft, a part at a
   * time (journaled: see core/bulk/bulk-writes.ts), and resolves once it is
   * written; the draft takes no other change until then. `journaled` hears
   * of it as soon as it is the draft's (its journal row stored), while its
   * parts are still being written: the screens read those as a patch (see
   * store/bulk-patch.ts), so the trader can be told at once. Refused by a
   * service made without bulk edits.
   */
  bulk(draftId: string, domain: BulkDomain, selection: BulkSelection, op: BulkOp, journaled?: (plan: BulkResult) => void): Promise<BulkResult>;
  /** What `bulk` would do, storing nothing (a null draft: over the ledger alone), a part at a time. */
  preview(draftId: string | null, domain: BulkDomain, selection: BulkSelection, op: BulkOp): Promise<BulkResult>;
  /** Whether a bulk edit is being written into the draft (an apply waits for it). */
  busy(draftId: string): boolean;
  /** Resolves once no bulk edit is being written into any draft, or after `withinMs` (a change then meets the refusal). */
  settled(withinMs: number): Promise<void>;
  /** The bulk edit being written into a draft's table, as a patch the screens lay over it (see store/bulk-patch.ts). */
  patch(draftId: string, domain: BulkDomain): BulkPatch | null;
  /** Finishes the bulk edits a quit or a crash cut short; at start. */
  resumeBulkWrites(): Promise<void>;
  /** Bumped on every change of the draft: results laid over it are cached by it. */
  version(draftId: string): number;
  /**
   * The version of what the screens read of each draft (a bulk edit's parts written under its patch are no change of
   * it), and how its tables' counts moved since an earlier one, where known.
   */
  readonly views: Pick<DraftViews, 'version' | 'movedSince' | 'watch'>;
  /** The draft edits go into: kept in the profile, so every window and restart agrees. */
  current(): string | null;
  select(draftId: string): DraftSummary;
  /** The current draft, or a new one made on the spot. */
  ensureCurrent(): string;
  /**
   * The review's summary: open changes by kind, requests per endpoint, ETA, what delete-alls remove, what the price
   * guard marks. Counted a part at a time, giving the event loop back between parts.
   */
  review(draftId: string): Promise<DraftReview>;
  /** What the price guard marks among the price changes the next apply sends (see src-shared/price-guard.ts). */
  guard(draftId: string): DraftGuard;
  /** A page of the review's rows (before → after), open ones by default, in the order the apply runs them. */
  /** `text`: only changes of items the search finds (store/item-match.ts). */
  reviewPage(draftId: string, query: ReviewPageQuery): { total: number; rows: ReviewRow[] };
  /** Another module changed these rows (apply): the draft's version moves and listeners hear of it. */
  refresh(draftId: string, targets: readonly string[]): void;
  /**
   * Writes a change as pending without the merge rules: for the apply's
   * resolutions, which add what the trader chose (a delete before a create again).
   */
  putEntry(draftId: string, target: string, change: Change): void;
  on(event: 'changed', listener: (e: { draftId: string }) => void): Unsubscribe;
  dispose(): void;
}

/** The bulk edits of a service made without them: none is ever written, and one asked for is refused. */
const NO_BULK_EDITS: DraftBulkEdits = {
  preview: () => Promise.reject(new DomainError('internal', 'This desk was made without bulk edits')),
  edit: () => Promise.reject(new DomainError('internal', 'This desk was made without bulk edits')),
  assertIdle: () => undefined, busy: () => false, patch: () => null, dispose: () => undefined,
  settled: () => Promise.resolve(), resume: () => Promise.resolve(),
};

export function createDraftService(deps: DraftServiceDeps): DraftService {
  const { store, repos } = deps;
  const guard = deps.guard ?? (() => DEFAULT_PRICE_GUARD);
  const turn = deps.turn ?? nextTurn;
  const emitter = createEmitter<{ changed: { draftId: string } }>();
  const reads = createDraftReads(store);
  const reviewer = createReviewer(store, reads, ledgerLookup(repos), { busy: deps.busySlots, costs: deps.references });
  const currentDraft = createCurrentDraft(repos.settings, (id) => repos.drafts.get(id) !== null);

  const requireDraft = (id: string) => {
    const row = repos.drafts.get(id);
    if (!row) throw notFound(`There is no draft ${quoted(id)}; it may have been discarded`);
    return row;
  };
  const versions = new Map<string, number>();
  const views = createDraftViews();
  /** `sameView` true: what the screens read holds; else how it moved their counts, when known (null, false: not known). */
  const changed = (draftId: string, sameView: boolean | CountsMoves | null = false) => {
    versions.set(draftId, (versions.get(draftId) ?? 0) + 1);
    if (sameView !== true) views.step(draftId, sameView === false ? null : sameView);
    emitter.emit('changed', { draftId });
  };
  const versionOf = (id: string) => versions.get(id) ?? 0;
  const bulkEdits = deps.bulk?.({ store, repos, guard, turn, changed, stateOf: (id) => (id === null ? 0 : versionOf(id)) }) ?? NO_BULK_EDITS;
  const changes = createDraftChanges({ store, repos, reads, requireDraft, assertIdle: (id) => bulkEdits.assertIdle(id), changed, watched: views.watched });

  const countCache = new Map<string, { version: number; counts: DraftCounts }>();
  function countsOf(id: string): DraftCounts {
    const cached = countCache.get(id);
    if (cached?.version === versionOf(id)) return cached.counts;
    // A bulk edit being written counts as written (see store/bulk-patch.ts): the draft's figures do not climb part by part.
    const patch = bulkEdits.patch(id);
    const stored = patch === null ? repos.drafts.statusCounts(id) : patchedStatusCounts(store, id, patch);
    const counts: DraftCounts = { pending: 0, failed: 0, unknown: 0, done: 0, queued: 0, sent: 0 };
    for (const status of Object.keys(counts) as (keyof DraftCounts)[]) counts[status] = stored[status] ?? 0;
    countCache.set(id, { version: versionOf(id), counts });
    return counts;
  }
  const summaryOf = (id: string): DraftSummary => draftSummary(requireDraft(id), countsOf(id));

  /** What the guard found for a state of a draft, the ledger and the guard's settings. */
  let lastGuard: { state: string; found: DraftGuard } | null = null;
  const guardState = (id: string) => JSON.stringify([id, versionOf(id), store.ledgerVersion, guard(), deps.references?.version() ?? 0]);
  const mainAccount = () => repos.accounts.main()?.account_id ?? '';

  const service: DraftService = {
    list: () => repos.drafts.list().map((d) => summaryOf(d.draft_id)),
    create(name, options = {}) {
      const row = repos.drafts.create(draftName.parse(name));
      // A new draft is where the trader works next.
      if (options.select !== false) currentDraft.set(row.draft_id);
      changed(row.draft_id);
      return summaryOf(row.draft_id);
    },
    rename(id, name) {
      requireDraft(id);
      repos.drafts.rename(id, draftName.parse(name));
      // Every screen showing the draft (another browser on the server, too) reads its new name.
      changed(id);
      return summaryOf(id);
    },
    discard(id) {
      requireDraft(id);
      bulkEdits.assertIdle(id);
      const counts = countsOf(id);
      if (counts.queued + counts.sent + counts.unknown > 0) {
        throw conflict('This draft has changes being applied or with an unknown outcome; let the apply finish and resolve them before discarding it');
      }
      repos.drafts.remove(id);
      if (currentDraft.get() === id) currentDraft.set(newestDraft(repos.drafts.list()));
      changed(id);
    },
    entries(id) {
      requireDraft(id);
      return changes.entries(id);
    },
    addChanges: (id, inputs) => changes.add(id, inputs),
    checkChanges: (id, inputs) => changes.check(id, inputs),
    checkInParts: (id, staging) => changes.checkInParts(id, staging),
    removeFailed(id) {
      requireDraft(id);
      // Only the failed ones are read: the draft may hold tens of thousands of changes.
      return changes.remove(id, changes.entries(id, ['failed']).map((e) => e.target)).added;
    },
    removeChanges: (id, targets) => changes.remove(id, targets),
    bulk(id, domain, selection, op, journaled) {
      requireDraft(id);
      bulkEdits.assertIdle(id);
      return bulkEdits.edit(id, domain, selection, op, journaled);
    },
    preview: (id, domain, selection, op) => bulkEdits.preview(id, domain, selection, op),
    busy: (id) => bulkEdits.busy(id),
    settled: (withinMs) => bulkEdits.settled(withinMs),
    patch: (id, domain) => bulkEdits.patch(id, domain),
    resumeBulkWrites: () => bulkEdits.resume(),
    version: versionOf,
    views,
    current: () => currentDraft.get(),
    select(id) {
      requireDraft(id);
      currentDraft.set(id);
      // Nothing in it moved: what the screens read of it holds (a table's counts and order, ~20 ms to count again at 50,000 rows).
      changed(id, true);
      return summaryOf(id);
    },
    ensureCurrent() {
      const id = currentDraft.get();
      if (id !== null) return id;
      const draft = service.create(`Draft ${new Date(store.clock.now()).toISOString().slice(0, 16).replace('T', ' ')}`);
      return draft.id;
    },
    async review(id) {
      requireDraft(id);
      const state = guardState(id);
      const review = await reviewer.review(id, mainAccount(), guard(), turn);
      // Kept for the apply that follows the review, which checks the guard at once (if nothing changed meanwhile).
      if (state === guardState(id)) lastGuard = { state, found: review.guard };
      return review;
    },
    guard(id) {
      requireDraft(id);
      const state = guardState(id);
      if (lastGuard?.state === state) return lastGuard.found;
      const found = reviewer.guardNow(id, mainAccount(), guard());
      lastGuard = { state, found };
      return found;
    },
    reviewPage(id, query) {
      requireDraft(id);
      if (query.text !== undefined && query.text.trim() !== '') deps.nameIndex?.sync();
      return reviewer.page(id, `${versionOf(id)}|${store.ledgerVersion}`, query, guard());
    },
    refresh(id) {
      changed(id);
    },
    putEntry: (id, target, change) => changes.put(id, target, change),
    on: (event, listener) => emitter.on(event, listener),
    dispose() {
      bulkEdits.dispose();
      countCache.clear();
    },
  };
  return service;
}
