import type { Store } from '../store/db.ts';
import type { Repos } from '../store/index.ts';
import { isLockedStatus, type DraftEntry } from './change.ts';
import type { PatchBody } from './patch.ts';
import type { Slot, WorkingSet } from './working-set.ts';

/**
 * Folds stored bulk patches into per-change rows in small steps, so a bulk
 * operation returns at once and the folding never blocks the app for long.
 * A round takes every patch stored so far, writes the current state of each
 * target they touched once (however many patches touched it), and removes
 * those patches with its last step, in the same transaction. A crash in
 * between is harmless: the patches replay on load (see applyPatch).
 */
export interface PatchFolder {
  schedule(draftId: string): void;
  /** Folds everything now (before apply or export). */
  foldAll(draftId: string): void;
  forget(draftId: string): void;
  stop(): void;
}

interface Cursor {
  patchIds: number[];
  /** Writes only entries at least this new: older ones were not touched by these patches. */
  minSeq: number;
  keys: [Slot, string][];
  offset: number;
}

/**
 * Rows written per step: about 10 ms on the build machine (1,000 took 30–40
 * ms), which is as long as a request arriving meanwhile waits for it.
 */
const STEP_ROWS = 300;

/**
 * How long after the last edit folding waits: the screen asks for the rows an
 * edit changed right after it, and those answers must not queue behind
 * folding steps.
 */
const FOLD_QUIET_MS = 600;

/**
 * A `defer` that runs a task once no edit has come for FOLD_QUIET_MS, given
 * when the last one came (wall time: the machine's pace, not the app's clock).
 */
export function whenQuiet(lastEditAt: () => number): (task: () => void) => void {
  const later = (task: () => void): void => {
    const wait = lastEditAt() + FOLD_QUIET_MS - Date.now();
    if (wait <= 0) setImmediate(task);
    else setTimeout(() => later(task), wait).unref();
  };
  return later;
}

/** Entries of a laid patch written into memory per step: about 5 ms (no disk). */
const WRITE_IN_ROWS = 2_000;

export function createPatchFolder(deps: {
  store: Store;
  repos: Pick<Repos, 'drafts'>;
  sets: ReadonlyMap<string, WorkingSet>;
  defer: (task: () => void) => void;
}): PatchFolder {
  const { store, repos, sets } = deps;
  const cursors = new Map<string, Cursor | null>();
  const scheduled = new Set<string>();
  let stopped = false;

  /** One step; returns whether work is left. */
  function step(draftId: string, rows: number): boolean {
    const ws = sets.get(draftId);
    if (!ws) return false; // not loaded: replayed when it is
    // A bulk edit laid over the draft in memory is written into it first, a slice at a time (see EntryIndex.lay).
    if (ws.entries.writeIn(rows === Number.MAX_SAFE_INTEGER ? rows : WRITE_IN_ROWS) > 0) return true;
    let cursor = cursors.get(draftId) ?? null;
    if (!cursor) {
      const patches = repos.drafts.patchTargets(draftId);
      if (patches.length === 0) {
        repos.drafts.purgeTombstones(draftId);
        for (const e of [...ws.entries.values()]) if (e.status === 'dropped') ws.entries.delete(e.target);
        return false;
      }
      cursor = { patchIds: patches.map((p) => p.patch_id), minSeq: patches[0]?.seq ?? 0, keys: keysOf(patches), offset: 0 };
      cursors.set(draftId, cursor);
    }
    const end = Math.min(cursor.offset + rows, cursor.keys.length);
    const writes: DraftEntry[] = [];
    for (let i = cursor.offset; i < end; i++) {
      const [slot, id] = cursor.keys[i] as [Slot, string];
      const e = ws.entries.slot(slot).get(id);
      // Locked entries belong to an apply, which wrote them itself.
      if (e && e.seq >= cursor.minSeq && !isLockedStatus(e.status)) writes.push(e);
    }
    const last = end >= cursor.keys.length;
    const patchIds = cursor.patchIds;
    store.transaction(() => {
      repos.drafts.writeEntries(draftId, writes);
      if (last) for (const id of patchIds) repos.drafts.removePatch(id);
    });
    cursor.offset = end;
    if (last) cursors.set(draftId, null);
    return true;
  }

  const run = (draftId: string) => {
    scheduled.delete(draftId);
    if (stopped) return;
    try {
      if (step(draftId, STEP_ROWS)) schedule(draftId);
    } catch {
      // The database may be closing; the patch stays stored and is replayed on the next load.
      cursors.delete(draftId);
    }
  };

  function schedule(draftId: string) {
    if (stopped || scheduled.has(draftId)) return;
    scheduled.add(draftId);
    deps.defer(() => run(draftId));
  }

  return {
    schedule,
    foldAll(draftId) {
      while (step(draftId, Number.MAX_SAFE_INTEGER));
    },
    forget(draftId) {
      cursors.delete(draftId);
    },
    stop() {
      stopped = true;
    },
  };
}

function keysOf(bodies: readonly Pick<PatchBody, 'domain' | 'ids'>[]): [Slot, string][] {
  const listings = new Set<string>();
  const buyOrders = new Set<string>();
  for (const body of bodies) {
    const into = body.domain === 'listings' ? listings : buyOrders;
    for (const id of body.ids) into.add(id);
  }
  return [...[...listings].map((id): [Slot, string] => ['L', id]), ...[...buyOrders].map((id): [Slot, string] => ['B', id])];
}
