import type { DraftSummary } from '../../../src-shared/contract.ts';
import type { DraftRow } from '../store/drafts-repo.ts';
import type { Repos } from '../store/index.ts';
import type { PatchCounts } from './patch-effect.ts';
import type { WorkingSet } from './working-set.ts';

export type DraftCounts = Record<'pending' | 'failed' | 'unknown' | 'done' | 'queued' | 'sent', number>;

export interface DraftCountsDeps {
  repos: Pick<Repos, 'drafts'>;
  /** Whether the draft is held in memory. */
  isHeld(id: string): boolean;
  load(id: string): WorkingSet;
  /** Bumped on every change of the draft. */
  version(id: string): number;
  /** What the bulk edit that made the draft's current version did to its counts (null: its last change was another). */
  laidEffect(id: string): Pick<PatchCounts, 'statuses'> | null;
}

/**
 * A draft's changes counted by status (dropped ones left out), per draft and
 * version: the list is read after every change, the counts change with the
 * draft. A draft not held in memory and with no bulk patch left to fold is
 * counted by the store: its rows are all it holds, and a draft nobody opened
 * is not read into memory for its counts.
 */
export function createDraftCounts(deps: DraftCountsDeps): (id: string) => DraftCounts {
  const cache = new Map<string, { version: number; counts: DraftCounts }>();
  return (id) => {
    const version = deps.version(id);
    const cached = cache.get(id);
    if (cached?.version === version) return cached.counts;
    // Right after a bulk edit: the counts before it plus what it did, without building its entries (see EntryIndex.lay).
    const laid = cached?.version === version - 1 ? deps.laidEffect(id) : null;
    if (cached && laid) {
      const counts = { ...cached.counts };
      for (const [status, n] of Object.entries(laid.statuses) as [keyof DraftCounts, number][]) counts[status] += n;
      cache.set(id, { version, counts });
      return counts;
    }
    const counts: DraftCounts = { pending: 0, failed: 0, unknown: 0, done: 0, queued: 0, sent: 0 };
    if (!deps.isHeld(id) && deps.repos.drafts.patchCount(id) === 0) {
      const stored = deps.repos.drafts.statusCounts(id);
      for (const status of Object.keys(counts) as (keyof DraftCounts)[]) counts[status] = stored[status] ?? 0;
    } else {
      for (const e of deps.load(id).entries.values()) if (e.status !== 'dropped') counts[e.status] += 1;
    }
    cache.set(id, { version, counts });
    return counts;
  };
}

/** What the draft list says of a draft: its row, and its changes still to apply or resolve (pending, failed, in flight, unknown). */
export function draftSummary(row: DraftRow, counts: DraftCounts): DraftSummary {
  return {
    id: row.draft_id, name: row.name, createdAt: row.created_at, updatedAt: row.updated_at,
    changeCount: counts.pending + counts.failed + counts.unknown + counts.queued + counts.sent,
    failedCount: counts.failed, unknownCount: counts.unknown, doneCount: counts.done,
  };
}
