import { z } from 'zod';
import { conflict, notFound, quoted } from '../errors.ts';
import { createEmitter, type Unsubscribe } from '../events.ts';
import type { Store } from '../store/db.ts';
import type { Repos } from '../store/index.ts';
import { isLockedStatus, LOCKED_REASON, type Change, type ChangeStatus, type DraftEntry, type ParsedChangeInput } from './change.ts';
import type { BulkDomain, BulkOp } from '../../../src-shared/drafts.ts';
import { DEFAULT_PRICE_GUARD, type DraftGuard, type PriceGuard } from '../../../src-shared/price-guard.ts';
import type { BulkPlan } from '../bulk/bulk-sql.ts';
import { patchedStatusCountsSql, type BulkPatch } from '../store/bulk-patch.ts';
import { createBulkJobs } from '../bulk/bulk-jobs.ts';
import { draftContext, ledgerLookup } from './draft-context.ts';
import { dependentsOf, type ChangeIssue } from './merge.ts';
import type { SelectedRows } from '../ledger/ledger-query.ts';
import { createReviewer, type DraftReview, type ReviewRow, type ReviewShow } from './review.ts';
import { entryOf, stageChanges, stageParsed, tombstone, type Staging } from './draft-staging.ts';
import { draftSummary, type DraftCounts } from './draft-counts.ts';
import type { DraftSummary } from '../../../src-shared/contract.ts';
import { createCurrentDraft, newestDraft } from './current-draft.ts';
import { splitTarget } from '../store/draft-columns.ts';
import { nextTurn, type Turn } from '../turn.ts';

/**
 * Drafts, edited offline. Every change is validated with the shared field
 * rules and the ledger the moment it is made, and written to the database
 * before the call returns: closing the app, a crash or a week offline loses
 * nothing. Nothing of a draft is held in memory: every question is a query
 * (see ledger-query.ts, bulk-sql.ts, review.ts), so a 47,000-change draft
 * costs what the screen shows of it.
 */
export const draftName = z.string().trim().min(1).max(200);

export interface AddChangesResult {
  readonly added: number;
  /** One per refused input: its index in the call, the row (target) and the field. */
  readonly errors: readonly (ChangeIssue & { readonly index: number })[];
}

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
}

export interface DraftService {
  list(): DraftSummary[];
  create(name: string): DraftSummary;
  rename(draftId: string, name: string): DraftSummary;
  /** Deletes a draft; refused while any of its changes is in flight or unresolved. */
  discard(draftId: string): void;
  /** The draft's changes in the order they were made: reads the whole draft (tests and small drafts; screens page). */
  entries(draftId: string): DraftEntry[];
  addChanges(draftId: string, inputs: readonly unknown[]): AddChangesResult;
  /** What `addChanges` would answer, storing nothing. */
  checkChanges(draftId: string, inputs: readonly unknown[]): AddChangesResult;
  /**
   * `checkChanges` for a list too long to hold, in parts: each part sees the
   * ones before it (kept in `staging`), and nothing is stored; `indexBase`
   * is the first input's index in the whole list. The inputs are ones the
   * shared schema (`changeInput`) accepted already, where they came in (a
   * CSV file's reader): they are merged, not parsed again.
   */
  checkInParts(draftId: string, staging: Staging): (inputs: readonly ParsedChangeInput[], indexBase: number) => AddChangesResult;
  removeChanges(draftId: string, targets: readonly string[]): AddChangesResult;
  /** Takes every change the service refused out of the draft; how many left. */
  removeFailed(draftId: string): number;
  /**
   * Writes a bulk edit over the selected rows into the draft, a part at a
   * time (journaled: see bulk-writes.ts), and resolves once it is written;
   * the draft takes no other change until then. `journaled` hears of it as
   * soon as it is the draft's (its journal row stored), while its parts are
   * still being written: the screens read those as a patch (see bulk-patch.ts),
   * so the trader can be told at once.
   */
  bulk(draftId: string, domain: BulkDomain, selection: BulkSelection, op: BulkOp, journaled?: (plan: BulkResult) => void): Promise<BulkResult>;
  /** What `bulk` would do, storing nothing (a null draft: over the ledger alone), a part at a time. */
  preview(draftId: string | null, domain: BulkDomain, selection: BulkSelection, op: BulkOp): Promise<BulkResult>;
  /** Whether a bulk edit is being written into the draft (an apply waits for it). */
  busy(draftId: string): boolean;
  /** Resolves once no bulk edit is being written into any draft, or after `withinMs` (a change then meets the refusal). */
  settled(withinMs: number): Promise<void>;
  /** The bulk edit being written into a draft's table, as a patch the screens lay over it (see bulk-patch.ts). */
  patch(draftId: string, domain: BulkDomain): BulkPatch | null;
  /** Finishes the bulk edits a quit or a crash cut short; at start. */
  resumeBulkWrites(): Promise<void>;
  /** Bumped on every change of the draft: results laid over it are cached by it. */
  version(draftId: string): number;
  /** The draft edits go into: kept in the profile, so every window and restart agrees. */
  current(): string | null;
  select(draftId: string): DraftSummary;
  /** The current draft, or a new one made on the spot. */
  ensureCurrent(): string;
  /** The review's summary: open changes by kind, requests per endpoint, ETA, what delete-alls remove, what the price guard marks. */
  /** Counted a part at a time, giving the event loop back between parts. */
  review(draftId: string): Promise<DraftReview>;
  /** What the price guard marks among the price changes the next apply sends (see src-shared/price-guard.ts). */
  guard(draftId: string): DraftGuard;
  /** A page of the review's rows (before → after), open ones by default, in the order the apply runs them. */
  reviewPage(draftId: string, query: { show: ReviewShow; kind?: string; offset: number; limit: number }): { total: number; rows: ReviewRow[] };
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

export function createDraftService(deps: DraftServiceDeps): DraftService {
  const { store, repos } = deps;
  const guard = deps.guard ?? (() => DEFAULT_PRICE_GUARD);
  const turn = deps.turn ?? nextTurn;
  const emitter = createEmitter<{ changed: { draftId: string } }>();
  const reviewer = createReviewer(store, ledgerLookup(repos));
  const currentDraft = createCurrentDraft(repos.settings, (id) => repos.drafts.get(id) !== null);

  const requireDraft = (id: string) => {
    const row = repos.drafts.get(id);
    if (!row) throw notFound(`There is no draft ${quoted(id)}; it may have been discarded`);
    return row;
  };
  const versions = new Map<string, number>();
  const changed = (draftId: string) => {
    versions.set(draftId, (versions.get(draftId) ?? 0) + 1);
    emitter.emit('changed', { draftId });
  };
  const versionOf = (id: string) => versions.get(id) ?? 0;
  const bulkJobs = createBulkJobs({ store, repos, guard, turn, changed, stateOf: (id) => (id === null ? 0 : versionOf(id)) });

  const countCache = new Map<string, { version: number; counts: DraftCounts }>();
  function countsOf(id: string): DraftCounts {
    const cached = countCache.get(id);
    if (cached?.version === versionOf(id)) return cached.counts;
    // A bulk edit being written counts as written (see bulk-patch.ts): the draft's figures do not climb part by part.
    const patch = bulkJobs.patch(id);
    const stored = patch === null ? repos.drafts.statusCounts(id) : Object.fromEntries(
      (store.db.prepare(patchedStatusCountsSql(patch)).all({ draft: id, p_lo: patch.writtenTo }) as { status: string; n: number }[]).map((r) => [r.status, r.n]),
    ) as Partial<DraftCounts>;
    const counts: DraftCounts = { pending: 0, failed: 0, unknown: 0, done: 0, queued: 0, sent: 0 };
    for (const status of Object.keys(counts) as (keyof DraftCounts)[]) counts[status] = stored[status] ?? 0;
    countCache.set(id, { version: versionOf(id), counts });
    return counts;
  }
  const summaryOf = (id: string): DraftSummary => draftSummary(requireDraft(id), countsOf(id));

  /** The draft's changes in the order they were made (those of `statuses` only, when given), a page at a time from the store. */
  function entriesOf(id: string, statuses?: readonly ChangeStatus[]): DraftEntry[] {
    const only = statuses ? { statuses } : {};
    const out: DraftEntry[] = [];
    for (let page = repos.drafts.entriesPage(id, null, 5_000, only); page.length > 0;) {
      out.push(...page);
      const end = page.at(-1) as DraftEntry;
      page = repos.drafts.entriesPage(id, { seq: end.seq, ...splitTarget(end.target) }, 5_000, only);
    }
    return out;
  }

  /** Writes staged rows (a `dropped` one removes its row) in one transaction, then tells. */
  function commit(id: string, staged: ReadonlyMap<string, DraftEntry>, seqs: number) {
    if (staged.size === 0) return;
    const writes: DraftEntry[] = [];
    const removals: string[] = [];
    for (const e of staged.values()) {
      if (e.status === 'dropped') removals.push(e.target);
      else writes.push(e);
    }
    store.transaction(() => {
      repos.drafts.takeSeqs(id, seqs);
      repos.drafts.deleteEntries(id, removals);
      repos.drafts.writeEntries(id, writes);
    });
    changed(id);
  }

  function stage(id: string, inputs: readonly unknown[]) {
    requireDraft(id);
    const staged = new Map<string, DraftEntry>();
    const first = repos.drafts.takeSeqs(id, 0);
    const result = stageChanges(staged, draftContext(store, repos, id, staged), inputs, first, store.clock.now());
    return { ...result, used: result.nextSeq - first };
  }

  /** What the guard found for a state of a draft, the ledger and the guard's settings. */
  let lastGuard: { state: string; found: DraftGuard } | null = null;
  const guardState = (id: string) => JSON.stringify([id, versionOf(id), store.ledgerVersion, guard()]);

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
      requireDraft(id);
      bulkJobs.assertIdle(id);
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
      return entriesOf(id);
    },
    addChanges(id, inputs) {
      bulkJobs.assertIdle(id);
      const { staged, errors, added, used } = stage(id, inputs);
      commit(id, staged, used);
      return { added, errors };
    },
    checkChanges(id, inputs) {
      const { errors, added } = stage(id, inputs);
      return { added, errors };
    },
    checkInParts(id, staging) {
      requireDraft(id);
      let seq = repos.drafts.takeSeqs(id, 0);
      return (inputs, indexBase) => {
        const r = stageParsed(staging, draftContext(store, repos, id, staging), inputs, seq, store.clock.now(), indexBase);
        seq = r.nextSeq;
        return { added: r.added, errors: r.errors };
      };
    },
    removeFailed(id) {
      requireDraft(id);
      // Only the failed ones are read: the draft may hold tens of thousands of changes.
      return service.removeChanges(id, entriesOf(id, ['failed']).map((e) => e.target)).added;
    },
    removeChanges(id, targets) {
      requireDraft(id);
      bulkJobs.assertIdle(id);
      const staged = new Map<string, DraftEntry>();
      const ctx = draftContext(store, repos, id, staged);
      const errors: (ChangeIssue & { index: number })[] = [];
      const now = store.clock.now();
      targets.forEach((target, index) => {
        const e = ctx.live(target);
        if (!e) return errors.push({ index, target, field: 'target', message: 'no such change in this draft' });
        if (isLockedStatus(e.status)) return errors.push({ index, target, field: 'status', message: `this change is ${LOCKED_REASON}; resolve it instead` });
        for (const t of [target, ...dependentsOf(target, ctx)]) {
          const dead = tombstone(ctx, t, 0, now);
          if (dead) staged.set(t, dead);
        }
        return undefined;
      });
      commit(id, staged, 0);
      return { added: staged.size, errors };
    },
    bulk(id, domain, selection, op, journaled) {
      requireDraft(id);
      bulkJobs.assertIdle(id);
      return bulkJobs.edit(id, domain, selection, op, journaled);
    },
    preview: (id, domain, selection, op) => bulkJobs.preview(id, domain, selection, op),
    busy: (id) => bulkJobs.busy(id),
    settled: (withinMs) => bulkJobs.settled(withinMs),
    patch: (id, domain) => bulkJobs.patch(id, domain),
    resumeBulkWrites: () => bulkJobs.resume(),
    version: versionOf,
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
    async review(id) {
      requireDraft(id);
      const state = guardState(id);
      const review = await reviewer.review(id, repos.accounts.main()?.account_id ?? '', guard(), turn);
      // Kept for the apply that follows the review, which checks the guard at once (if nothing changed meanwhile).
      if (state === guardState(id)) lastGuard = { state, found: review.guard };
      return review;
    },
    guard(id) {
      requireDraft(id);
      const state = guardState(id);
      if (lastGuard?.state === state) return lastGuard.found;
      const found = reviewer.guardNow(id, repos.accounts.main()?.account_id ?? '', guard());
      lastGuard = { state, found };
      return found;
    },
    reviewPage(id, query) {
      requireDraft(id);
      return reviewer.page(id, `${versionOf(id)}|${store.ledgerVersion}`, query, guard());
    },
    refresh(id) {
      changed(id);
    },
    putEntry(id, target, change) {
      requireDraft(id);
      bulkJobs.assertIdle(id);
      const seq = repos.drafts.takeSeqs(id, 1);
      repos.drafts.writeEntries(id, [{ ...entryOf(change, seq, store.clock.now()), target }]);
      changed(id);
    },
    on: (event, listener) => emitter.on(event, listener),
    dispose() {
      bulkJobs.dispose();
      countCache.clear();
    },
  };
  return service;
}
