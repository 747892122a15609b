import { listingKey } from '../drafts/change.ts';
import type { HistoryReads } from '../store/history-reads.ts';
import type { Repos } from '../store/index.ts';
import type { ListingEvidence } from './trade-recorder.ts';

/**
 * What the ledger and the activity log tell the history about a sale's
 * listings: which the trade took (the ledger marks them when it sees the
 * trade), when the desk listed each (its create that went through), and
 * whether the service has since said one is gone or sold.
 */
export function createListingEvidence(reads: Pick<HistoryReads, 'lastCreateOf'>, repos: Pick<Repos, 'listings'>): ListingEvidence {
  return {
    soldBy: (tradeId) => repos.listings.byTrade(tradeId).map((l) => l.asset_id),
    listedAt: (assetId, before) => reads.lastCreateOf(listingKey(assetId), before),
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
