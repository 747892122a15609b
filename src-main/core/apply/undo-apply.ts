import type { DraftService } from '../drafts/draft-service.ts';
import { conflict, notFound } from '../errors.ts';
import type { Repos } from '../store/index.ts';
import { planUndo, type UndoNote, type UndoStep } from './undo-plan.ts';

/**
 * Undo an apply in one step: a new draft, made current, holding what takes
 * back everything the run did that can be taken back (see undo-plan.ts).
 * Nothing is sent: the trader reviews the draft and applies it like any
 * other. The answer says what the draft does and what cannot come back.
 */
export interface UndoResult {
  readonly runId: number;
  /** The new draft, now the current one; null when nothing could be undone (no draft is made). */
  readonly draftId: string | null;
  readonly name: string;
  /** Rows edited back to their values before the apply. */
  readonly restored: number;
  /** Rows the apply created, deleted by the draft. */
  readonly removed: number;
  /** Buy orders the apply deleted, created again by the draft. */
  readonly recreated: number;
  /** Rows already as they were before the apply. */
  readonly unchanged: number;
  /** Changes of the apply whose outcome is still unknown: resolved, they can be undone by undoing it again. */
  readonly unresolved: number;
  /** What cannot come back, what changed since (undone anyway), what comes back in part, with why. */
  readonly notes: readonly UndoNote[];
}

export interface UndoDeps {
  readonly repos: Repos;
  readonly drafts: Pick<DraftService, 'create' | 'addChanges'>;
}

const NOTE_ORDER: readonly UndoNote['kind'][] = ['lost', 'changedSince', 'partly'];

/** "2026-01-05 14:03" in the desk's own time zone, for the draft's name. */
function localMinute(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

export function undoApply(deps: UndoDeps, runId: number): UndoResult {
  const { repos, drafts } = deps;
  const run = repos.journal.run(runId);
  if (!run) throw notFound(`There is no apply ${runId}; it may have gone with its draft`);
  if (run.state === 'running') throw conflict('This apply is still running: undo it once it has ended');
  const rows = repos.applied.ofRun(runId);
  if (rows.length === 0) throw conflict('Nothing of this apply was done, so there is nothing to undo');
  const plan = planUndo(rows, { listing: (id) => repos.listings.get(id), buyOrder: (sku) => repos.buyOrders.get(sku) });
  const unresolved = repos.journal.batches({ runId, states: ['unknown'] })
    .reduce((n, b) => n + repos.drafts.entriesOfBatch(b.batch_id).filter((e) => e.status === 'unknown').length, 0);
  const name = `Undo of apply ${localMinute(run.started_at)}`;
  const notes = [...plan.notes];
  let steps: readonly UndoStep[] = plan.steps;
  let draftId: string | null = null;
  if (steps.length > 0) {
    draftId = drafts.create(name).id;
    const { errors } = drafts.addChanges(draftId, steps.map((s) => s.input));
    // The draft's own rules refused some (a note the service would now refuse): said, and not counted as undone.
    const refused = new Map(errors.map((e) => [e.index, e.message]));
    for (const [index, message] of refused) {
      const step = steps[index];
      if (step) notes.push({ target: step.target, sku: step.target.startsWith('B:') ? step.target.slice(2) : '', kind: 'lost', reason: `could not be put in the draft: ${message}` });
    }
    steps = steps.filter((_, i) => !refused.has(i));
  }
  const counted = (what: UndoStep['what']) => steps.filter((s) => s.what === what).length;
  // What cannot come back first: it is what the trader most needs to know.
  notes.sort((a, b) => NOTE_ORDER.indexOf(a.kind) - NOTE_ORDER.indexOf(b.kind));
  return {
    runId, draftId, name,
    restored: counted('restore'), removed: counted('remove'), recreated: counted('recreate'),
    unchanged: plan.unchanged, unresolved, notes,
  };
}
