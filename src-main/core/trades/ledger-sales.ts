import { listingKey } from '../drafts/change.ts';
import { createEmitter, type Unsubscribe } from '../events.ts';
import type { Store } from '../store/db.ts';
import type { Repos } from '../store/index.ts';
import type { PendingTrade } from '../../../src-shared/trades.ts';
import type { GoneTrade } from './trade-diff.ts';

/**
 * The ledger learns of sales from the trades. The service cannot list the
 * account's listings, so a sold listing would stay "active" in the ledger and
 * every later edit to it be refused again. A market trade in which one of the
 * account's IDs is the seller names the SKU and price of what sold: the
 * oldest active listing of that account, SKU and price is marked "sold, in
 * trade", and "sold" once the trade leaves the pending list (the service does
 * not say whether it completed or was declined; a sale is by far the likelier).
 */
export interface LedgerSales {
  /** Marks the listings the pending trades sold; returns the asset IDs newly marked. */
  notePending(trades: readonly PendingTrade[]): string[];
  /** The trades left the pending list: what they sold is sold. Returns the asset IDs marked. */
  noteGone(gone: readonly GoneTrade[]): string[];
  /** Listings were marked (the ledger changed): the screens showing it should reload. */
  on(event: 'marked', listener: (assetIds: readonly string[]) => void): Unsubscribe;
}

export function createLedgerSales(deps: {
  store: Pick<Store, 'transaction'>;
  repos: Pick<Repos, 'listings' | 'activity'>;
  /** Every account ID of the key: the main account and the linked ones. */
  ownIds: () => readonly string[];
}): LedgerSales {
  const { store, repos } = deps;
  const emitter = createEmitter<{ marked: readonly string[] }>();
  const announce = (assets: string[]) => {
    if (assets.length > 0) emitter.emit('marked', assets);
    return assets;
  };

  /** Listings this trade sold that are not marked yet. */
  const newlySold = (trade: PendingTrade): string[] => {
    const marked = repos.listings.byTrade(trade.trade_id);
    const out: string[] = [];
    for (const item of trade.items) {
      const already = marked.filter((l) => l.sku === item.sku && l.price === item.price).length;
      const taken = repos.listings.saleCandidates(trade.supplier_id, item.sku, item.price, item.quantity - already);
      for (const row of taken) out.push(row.asset_id);
    }
    return out;
  };

  return {
    notePending(trades) {
      const own = new Set(deps.ownIds());
      return announce(store.transaction(() => {
        const marked: string[] = [];
        for (const trade of trades) {
          if (trade.trade_type !== 'market' || !own.has(trade.supplier_id)) continue;
          const assets = newlySold(trade);
          if (assets.length === 0) continue;
          repos.listings.markEnded(assets, 'sold_in_trade', { reason: `sold in trade ${trade.trade_id}`, tradeId: trade.trade_id });
          repos.activity.recordNote({
            endpoint: 'load_pending', account: trade.supplier_id, targets: assets.map(listingKey),
            note: `sold in trade ${trade.trade_id}; the listing is marked sold, edits to it are no longer sent`,
          });
          marked.push(...assets);
        }
        return marked;
      }));
    },
    noteGone(gone) {
      return announce(store.transaction(() => {
        const marked: string[] = [];
        for (const g of gone) {
          if (g.tradeType !== 'market') continue;
          const rows = repos.listings.byTrade(g.tradeId).filter((l) => l.state === 'sold_in_trade');
          if (rows.length === 0) continue;
          const assets = rows.map((l) => l.asset_id);
          repos.listings.markEnded(assets, 'sold', { reason: `sold in trade ${g.tradeId}, which has left the pending list`, tradeId: g.tradeId });
          repos.activity.recordNote({
            endpoint: 'load_pending', account: rows[0]?.account ?? null, targets: assets.map(listingKey),
            note: `sold: trade ${g.tradeId} has left the pending list`,
          });
          marked.push(...assets);
        }
        return marked;
      }));
    },
    on: (event, listener) => emitter.on(event, listener),
  };
}
