import type { LedgerDomain } from '../../../src-shared/ledger.ts';
import type { CountsMove } from '../store/key-counts.ts';

/**
 * The version of what the screens read of each draft (a table's order and
 * counts), and, for each recent step of it, how the tables' unfiltered
 * counts moved when that is known (changes added or removed a part at a
 * time: a reprice's hundreds of parts). A table that served its counts at
 * an earlier version moves them by the steps since, instead of counting the
 * whole draft again; one step whose move is not known (a bulk edit, an
 * apply, a rename) means counting again.
 */

export type CountsMoves = Readonly<Record<LedgerDomain, CountsMove>>;

export interface DraftViews {
  version(draftId: string): number;
  /** What the screens read moved: by `moved` when known, else null. */
  step(draftId: string, moved: CountsMoves | null): void;
  /** How a table's counts moved from version `since` to now; null when a step between is not known (or no longer kept). */
  movedSince(draftId: string, since: number, domain: LedgerDomain): CountsMove | null;
}

/** Steps kept per draft: a reprice of 50,000 listings takes ~500 parts, read every few of them by a page. */
const KEPT_STEPS = 1_000;

export function createDraftViews(): DraftViews {
  const versions = new Map<string, number>();
  /** Per draft, the known moves from version `from` on (`moves[i]` took it from `from + i` to the next). */
  const known = new Map<string, { from: number; moves: CountsMoves[] }>();
  const version = (id: string) => versions.get(id) ?? 0;
  return {
    version,
    step(id, moved) {
      const next = version(id) + 1;
      versions.set(id, next);
      if (moved === null) {
        known.set(id, { from: next, moves: [] });
        return;
      }
      const steps = known.get(id) ?? { from: 0, moves: [] };
      known.set(id, steps);
      steps.moves.push(moved);
      if (steps.moves.length > KEPT_STEPS) {
        steps.moves.shift();
        steps.from += 1;
      }
    },
    movedSince(id, since, domain) {
      const steps = known.get(id) ?? { from: 0, moves: [] };
      const now = version(id);
      if (since < steps.from || since > now) return null;
      let created = 0;
      let changed = 0;
      for (const m of steps.moves.slice(since - steps.from, now - steps.from)) {
        created += m[domain].created;
        changed += m[domain].changed;
      }
      return { created, changed };
    },
  };
}
