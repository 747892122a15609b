import type { ChangeIssue, MergeContext } from './merge.ts';
import { mergeChange } from './merge.ts';
import { changeInput, targetOf, type Change, type DraftEntry } from './change.ts';
import { createEntryIndex, liveEntries, liveEntry, overlay, type WorkingSet } from './working-set.ts';

/**
 * Turning the trader's inputs into draft rows without storing them: each
 * input parsed with the shared schema and merged with the rules of merge.ts,
 * later inputs seeing earlier ones. The service writes what this returns;
 * the CSV preview only looks at it.
 */

export const tombstone = (ws: WorkingSet, target: string, seq: number, now: number): DraftEntry | null => {
  const e = ws.entries.get(target);
  return e ? { ...e, seq, status: 'dropped', error: null, batchId: null, updatedAt: now } : null;
};

/** Merges inputs in order, each seeing the ones before it; returns the rows to write, storing nothing. */
export function stageChanges(ws: WorkingSet, inputs: readonly unknown[], ctx: MergeContext, now: number) {
  const errors: (ChangeIssue & { index: number })[] = [];
  const staged = new Map<string, DraftEntry>();
  // Later inputs see earlier ones: merge through an overlay, then write all at once.
  const scratch = overlay(ws, staged);
  const scratchCtx: MergeContext = { ...ctx, live: (t) => liveEntry(scratch, t), liveEntries: () => liveEntries(scratch) };
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


export function emptyWorkingSet(): WorkingSet {
  return { draftId: '', entries: createEntryIndex(), nextSeq: 1 };
}

export function entryOf(c: Change, seq: number, now: number): DraftEntry {
  return { target: targetOf(c), seq, change: c, status: 'pending', error: null, batchId: null, updatedAt: now };
}

/** Best-effort row name for an input that did not even parse. */
function targetHint(raw: unknown): string {
  if (typeof raw !== 'object' || raw === null) return '';
  const r = raw as Record<string, unknown>;
  const id = r.asset_id ?? r.sku ?? r.listing_id;
  return typeof id === 'string' ? id : '';
}
