import type { DraftSummary } from '../../../src-shared/contract.ts';
import type { DraftRow } from '../store/drafts-repo.ts';

/** A draft's changes counted by status (dropped ones left out). */
export type DraftCounts = Record<'pending' | 'failed' | 'unknown' | 'done' | 'queued' | 'sent', number>;

/** What the draft list says of a draft: its row, and its changes still to apply or resolve (pending, failed, in flight, unknown). */
export function draftSummary(row: DraftRow, counts: DraftCounts): DraftSummary {
  return {
    id: row.draft_id, name: row.name, createdAt: row.created_at, updatedAt: row.updated_at,
    changeCount: counts.pending + counts.failed + counts.unknown + counts.queued + counts.sent,
    failedCount: counts.failed, unknownCount: counts.unknown, doneCount: counts.done,
  };
}
