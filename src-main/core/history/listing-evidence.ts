import { listingKey } from '../drafts/change.ts';
import type { Store } from '../store/db.ts';
import type { Repos } from '../store/index.ts';
import type { ListingEvidence } from './trade-recorder.ts';

/**
 * What the ledger and the activity log tell the history about a sale's
 * listings: which the trade took (the ledger marks them when it sees the
 * trade), when the desk listed each (its create that went through), and
 * whether the service has since said one is gone or sold.
 */
export function createListingEvidence(store: Pick<Store, 'db'>, repos: Pick<Repos, 'listings'>): ListingEvidence {
  // The activity log keeps each create's targets as JSON; the key is matched whole, quotes included.
  const lastCreate = store.db.prepare(
    `SELECT max(at) AS at FROM activity_log
      WHERE endpoint = 'create_listing' AND status = 'done' AND at <= ? AND targets LIKE ? ESCAPE '\\'`,
  );
  const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
  return {
    soldBy: (tradeId) => repos.listings.byTrade(tradeId).map((l) => l.asset_id),
    listedAt(assetId, before) {
      const row = lastCreate.get(before, `%${escapeLike(JSON.stringify(listingKey(assetId)))}%`) as { at: number | null } | undefined;
      return row?.at ?? null;
    },
    goneOrRefused(assetIds, tradeId) {
      return assetIds.some((id) => {
        const row = repos.listings.get(id);
        if (row === null) return false;
        // The ledger marks a sale 'sold' itself when its trade leaves: only other news counts.
        return row.state === 'not_on_service' || (row.state === 'sold' && row.trade_id !== tradeId);
      });
    },
  };
}
