import type { PendingTrade } from '../../../src-shared/trades.ts';
import type { AnnouncedTradesStore } from '../store/watcher-memory.ts';
import { atOnce, type Steps } from '../turn.ts';
import { tradeKey, WATCH_PART } from './trade-diff.ts';

/**
 * Which trades the trader was told need action, per status, while they are
 * pending: a trade that goes back to a status already told about (sent, then
 * back to "Action required") is not news. Kept in the profile, so a restart
 * does not notify again about trades already shown; bounded, so the memory
 * never grows with the account's history.
 */

/** More than any account has pending; beyond it the oldest announcements are forgotten first. */
export const MAX_ANNOUNCED = 2_000;

/** The watcher's port; the profile store implements it over SQLite. */
export type { AnnouncedTradesStore } from '../store/watcher-memory.ts';

/** Keeps the memory in this process only: for tests and for a run without a profile. */
export function createMemoryAnnouncedTradesStore(initial: readonly string[] = []): AnnouncedTradesStore {
  let keys = [...initial];
  return {
    load: async () => [...keys],
    save: async (next) => {
      keys = [...next];
    },
  };
}

/** The key of a trade and status that was announced (the notifier's `noticeKey` has the same shape). */
export const announcementKey = (trade: Pick<PendingTrade, 'trade_type' | 'trade_id' | 'status'>): string => `${tradeKey(trade)}:${trade.status}`;

/** The trade an announcement key is about: `type:id`. */
const tradeOfKey = (key: string): string => key.slice(0, key.indexOf(':', key.indexOf(':') + 1));

/** Trade keys (`type:id`) still pending: a set of them, or the seen set. */
export interface PendingKeys {
  has(key: string): boolean;
}

/**
 * Which of the trades that newly need action are news, and the memory after:
 * announcements of trades no longer known (`pending`: trade keys) forgotten,
 * the newest MAX_ANNOUNCED kept.
 */
export function announce<T extends PendingTrade>(memory: readonly string[], needsAction: readonly T[], pending: PendingKeys): { fresh: T[]; memory: string[] } {
  return atOnce(announceInParts(memory, needsAction, pending));
}

/** `announce`, yielding after every WATCH_PART trades that need action. */
export function* announceInParts<T extends PendingTrade>(memory: readonly string[], needsAction: readonly T[], pending: PendingKeys): Steps<{ fresh: T[]; memory: string[] }> {
  const told = new Set(memory.filter((key) => pending.has(tradeOfKey(key))));
  const fresh: T[] = [];
  for (const [i, trade] of needsAction.entries()) {
    if (i > 0 && i % WATCH_PART === 0) yield;
    const key = announcementKey(trade);
    if (told.has(key)) continue;
    told.add(key);
    fresh.push(trade);
  }
  return { fresh, memory: [...told].slice(-MAX_ANNOUNCED) };
}
