import type { LedgerDomain, LedgerFilter } from '../../../src-shared/ledger.ts';
import type { ItemNames } from '../items/item-names.ts';
import type { Repos } from '../store/index.ts';
import { buyOrdersToCsv } from './csv-buy-orders.ts';
import { listingsToCsv } from './csv-listings.ts';
import type { DraftService } from './draft-service.ts';
import { createLedgerQueries } from './ledger-query.ts';

/**
 * Export CSV of the Listings and Buy orders screens: the ledger's rows (what
 * the service holds, not the draft's pending values), those matching the
 * screen's filter or all of them, in the format the draft export and the
 * import share (spreadsheet-safe, with names), so a file exported and
 * imported back changes nothing. Rows the draft only creates are not in the
 * ledger and are not written. One entry point, `exportLedger`, so how the
 * rows are read can change without the bridge noticing.
 */
export interface LedgerExport {
  /** The rows of `domain` matching `filter` (all with null) as a CSV file, and how many. */
  exportLedger(domain: LedgerDomain, filter: LedgerFilter | null): { csv: string; rows: number };
}

export function createLedgerExport(deps: {
  repos: Pick<Repos, 'listings' | 'buyOrders'>;
  drafts: Pick<DraftService, 'ledgerView' | 'version' | 'workingSet' | 'current'>;
  names: Pick<ItemNames, 'name' | 'describe' | 'searchName'> | null;
  now: () => number;
}): LedgerExport {
  const { repos, drafts, names } = deps;
  const nameOf = (sku: string) => (names === null || sku === '' ? '' : names.name(sku));
  // The tables' own filter, so "the current filter" means the rows on screen.
  const queries = createLedgerQueries({
    ledger: () => drafts.ledgerView(),
    draftVersion: (id) => drafts.version(id),
    now: deps.now,
    ...(names ? { names } : {}),
  });

  function matching(domain: LedgerDomain, filter: LedgerFilter | null): ((key: string) => boolean) {
    if (filter === null) return () => true;
    const keys = new Set(queries.keys(drafts.workingSet(drafts.current()), domain, { filter }));
    return (key) => keys.has(key);
  }

  return {
    exportLedger(domain, filter) {
      const keep = matching(domain, filter);
      let rows = 0;
      if (domain === 'listings') {
        const shown = repos.listings.all().filter((r) => keep(r.asset_id));
        rows = shown.length;
        return { csv: listingsToCsv(shown, nameOf), rows };
      }
      const shown = repos.buyOrders.all().filter((r) => keep(r.sku));
      rows = shown.length;
      return { csv: buyOrdersToCsv(shown, nameOf), rows };
    },
  };
}
