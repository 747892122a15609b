import type { PendingTrade } from '../../../src-shared/trades.ts';
import { printable } from '../safe-text.ts';
import type { HistoryRepo, HistoryTradeInput, LeftTradeRow } from '../store/history-repo.ts';
import { matchBalanceMove } from './balance-match.ts';

/**
 * Keeps what the trade watcher sees: every trade with its last status, when
 * it left the pending lists and how it ended, and every balance reading.
 * The service never says whether a trade that left its lists went through;
 * the desk decides from what it can see:
 * - `balance_moved`: between two readings the balance moved by exactly what
 *   trades that left meanwhile pay in and out (balance-match.ts);
 * - `listing_sold`: a listing the sale took is gone from the service, or an
 *   edit to it was refused as sold;
 * - `vanished`: neither, two readings after it left (or three hours on):
 *   declined or expired, most likely. A listing found gone later still
 *   turns a vanished sale into `listing_sold`.
 * Every method is synchronous and writes at once, so a crash loses nothing
 * that was seen.
 */
export interface TradeRecorder {
  /** A load listed these trades at `at`. Each method returns whether what History shows changed. */
  notePending(trades: readonly PendingTrade[], at: number): boolean;
  /** These trades were not in the load at `at` (the watcher's `gone`). */
  noteGone(gone: readonly { readonly tradeType: string; readonly tradeId: string }[], at: number): boolean;
  noteBalance(reading: { readonly balance: number; readonly pending_balance: number; readonly readAt: number }): boolean;
}

/** What the ledger tells about the listings a sale took. */
export interface ListingEvidence {
  /** Asset IDs of the ledger's listings this trade sold. */
  soldBy(tradeId: string): string[];
  /** When the desk listed this asset (its last create that went through before `before`), null when unknown. */
  listedAt(assetId: string, before: number): number | null;
  /** Whether one of these listings is gone from the service, or was refused as sold, by other news than this trade leaving. */
  goneOrRefused(assetIds: readonly string[], tradeId: string): boolean;
}

export interface TradeRecorderDeps {
  readonly repo: HistoryRepo;
  /** Every account ID of the key; the trade's own side is found from them. */
  readonly ownIds: () => readonly string[];
  readonly listings?: ListingEvidence;
}

/** Readings this far back are looked at again when a trade leaves: its completion may lie in any of them. */
const MATCH_WINDOW_MS = 3 * 3_600_000;
/** A left trade no reading explained after this many readings is vanished. */
const READINGS_TO_VANISH = 2;
/** Vanished sales a later listing refusal may still explain. */
const LISTING_EVIDENCE_MS = 30 * 86_400_000;
const NAME_MAX = 200;

export function createTradeRecorder(deps: TradeRecorderDeps): TradeRecorder {
  const { repo, listings } = deps;

  const effect = (t: Pick<LeftTradeRow, 'side' | 'total'>) => (t.side === 'sale' ? t.total : -t.total);

  function checkListings(trades: readonly LeftTradeRow[], now: number): Set<string> {
    const settled = new Set<string>();
    if (!listings) return settled;
    for (const t of trades) {
      if (t.side !== 'sale' || t.sold_assets.length === 0) continue;
      if (!listings.goneOrRefused(t.sold_assets, t.trade_id)) continue;
      repo.setEnding(t.trade_type, t.trade_id, 'listing_sold', now);
      settled.add(`${t.trade_type}:${t.trade_id}`);
    }
    return settled;
  }

  /** Matches balance moves of the recent readings to trades that left, then says which are vanished. */
  function resolve(now: number): void {
    repo.store.transaction(() => {
      const settled = checkListings(repo.unexplained(['left', 'vanished'], now - LISTING_EVIDENCE_MS), now);
      let open = repo.unexplained(['left'], 0).filter((t) => !settled.has(`${t.trade_type}:${t.trade_id}`));
      if (open.length === 0) return;
      const readings = repo.readingsSince(now - MATCH_WINDOW_MS);
      let previous = readings.length > 0 ? repo.readingBefore(readings[0]?.at ?? 0) : null;
      const windows: (typeof open)[] = [];
      for (const reading of readings) {
        const from = previous?.at ?? -Infinity;
        previous = reading;
        // A trade completed between the last load that listed it and the first that did not.
        const candidates = open.filter((t) => t.last_seen_at < reading.at && t.left_at > from);
        windows.push(candidates);
        if (reading.unexplained === null || reading.unexplained === 0) continue;
        const picked = matchBalanceMove(candidates.map(effect), reading.unexplained);
        if (picked === null) continue;
        const taken = new Set(picked.map((i) => candidates[i]));
        let sum = 0;
        for (const t of taken) {
          if (!t) continue;
          sum += effect(t);
          repo.setEnding(t.trade_type, t.trade_id, 'balance_moved', reading.at);
        }
        repo.setUnexplained(reading.at, reading.unexplained - sum);
        open = open.filter((t) => !taken.has(t));
      }
      const masked = cancelledPairs(windows.map((w) => w.filter((t) => open.includes(t))));
      for (const t of open) {
        const after = readings.filter((r) => r.at > t.left_at).length;
        // The readings cannot tell a sale and a purchase of one amount that may have gone through together: only time calls them vanished.
        const byReadings = after >= READINGS_TO_VANISH && !masked.has(t);
        if (byReadings || t.left_at < now - MATCH_WINDOW_MS) repo.setEnding(t.trade_type, t.trade_id, 'vanished', now);
      }
    });
  }

  /** Trades left unexplained in one reading's window whose amounts cancel another's there (+252 and −252 move the balance by nothing). */
  function cancelledPairs(windows: readonly (readonly LeftTradeRow[])[]): Set<LeftTradeRow> {
    const masked = new Set<LeftTradeRow>();
    for (const window of windows) {
      for (const t of window) if (window.some((u) => u !== t && effect(u) === -effect(t))) masked.add(t);
    }
    return masked;
  }

  function asInput(trade: PendingTrade, own: ReadonlySet<string>): HistoryTradeInput {
    const sale = own.has(trade.supplier_id) || (!own.has(trade.buyer_id) && trade.supplier_id === trade.user_id);
    return {
      trade_type: trade.trade_type,
      trade_id: trade.trade_id,
      side: sale ? 'sale' : 'purchase',
      account: sale ? trade.supplier_id : trade.buyer_id,
      partner: sale ? trade.buyer_id : trade.supplier_id,
      status: printable(trade.status, NAME_MAX),
      total: trade.total,
      created_at: trade.timestamp * 1000,
      items: trade.items.map((i) => ({ sku: printable(i.sku, NAME_MAX), name: printable(i.name, NAME_MAX), quantity: i.quantity, price: i.price })),
    };
  }

  return {
    notePending(trades, at) {
      const own = new Set([...deps.ownIds()]);
      return repo.store.transaction(() => {
        let changed = false;
        for (const trade of trades) {
          const input = asInput(trade, new Set([...own, trade.user_id]));
          if (repo.seen(input, at)) changed = true;
          if (!listings || input.side !== 'sale' || trade.trade_type !== 'market') continue;
          // Looked up once per sale: the listing time is a search of the activity log.
          if (repo.knowsSoldListings(trade.trade_type, trade.trade_id)) continue;
          const assets = listings.soldBy(trade.trade_id);
          if (assets.length === 0) continue;
          const listed = assets.map((a) => listings.listedAt(a, input.created_at)).filter((t): t is number => t !== null);
          repo.soldListings(trade.trade_type, trade.trade_id, assets, listed.length > 0 ? Math.min(...listed) : null);
          changed = true;
        }
        return changed;
      });
    },
    noteGone(gone, at) {
      if (gone.length === 0) return false;
      repo.left(gone.map((g) => ({ trade_type: g.tradeType, trade_id: g.tradeId })), at);
      resolve(at);
      return true;
    },
    noteBalance(reading) {
      const before = repo.readingBefore(reading.readAt);
      const delta = before === null ? null : reading.balance - before.balance;
      if (!repo.addReading({ at: reading.readAt, balance: reading.balance, pending_balance: reading.pending_balance }, delta)) return false;
      resolve(reading.readAt);
      return true;
    },
  };
}
