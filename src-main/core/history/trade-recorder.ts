import type { PendingTrade } from '../../../src-shared/trades.ts';
import { printable } from '../safe-text.ts';
import type { HistoryRepo, HistoryTradeInput } from '../store/history-repo.ts';
import { inParts, RECORD_PART, type Steps } from './record-parts.ts';
import { balanceRefusal, tradeRefusal } from './trade-bounds.ts';
import { decideEndings } from './trade-endings.ts';

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
 * A decided ending stays, whatever the service lists later; a trade or
 * reading with a number out of bounds (trade-bounds.ts), or listed again
 * with another timestamp, is kept as a refusal and changes nothing else.
 * Every part is written as one transaction, so a crash loses nothing of
 * what a part saw.
 */
export interface TradeRecorder {
  /**
   * A load listed these trades at `at`. Each recording yields between its
   * parts (record-parts.ts) and returns whether what History shows changed.
   */
  notePending(trades: readonly PendingTrade[], at: number): Steps<boolean>;
  /** These trades were not in the load at `at` (the watcher's `gone`). */
  noteGone(gone: readonly { readonly tradeType: string; readonly tradeId: string }[], at: number): Steps<boolean>;
  noteBalance(reading: { readonly balance: number; readonly pending_balance: number; readonly readAt: number }): Steps<boolean>;
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
  /** The service's clock (the desk's corrected by its `Date`), which a trade's timestamp must not run ahead of; default the store's. */
  readonly serviceNow?: () => number;
}

const NAME_MAX = 200;

export function createTradeRecorder(deps: TradeRecorderDeps): TradeRecorder {
  const { repo, listings } = deps;
  const serviceNow = deps.serviceNow ?? (() => repo.store.clock.now());

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

  /** Records one trade of a load; returns whether what History shows changed. */
  function notePendingTrade(trade: PendingTrade, own: ReadonlySet<string>, at: number, now: number): boolean {
    const refused = tradeRefusal(trade, now);
    if (refused) return repo.refuse({ kind: trade.trade_type, ref: trade.trade_id, ...refused }, at);
    const input = asInput(trade, own.has(trade.user_id) ? own : new Set([...own, trade.user_id]));
    const outcome = repo.seen(input, at);
    if (typeof outcome === 'object') {
      const first = String(Math.floor(outcome.otherTimestamp / 1000));
      return repo.refuse({
        kind: trade.trade_type, ref: trade.trade_id, field: 'timestamp', value: String(trade.timestamp),
        reason: `differs from ${first}, the timestamp it was first listed with`,
      }, at);
    }
    if (outcome === 'ended') return false;
    const changed = outcome !== 'unchanged';
    if (!listings || input.side !== 'sale' || trade.trade_type !== 'market') return changed;
    // Looked up once per sale: the listing time is a search of the activity log.
    if (repo.knowsSoldListings(trade.trade_type, trade.trade_id)) return changed;
    const assets = listings.soldBy(trade.trade_id);
    if (assets.length === 0) return changed;
    const listed = assets.map((a) => listings.listedAt(a, input.created_at)).filter((t): t is number => t !== null);
    repo.soldListings(trade.trade_type, trade.trade_id, assets, listed.length > 0 ? Math.min(...listed) : null);
    return true;
  }

  return {
    *notePending(trades, at) {
      const own = new Set(deps.ownIds());
      const now = serviceNow();
      let changed = false;
      for (const part of inParts(trades, RECORD_PART)) {
        const wrote = repo.store.transaction(() => part.reduce((any, trade) => notePendingTrade(trade, own, at, now) || any, false));
        changed ||= wrote;
        yield;
      }
      return changed;
    },
    *noteGone(gone, at) {
      if (gone.length === 0) return false;
      for (const part of inParts(gone, RECORD_PART)) {
        repo.left(part.map((g) => ({ trade_type: g.tradeType, trade_id: g.tradeId })), at);
        yield;
      }
      yield* decideEndings(repo, listings, at);
      return true;
    },
    *noteBalance(reading) {
      const refused = balanceRefusal(reading);
      if (refused) return repo.refuse({ kind: 'balance', ref: '', ...refused }, reading.readAt);
      const before = repo.readingBefore(reading.readAt);
      const delta = before === null ? null : reading.balance - before.balance;
      if (!repo.addReading({ at: reading.readAt, balance: reading.balance, pending_balance: reading.pending_balance }, delta)) return false;
      yield* decideEndings(repo, listings, reading.readAt);
      return true;
    },
  };
}
