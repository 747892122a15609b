import type { DraftService } from '../drafts/draft-service.ts';
import { nextTurn, type Turn } from '../turn.ts';
import { readChangeInputs } from '../drafts/change-inputs.ts';
import { conflict, notFound } from '../errors.ts';
import type { Repos } from '../store/index.ts';
import { planUndo, type UndoNote, type UndoStep } from './undo-plan.ts';

/**
 * Undo an apply in one step: a new draft, made current, holding what takes
 * back everything the run did that can be taken back (see undo-plan.ts).
 * Nothing is sent: the trader reviews the draft and applies it like any
 * other. The answer says what the draft does and what cannot come back.
 *
 * An apply of tens of thousands of changes is taken back a slice at a time,
 * giving the event loop back between slices; the draft is named as being
 * made until the last slice is in, so one cut short (the app closed
 * meanwhile) says so rather than passing for a whole undo.
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
  /** Listings the apply deleted whose asset can be listed again at its last price (`relistDeleted`). */
  readonly relistable: number;
}

export interface UndoDeps {
  readonly repos: Repos;
  readonly drafts: Pick<DraftService, 'create' | 'addChanges' | 'rename' | 'discard'>;
  /** How the work gives the event loop back between slices. */
  readonly turn?: Turn;
}

/** Rows of the apply taken back per slice: about 20 ms of drafting each. */
const SLICE = 500;

const NOTE_ORDER: readonly UndoNote['kind'][] = ['lost', 'changedSince', 'partly'];

/** "2026-01-05 14:03" in the desk's own time zone, for the draft's name. */
export function localMinute(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

export async function undoApply(deps: UndoDeps, runId: number): Promise<UndoResult> {
  const { repos, drafts } = deps;
  const turn = deps.turn ?? nextTurn;
  const run = repos.journal.run(runId);
  if (!run) throw notFound(`There is no apply ${runId}; it may have gone with its draft`);
  if (run.state === 'running') throw conflict('This apply is still running: undo it once it has ended');
  let page = repos.applied.page(runId, null, SLICE);
  if (page.length === 0) throw conflict('Nothing of this apply was done, so there is nothing to undo');
  const unresolved = repos.journal.batches({ runId, states: ['unknown'] })
    .reduce((n, b) => n + repos.drafts.entriesOfBatch(b.batch_id).filter((e) => e.status === 'unknown').length, 0);
  const name = `Undo of apply ${localMinute(run.started_at)}`;
  const ledger = { listing: (id: string) => repos.listings.get(id), buyOrder: (sku: string) => repos.buyOrders.get(sku) };
  const notes: UndoNote[] = [];
  const drafted: UndoStep[] = [];
  let unchanged = 0;
  let relistable = 0;
  let draftId: string | null = null;
  try {
    while (page.length > 0) {
      const plan = planUndo(page, ledger);
      notes.push(...plan.notes);
      unchanged += plan.unchanged;
      relistable += plan.relists.length;
      if (plan.steps.length > 0) {
        draftId ??= drafts.create(`${name} (being made)`).id;
        // Read with today's field rules: what was stored before a rule tightened is refused here, not sent.
        const read = readChangeInputs(plan.steps.map((s) => s.input));
        const { errors } = drafts.addChanges(draftId, read.inputs);
        // The draft's own rules refused some (a note the service would now refuse): said, and not counted as undone.
        const refused = new Map(read.refusals(errors).map((e) => [e.index, e.message]));
        plan.steps.forEach((step, i) => {
          const message = refused.get(i);
          if (message === undefined) drafted.push(step);
          else notes.push({ target: step.target, sku: step.target.startsWith('B:') ? step.target.slice(2) : '', kind: 'lost', reason: `could not be put in the draft: ${message}` });
        });
      }
      const last = page[page.length - 1];
      if (last === undefined || page.length < SLICE) break;
      await turn();
      page = repos.applied.page(runId, { slot: last.slot, key: last.key }, SLICE);
    }
    if (draftId !== null) drafts.rename(draftId, name);
  } catch (error) {
    // Half an undo is not an undo: the draft goes (nothing of it was sent).
    if (draftId !== null) {
      try {
        drafts.discard(draftId);
      } catch {
        // Its name still says it was being made.
      }
    }
    throw error;
  }
  const counted = (what: UndoStep['what']) => drafted.filter((s) => s.what === what).length;
  // What cannot come back first: it is what the trader most needs to know.
  notes.sort((a, b) => NOTE_ORDER.indexOf(a.kind) - NOTE_ORDER.indexOf(b.kind));
  return {
    runId, draftId, name,
    restored: counted('restore'), removed: counted('remove'), recreated: counted('recreate'),
    unchanged, unresolved, notes, relistable,
  };
}
