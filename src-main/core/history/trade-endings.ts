import type { HistoryRepo, LeftTradeRow, ReadingRow } from '../store/history-repo.ts';
import { cancellingTrades, matchBalanceMove } from './balance-match.ts';
import { inParts, RECORD_PART, type Steps } from './record-parts.ts';
import type { ListingEvidence } from './trade-recorder.ts';

/**
 * How the trades that left the lists ended, decided from what the desk can
 * see (see trade-recorder.ts): matched to the balance's moves, explained by
 * a listing found gone, or vanished. Everything is decided from one reading
 * of the store, in time linear in the trades and readings (a trade is a
 * candidate only in the readings between its last sight and its leaving),
 * then written a part at a time.
 */

/** Readings this far back are looked at again when a trade leaves: its completion may lie in any of them. */
export const MATCH_WINDOW_MS = 3 * 3_600_000;
/** A left trade no reading explained after this many readings is vanished. */
const READINGS_TO_VANISH = 2;
/** Vanished sales a later listing refusal may still explain. */
const LISTING_EVIDENCE_MS = 30 * 86_400_000;
/** Left trades read at a time. */
const READ_PAGE = RECORD_PART;

const effect = (t: Pick<LeftTradeRow, 'side' | 'total'>) => (t.side === 'sale' ? t.total : -t.total);
const keyOf = (t: Pick<LeftTradeRow, 'trade_type' | 'trade_id'>) => `${t.trade_type}:${t.trade_id}`;

/** How many of `times` (ascending) lie below `value` (`orAt`: at or below it), by binary search. */
function countBelow(times: readonly number[], value: number, orAt = false): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const t = times[mid] ?? Infinity;
    if (t < value || (orAt && t === value)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function* decideEndings(repo: HistoryRepo, listings: ListingEvidence | undefined, now: number): Steps<void> {
  const { store } = repo;
  const settled = new Set<string>();
  if (listings) {
    for (const part of inParts(repo.salesWithListings(now - LISTING_EVIDENCE_MS), RECORD_PART)) {
      store.transaction(() => {
        for (const t of part) {
          if (!listings.goneOrRefused(t.sold_assets, t.trade_id)) continue;
          repo.setEnding(t.trade_type, t.trade_id, 'listing_sold', now);
          settled.add(keyOf(t));
        }
      });
      yield;
    }
  }
  const left: LeftTradeRow[] = [];
  for (let after: LeftTradeRow | null = null; ;) {
    const page = repo.leftTrades(after, READ_PAGE);
    for (const t of page) if (!settled.has(keyOf(t))) left.push(t);
    after = page.at(-1) ?? null;
    if (page.length < READ_PAGE) break;
    yield;
  }
  if (left.length === 0) return;
  // In the order they left: among matches of as many trades, the earliest wins.
  const open = new Set(left.sort((a, b) => a.left_at - b.left_at));
  const readings = repo.readingsSince(now - MATCH_WINDOW_MS);
  const times = readings.map((r) => r.at);
  const previous = readings.length > 0 ? repo.readingBefore(times[0] ?? 0) : null;
  const windows = yield* candidateWindows([...open], readings, previous);

  for (const [i, reading] of readings.entries()) {
    if (reading.unexplained === null || reading.unexplained === 0) continue;
    const candidates = (windows[i] ?? []).filter((t) => open.has(t));
    if (candidates.length === 0) continue;
    const picked = matchBalanceMove(candidates.map(effect), reading.unexplained);
    // Trying every subset of up to 14 candidates is a step of its own.
    yield;
    if (picked === null) continue;
    const taken = picked.map((j) => candidates[j]).filter((t): t is LeftTradeRow => t !== undefined);
    let unexplained = reading.unexplained;
    // Each part takes its trades' amounts off the reading with them: a part cut short leaves the rest to match the rest.
    for (const part of inParts(taken, RECORD_PART)) {
      store.transaction(() => {
        for (const t of part) {
          repo.setEnding(t.trade_type, t.trade_id, 'balance_moved', reading.at);
          unexplained -= effect(t);
          open.delete(t);
        }
        repo.setUnexplained(reading.at, unexplained);
      });
      yield;
    }
  }

  // Trades left open in a reading's window that cancel others there (+252 and −252 move the balance by nothing).
  const masked = new Set<LeftTradeRow>();
  for (const window of windows) {
    const here = window.filter((t) => open.has(t));
    if (here.length === 0) continue;
    for (const i of cancellingTrades(here.map(effect))) masked.add(here[i] as LeftTradeRow);
    // Every group of up to 14 trades is tried: a step of its own.
    yield;
  }
  const vanished = [...open].filter((t) => {
    const after = readings.length - countBelow(times, t.left_at, true);
    // The readings cannot tell trades whose amounts cancel (a sale and a purchase of one amount) from none: only time calls them vanished.
    return (after >= READINGS_TO_VANISH && !masked.has(t)) || t.left_at < now - MATCH_WINDOW_MS;
  });
  for (const part of inParts(vanished, RECORD_PART)) {
    store.transaction(() => {
      for (const t of part) repo.setEnding(t.trade_type, t.trade_id, 'vanished', now);
    });
    yield;
  }
}

/**
 * For each reading, the trades that may have completed in its window: seen
 * pending last before the reading, and gone after the reading before it.
 */
function* candidateWindows(open: readonly LeftTradeRow[], readings: readonly ReadingRow[], previous: ReadingRow | null): Steps<LeftTradeRow[][]> {
  const times = readings.map((r) => r.at);
  const windows: LeftTradeRow[][] = readings.map(() => []);
  for (const [n, t] of open.entries()) {
    if (n > 0 && n % (4 * RECORD_PART) === 0) yield;
    // From the first reading after its last sight, to the last whose window opens before it left.
    const first = countBelow(times, t.last_seen_at, true);
    const last = Math.min(readings.length - 1, countBelow(times, t.left_at));
    for (let i = first; i <= last; i++) {
      const from = i === 0 ? (previous?.at ?? -Infinity) : (times[i - 1] ?? -Infinity);
      if (from < t.left_at) windows[i]?.push(t);
    }
  }
  return windows;
}
