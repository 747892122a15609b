import type { Staging } from '../store/scratch-staging.ts';
import { targetOf, type Change, type DraftEntry, type ParsedChangeInput } from './change.ts';
import { mergeChange, type ChangeIssue, type MergeContext } from './merge.ts';

export type { Staging };

/**
 * Turning the trader's inputs into draft rows without storing them: each
 * input merged with the rules of merge.ts, later inputs seeing earlier ones
 * through `staged` (which the context reads first, see draft-context.ts). A
 * staged `dropped` entry means "remove this row". The service writes what
 * this returns; the CSV preview only counts it.
 */

export interface Staged<S extends Staging = Map<string, DraftEntry>> {
  /** Rows to write (or, `dropped`, to remove), by target. */
  readonly staged: S;
  readonly errors: (ChangeIssue & { index: number })[];
  /** Inputs accepted. */
  readonly added: number;
  /** Of those, inputs that changed a row the draft already held (a listing drafted again at another price). */
  readonly replaced: number;
  /** The next sequence number after the ones used. */
  readonly nextSeq: number;
}

/** A removal of what `target` holds (live or stored), or null when it holds nothing. */
export const tombstone = (ctx: Pick<MergeContext, 'live'>, target: string, seq: number, now: number): DraftEntry | null => {
  const e = ctx.live(target);
  return e ? { ...e, seq, status: 'dropped', error: null, batchId: null, updatedAt: now } : null;
};

/** Inputs whose rows are read at once before they are merged. */
const WARM_RUN = 2_000;

/**
 * Merges inputs in order into `staged` (which `ctx` must read through), numbering rows from `firstSeq`;
 * `indexBase` is added to each error's index (a chunk of a longer list). The inputs are ones the shared
 * schema read where they came in (the router, a CSV file's reader, `readChangeInputs`): they are merged
 * as they are, never parsed again (parsing a million of them twice doubled what a preview allocated).
 */
export function stageChanges<S extends Staging>(
  staged: S, ctx: MergeContext, inputs: readonly ParsedChangeInput[], firstSeq: number, now: number, indexBase = 0,
): Staged<S> {
  const errors: (ChangeIssue & { index: number })[] = [];
  let seq = firstSeq;
  let added = 0;
  let replaced = 0;
  inputs.forEach((input, i) => {
    if (i % WARM_RUN === 0) ctx.warm?.(inputs.slice(i, i + WARM_RUN));
    const index = indexBase + i;
    const outcome = mergeChange(input, ctx);
    if (!outcome.ok) {
      for (const issue of outcome.issues) errors.push({ index, ...issue });
      return;
    }
    if (outcome.write.some((c) => ctx.live(targetOf(c)) !== undefined)) replaced += 1;
    for (const target of outcome.drop) {
      const t = tombstone(ctx, target, seq++, now);
      if (t) staged.set(target, t);
    }
    for (const c of outcome.write) {
      const e = entryOf(c, seq++, now);
      staged.set(e.target, e);
    }
    added += 1;
  });
  return { staged, errors, added, replaced, nextSeq: seq };
}

export function entryOf(c: Change, seq: number, now: number): DraftEntry {
  return { target: targetOf(c), seq, change: c, status: 'pending', error: null, batchId: null, updatedAt: now };
}
