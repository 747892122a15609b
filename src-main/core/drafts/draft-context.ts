import type { Repos } from '../store/index.ts';
import type { Store } from '../store/db.ts';
import { entryOf, entrySelect, type EntryRecord } from '../store/draft-columns.ts';
import { isSettled, type DraftEntry } from './change.ts';
import { removedByDeleteAll } from './ledger-rows.ts';
import type { DeleteAllInput, LedgerLookup, MergeContext } from './merge.ts';
import type { Staging } from './draft-staging.ts';

/**
 * What the merge rules read, answered by the store a row at a time, seen
 * through the changes staged but not yet written (`staged`, later inputs of
 * one call seeing earlier ones). A staged `dropped` entry hides the stored
 * row of its target.
 */
export function ledgerLookup(repos: Pick<Repos, 'listings' | 'buyOrders'>): LedgerLookup {
  return {
    listing: (id) => repos.listings.get(id),
    listingById: (id) => repos.listings.byListingId(id),
    buyOrder: (sku) => repos.buyOrders.get(sku),
  };
}

export function draftContext(
  store: Pick<Store, 'db'>,
  repos: Pick<Repos, 'listings' | 'buyOrders' | 'drafts' | 'accounts'>,
  draftId: string,
  staged: Pick<Staging, 'get' | 'has' | 'values'>,
): MergeContext {
  const cols = entrySelect('e');
  const ledger = ledgerLookup(repos);
  const accounts = new Set(repos.accounts.list().map((a) => a.account_id));
  const live = (target: string): DraftEntry | undefined => {
    const e = staged.get(target) ?? repos.drafts.entry(draftId, target) ?? undefined;
    return e && !isSettled(e.status) ? e : undefined;
  };
  /** Stored live entries matching `where`, then staged ones `keep` accepts, each target once, staged first. */
  function* liveWhere(sql: string, params: readonly (string | number)[], keep: (e: DraftEntry) => boolean): Iterable<DraftEntry> {
    for (const e of staged.values()) if (!isSettled(e.status) && keep(e)) yield e;
    for (const row of store.db.prepare(sql).iterate(draftId, ...params) as Iterable<EntryRecord>) {
      const e = entryOf(row);
      if (!staged.has(e.target)) yield e;
    }
  }
  return {
    ledger,
    live,
    replacedBy(input: DeleteAllInput) {
      if (input.kind === 'buyOrder.deleteAll') {
        return liveWhere(`SELECT ${cols} FROM draft_entries e WHERE e.draft_id = ? AND e.kind IN ('buyOrder.edit', 'buyOrder.delete')
          AND e.status NOT IN ('done', 'dropped')`, [], (e) => e.change.kind === 'buyOrder.edit' || e.change.kind === 'buyOrder.delete');
      }
      const removes = (assetId: string) => {
        const row = ledger.listing(assetId);
        return row === null || removedByDeleteAll(row.state, input.active_only);
      };
      return liveWhere(`SELECT ${cols} FROM draft_entries e LEFT JOIN listings l ON l.asset_id = e.key
          WHERE e.draft_id = ? AND e.kind IN ('listing.edit', 'listing.delete') AND e.status NOT IN ('done', 'dropped')
            AND (l.asset_id IS NULL OR ? = 0 OR l.state = 'active')`, [input.active_only ? 1 : 0],
      (e) => (e.change.kind === 'listing.edit' || e.change.kind === 'listing.delete') && removes(e.change.asset_id));
    },
    createsOfHeld(domain) {
      const listings = domain === 'listings';
      const held = (e: DraftEntry) => (e.change.kind === 'listing.create' ? ledger.listing(e.change.asset_id) !== null
        : e.change.kind === 'buyOrder.create' ? ledger.buyOrder(e.change.sku) !== null : false);
      return liveWhere(`SELECT ${cols} FROM draft_entries e WHERE e.draft_id = ? AND e.kind = ? AND e.status NOT IN ('done', 'dropped')
          AND EXISTS (SELECT 1 FROM ${listings ? 'listings h WHERE h.asset_id' : 'buy_orders h WHERE h.sku'} = e.key)`,
      [listings ? 'listing.create' : 'buyOrder.create'], (e) => e.change.kind === (listings ? 'listing.create' : 'buyOrder.create') && held(e));
    },
    accountExists: (a) => accounts.has(a),
    mainAccount: repos.accounts.main()?.account_id ?? null,
  };
}
