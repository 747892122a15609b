import type { Turn } from '../turn.ts';

/**
 * What the trade watcher (core/trades/) keeps across restarts, as the ports
 * the store implements (trades-repo.ts): declared here, with the store, so
 * the store needs nothing of the watcher.
 */

/** The trades seen pending: key `${trade_type}:${trade_id}` → the last status announced. */
export interface SeenTradesStore {
  load(): Promise<ReadonlyMap<string, string>>;
  /** Replaces the whole set (all or nothing); a large set may be written a part at a time, `turn` apart. */
  save(seen: ReadonlyMap<string, string>, turn?: Turn): Promise<void>;
}

/** The trades announced as needing action: announcement keys (`type:id:status`). */
export interface AnnouncedTradesStore {
  /** The keys, oldest first. */
  load(): Promise<readonly string[]>;
  /** Replaces the whole memory (all or nothing). */
  save(keys: readonly string[]): Promise<void>;
}
