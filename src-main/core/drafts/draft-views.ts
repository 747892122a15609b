import type { LedgerDomain } from '../../../src-shared/ledger.ts';
import type { CountsMove } from '../store/key-counts.ts';

/**
 * The version of what the screens read of each draft (a table's order and
 * counts), and, for each recent step of it, how each table's unfiltered
 * counts moved when that is known (changes added or removed a part at a
 * time: a reprice's hundreds of parts). A table that served its counts at
 * an earlier version moves them by the steps since, instead of counting the
 * whole draft again; one step whose move is not known (a bulk edit, an
 * apply, a rename) means counting again. A move is worth counting only for
 * a table that serves the draft's counts (`watch`): counting the keys of a
 * write costs a few lookups each (~9 % of adding 250 new buy orders).
 */

/** How a write moved each table's counts; a table left out: not known. */
export type CountsMoves = Readonly<Partial<Record<LedgerDomain, CountsMove>>>;

export interface DraftViews {
  version(draftId: string): number;
  /** What the screens read moved: by `moved` where known, else null. */
  step(draftId: string, moved: CountsMoves | null): void;
  /** How a table's counts moved from version `since` to now; null when a step between is not known (or no longer kept). */
  movedSince(draftId: string, since: number, domain: LedgerDomain): CountsMove | null;
  /** A table serves this draft's counts: its moves are worth counting from now on. */
  watch(draftId: string, domain: LedgerDomain): void;
  watched(draftId: string, domain: LedgerDomain): boolean;
}

/** Steps kept per table of a draft: a reprice of 50,000 listings takes ~500 parts, read every few of them by a page. */
const KEPT_STEPS = 1_000;

export function createDraftViews(): DraftViews {
  const versions = new Map<string, number>();
  /** Per table of a draft, the known moves from version `from` on (`moves[i]` took it from `from + i` to the next). */
  const known = new Map<string, { from: number; moves: CountsMove[] }>();
  const watching = new Set<string>();
  const keyOf = (id: string, domain: LedgerDomain) => `${domain}|${id}`;
  const version = (id: string) => versions.get(id) ?? 0;
  return {
    version,
    step(id, moved) {
      const next = version(id) + 1;
      versions.set(id, next);
      for (const domain of ['listings', 'buyOrders'] as const) {
        const key = keyOf(id, domain);
        const move = moved?.[domain];
        if (move === undefined) {
          known.set(key, { from: next, moves: [] });
          continue;
        }
        const steps = known.get(key) ?? { from: 0, moves: [] };
        known.set(key, steps);
        steps.moves.push(move);
        if (steps.moves.length > KEPT_STEPS) {
          steps.moves.shift();
          steps.from += 1;
        }
      }
    },
    movedSince(id, since, domain) {
      const steps = known.get(keyOf(id, domain)) ?? { from: 0, moves: [] };
      const now = version(id);
      if (since < steps.from || since > now) return null;
      let created = 0;
      let changed = 0;
      for (let i = since - steps.from; i < now - steps.from; i++) {
        created += steps.moves[i]?.created ?? 0;
        changed += steps.moves[i]?.changed ?? 0;
      }
      return { created, changed };
    },
    watch: (id, domain) => void watching.add(keyOf(id, domain)),
    watched: (id, domain) => watching.has(keyOf(id, domain)),
  };
}
