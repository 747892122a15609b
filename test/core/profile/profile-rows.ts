import type { Store } from '../../../src-main/core/store/db.ts';
import { createRepos } from '../../../src-main/core/store/index.ts';

/**
 * Rows a profile holds, for the backup tests: listings put in the ledger as
 * the desk adopts them, and one trade in the history, written straight to
 * the table (the desk writes it when it sees the trade).
 */
export function addListings(store: Store, count: number, from = 0): void {
  const repos = createRepos(store);
  repos.accounts.upsert({ account_id: '76561198000000001', kind: 'main' });
  repos.listings.upsertMany(Array.from({ length: count }, (_, i) => ({
    asset_id: String(9_000_000 + from + i), listing_id: `L${from + i}`, sku: '5021;6', price: 150 + i, promoted: 0, game: '440', account: '76561198000000001',
  })));
}

export function addTrade(store: Store, tradeId: string): void {
  store.db.prepare(`INSERT INTO trade_history (trade_type, trade_id, side, account, partner, status, total, created_at, first_seen_at, last_seen_at, at)
    VALUES ('market', ?, 'sale', '76561198000000001', '76561198000000002', 'Completed', 300, 0, 0, 0, 0)`).run(tradeId);
}
