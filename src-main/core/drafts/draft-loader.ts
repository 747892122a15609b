import type { Repos } from '../store/index.ts';
import type { Clock } from '../clock.ts';
import type { LedgerCache } from './ledger-view.ts';
import { applyPatch } from './patch.ts';
import { nextTurn, overRows, runInSlices, type SlicedWork, type Turn } from './sliced-read.ts';
import { createEntryIndex, type EntryIndex, type WorkingSet } from './working-set.ts';

/**
 * Drafts read into memory (working sets), each once: at the first question
 * about it, or a slice at a time after the workspace opens (the current
 * draft, see sliced-read.ts), so that the first screen showing it does not
 * wait for tens of thousands of rows to be read and checked.
 */
export interface DraftLoader {
  /** The draft's working set: the one held, else read now (finishing a warm-up of it under way). */
  load(id: string): WorkingSet;
  /**
   * Reads the ledger, then the current draft, a slice at a time; gives up on
   * the draft when any draft is written meanwhile (`load` then reads afresh).
   */
  warm(turn?: Turn): Promise<void>;
  /** The drafts are closing: a warm-up under way ends at its next turn. */
  stop(): void;
}

export interface DraftLoaderDeps {
  repos: Pick<Repos, 'drafts'>;
  clock: Clock;
  ledger: LedgerCache;
  /** The draft the trader works on, the one worth reading early. */
  currentDraft(): string | null;
  /** The working sets held, by draft ID: the loader adds to it. */
  sets: Map<string, WorkingSet>;
  /** The draft held bulk patches not yet folded into its rows. */
  onPatches(id: string): void;
}

interface Reading {
  readonly id: string;
  /** The drafts' write count when the rows were read: a write since makes them stale. */
  readonly writes: number;
  readonly entries: EntryIndex;
  readonly work: SlicedWork;
}

export function createDraftLoader(deps: DraftLoaderDeps): DraftLoader {
  const { repos, sets } = deps;
  let reading: Reading | null = null;
  let stopped = false;

  function begin(id: string): Reading {
    const entries = createEntryIndex();
    return { id, writes: repos.drafts.writes(), entries, work: overRows(repos.drafts.entriesChecked(id), (e) => entries.set(e)) };
  }

  /** Holds the rows read, with the bulk patches not yet folded laid over them. */
  function install(id: string, entries: EntryIndex): WorkingSet {
    const ws: WorkingSet = { draftId: id, entries, nextSeq: repos.drafts.maxSeq(id) + 1 };
    const patches = repos.drafts.patches(id);
    const view = deps.ledger();
    for (const p of patches) applyPatch(ws, view, p.seq, p.body, deps.clock.now());
    sets.set(id, ws);
    if (patches.length > 0) deps.onPatches(id);
    return ws;
  }

  return {
    load(id) {
      const held = sets.get(id);
      if (held) return held;
      // A warm-up of this draft is finished if nothing was written since it read the rows; a warm-up of another goes on.
      const started = reading?.id === id ? reading : null;
      if (started) reading = null;
      const r = started && started.writes === repos.drafts.writes() ? started : begin(id);
      r.work.step();
      return install(id, r.entries);
    },
    async warm(turn = nextTurn) {
      // A turn after the drafts closed ends the warm-up: the store may be closed.
      const whileOpen: Turn = async () => {
        await turn();
        if (stopped) throw new Error('the drafts were closed');
      };
      try {
        await deps.ledger.warm(whileOpen);
        const id = deps.currentDraft();
        await whileOpen();
        if (id === null || sets.has(id) || reading || repos.drafts.get(id) === null) return;
        const r = (reading = begin(id));
        const done = await runInSlices(r.work, whileOpen, () => reading === r && r.writes === repos.drafts.writes());
        if (reading !== r) return;
        reading = null;
        if (done && !sets.has(id)) install(id, r.entries);
      } catch {
        // Nothing is lost: the first question that needs these rows reads them, and meets any fault itself.
      }
    },
    stop() {
      stopped = true;
    },
  };
}
