import type { PendingTrade } from '../../../src-shared/trades.ts';
import type { HistoryRepo } from '../store/history-repo.ts';
import { atOnce } from './record-parts.ts';
import type { TradeRecorder } from './trade-recorder.ts';

/**
 * What a watcher would have seen of a service before the desk first opened
 * it, in time order: loads that listed trades, trades no longer listed, and
 * balance readings. The built-in simulator tells its own past this way, so a
 * sandbox profile opens on a History of a few weeks; the same recorder as
 * the live watcher's keeps it, so the endings are the desk's own reading.
 */
export type PastEvent =
  | { readonly kind: 'seen'; readonly at: number; readonly trades: readonly PendingTrade[] }
  | { readonly kind: 'gone'; readonly at: number; readonly gone: readonly { readonly tradeType: string; readonly tradeId: string }[] }
  /** The desk had listed what this sale sold at `listedAt` (the live desk learns it from its own creates). */
  | { readonly kind: 'listed'; readonly at: number; readonly tradeType: string; readonly tradeId: string; readonly listedAt: number }
  | { readonly kind: 'balance'; readonly at: number; readonly balance: number; readonly pending_balance: number };

const FILLED = 'past_filled_at';

/**
 * Records `events` into an empty history, once per profile (a history with
 * anything in it, or filled before, is left alone). Returns how many events
 * were recorded (0 when nothing was done).
 */
export function fillPast(repo: HistoryRepo, recorder: TradeRecorder, events: Iterable<PastEvent>, now: number): number {
  if (repo.meta(FILLED) !== null) return 0;
  const { trades, readings } = repo.counts();
  if (trades > 0 || readings > 0) return 0;
  repo.setMeta(FILLED, String(now));
  let count = 0;
  repo.store.transaction(() => {
    for (const e of events) {
      count += 1;
      if (e.kind === 'seen') atOnce(recorder.notePending(e.trades, e.at));
      else if (e.kind === 'gone') atOnce(recorder.noteGone(e.gone, e.at));
      else if (e.kind === 'listed') repo.soldListings(e.tradeType, e.tradeId, [], e.listedAt);
      else atOnce(recorder.noteBalance({ balance: e.balance, pending_balance: e.pending_balance, readAt: e.at }));
    }
  });
  return count;
}
