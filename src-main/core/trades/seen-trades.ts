import type { SeenTradesStore } from '../store/watcher-memory.ts';

/**
 * Which trade statuses the trader was already told about, kept across
 * restarts so a restart does not announce every pending trade again. The
 * watcher owns this port; the profile store implements it over SQLite.
 */
export type { SeenTradesStore } from '../store/watcher-memory.ts';

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
