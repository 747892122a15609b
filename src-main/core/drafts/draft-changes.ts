import type { LedgerDomain } from '../../../src-shared/ledger.ts';
import type { Store } from '../store/db.ts';
import { createKeyCounts, type CountsMove } from '../store/key-counts.ts';
import { splitTarget } from '../store/draft-columns.ts';
import type { DraftReads } from '../store/draft-reads.ts';
import type { Repos } from '../store/index.ts';
import { isLockedStatus, LOCKED_REASON, type Change, type ChangeInput, type ChangeStatus, type DraftEntry, type ParsedChangeInput } from './change.ts';
import { parsedForm, type InputIssue } from './change-inputs.ts';
import { draftContext } from './draft-context.ts';
import { entryOf, stageChanges, tombstone, type Staging } from './draft-staging.ts';
import type { CountsMoves } from './draft-views.ts';
import { dependentsOf } from './merge.ts';

/**
 * A draft's changes, edited: inputs merged by the rules of merge.ts into
 * rows staged in memory (draft-staging.ts), then written in one transaction
 * before the call returns (a `dropped` row removes its target); a removal
 * takes with it the creates that stood on it (`dependentsOf`).
 */
export interface AddChangesResult {
  readonly added: number;
  /** Of `added`, inputs that changed a row the draft already held (a listing drafted again repriced it); counted by `add` alone. */
  readonly replaced?: number;
  /** One per refused input: its index in the call, the row (target) and the field. */
  readonly errors: readonly InputIssue[];
}

export interface DraftChanges {
  /** The draft's changes in the order they were made (those of `statuses` only, when given), read a page at a time. */
  entries(draftId: string, statuses?: readonly ChangeStatus[]): DraftEntry[];
  add(draftId: string, inputs: readonly ChangeInput[]): AddChangesResult;
  /** What `add` would answer, storing nothing. */
  check(draftId: string, inputs: readonly ChangeInput[]): AddChangesResult;
  /** `check` for a list too long to hold, in parts (see DraftService.checkInParts). */
  checkInParts(draftId: string, staging: Staging): (inputs: readonly ParsedChangeInput[], indexBase: number) => AddChangesResult;
  remove(draftId: string, targets: readonly string[]): AddChangesResult;
  /** Writes a change as pending without the merge rules (see DraftService.putEntry). */
  put(draftId: string, target: string, change: Change): void;
}

export interface DraftChangesDeps {
  store: Store;
  repos: Repos;
  reads: DraftReads;
  /** Throws for a draft that is not there. */
  requireDraft(draftId: string): void;
  /** Throws while a bulk edit is being written into the draft. */
  assertIdle(draftId: string): void;
  /** The draft moved (by `moved` of its tables' unfiltered counts, where known): its version is bumped and listeners told. */
  changed(draftId: string, moved: CountsMoves | null): void;
  /** Whether a table serves the draft's counts, so that a write's move of them is worth counting. */
  watched(draftId: string, domain: LedgerDomain): boolean;
}

/** Entries read per page of `entries`. */
const PAGE = 5_000;
/**
 * Keys a write counts before and after rather than leaving the next page to count the draft: a held listing's ~8 µs
 * each way (10 ms at 1,000, half a count of a 47,000-change draft), a new row's ~1 µs.
 */
const COUNTED_KEYS = 500;

const DOMAINS = ['listings', 'buyOrders'] as const;

export function createDraftChanges(deps: DraftChangesDeps): DraftChanges {
  const { store, repos, reads, requireDraft, assertIdle, changed } = deps;
  const keyCounts = createKeyCounts(store);

  /**
   * Writes staged rows (a `dropped` one removes its row) in one transaction, then tells how the tables' counts moved:
   * counted over the keys written, before and after, when they are few.
   */
  function commit(id: string, staged: ReadonlyMap<string, DraftEntry>, seqs: number) {
    if (staged.size === 0) return;
    const writes: DraftEntry[] = [];
    const removals: string[] = [];
    const keys = { listings: new Set<string>(), buyOrders: new Set<string>() };
    for (const e of staged.values()) {
      if (e.status === 'dropped') removals.push(e.target);
      else writes.push(e);
      // A delete-all has no key: the counts moved are those without one (a table with one open counts itself).
      const { slot, key } = splitTarget(e.target);
      if (key !== '') keys[slot.startsWith('L') ? 'listings' : 'buyOrders'].add(key);
    }
    // A table the write has no key of is moved by none; one that serves no counts of the draft is not counted (not known).
    const moved: Partial<Record<LedgerDomain, CountsMove>> = {};
    for (const d of DOMAINS) if (keys[d].size === 0) moved[d] = { created: 0, changed: 0 };
    const counted = (staged.size > COUNTED_KEYS ? [] : DOMAINS.filter((d) => keys[d].size > 0 && deps.watched(id, d)))
      .map((d) => ({ d, keys: [...keys[d]] }));
    store.transaction(() => {
      const before = counted.map((c) => keyCounts(id, c.d, c.keys));
      repos.drafts.takeSeqs(id, seqs);
      repos.drafts.deleteEntries(id, removals);
      repos.drafts.writeEntries(id, writes);
      counted.forEach((c, i) => {
        const [b, a] = [before[i], keyCounts(id, c.d, c.keys)];
        if (b) moved[c.d] = { created: a.created - b.created, changed: a.changed - b.changed };
      });
    });
    changed(id, moved);
  }

  function stage(id: string, inputs: readonly ChangeInput[]) {
    requireDraft(id);
    const staged = new Map<string, DraftEntry>();
    const first = repos.drafts.takeSeqs(id, 0);
    const result = stageChanges(staged, draftContext(reads, repos, id, staged), inputs.map(parsedForm), first, store.clock.now());
    return { ...result, used: result.nextSeq - first };
  }

  const changes: DraftChanges = {
    entries(id, statuses) {
      const only = statuses ? { statuses } : {};
      const out: DraftEntry[] = [];
      for (let page = repos.drafts.entriesPage(id, null, PAGE, only); page.length > 0;) {
        out.push(...page);
        const end = page.at(-1);
        if (end === undefined) break;
        page = repos.drafts.entriesPage(id, { seq: end.seq, ...splitTarget(end.target) }, PAGE, only);
      }
      return out;
    },
    add(id, inputs) {
      assertIdle(id);
      const { staged, errors, added, replaced, used } = stage(id, inputs);
      commit(id, staged, used);
      return { added, replaced, errors };
    },
    check(id, inputs) {
      const { errors, added } = stage(id, inputs);
      return { added, errors };
    },
    checkInParts(id, staging) {
      requireDraft(id);
      let seq = repos.drafts.takeSeqs(id, 0);
      return (inputs, indexBase) => {
        const r = stageChanges(staging, draftContext(reads, repos, id, staging), inputs, seq, store.clock.now(), indexBase);
        seq = r.nextSeq;
        return { added: r.added, errors: r.errors };
      };
    },
    remove(id, targets) {
      requireDraft(id);
      assertIdle(id);
      const staged = new Map<string, DraftEntry>();
      const ctx = draftContext(reads, repos, id, staged);
      const errors: InputIssue[] = [];
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
    put(id, target, change) {
      requireDraft(id);
      assertIdle(id);
      const seq = repos.drafts.takeSeqs(id, 1);
      repos.drafts.writeEntries(id, [{ ...entryOf(change, seq, store.clock.now()), target }]);
      changed(id, null);
    },
  };
  return changes;
}
