import type { SeenTradesStore } from '../store/trades-repo.ts';

/** Keeps the set in memory only: for tests and for a run without a profile. */
export function createMemorySeenTradesStore(initial: Iterable<readonly [string, string]> = []): SeenTradesStore & {
  readonly saved: number;
} {
  let seen = new Map(initial);
  let saved = 0;
  return {
    load: async () => new Map(seen),
    save: async (next) => {
      seen = new Map(next);
      saved += 1;
    },
    get saved() {
      return saved;
    },
  };
}
