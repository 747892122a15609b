import type { LedgerDomain, LedgerFilter, LedgerSelection, LedgerSort } from '../../../src-shared/ledger.ts';
import type { BulkOp } from '../../../src-shared/drafts.ts';
import type { ItemFacetCounts } from '../../../src-shared/item-facets.ts';
import type { Store } from '../store/db.ts';
import { createDraftReads } from '../store/draft-reads.ts';
import type { AddChangesResult, BulkResult, DraftService } from '../drafts/draft-service.ts';
import { createLedgerQueries, keptCountsSchema, type KeptCounts, type LedgerPageResult } from '../ledger/ledger-query.ts';
import type { ItemNames } from '../items/item-names.ts';
import { schemaNameIndex } from '../store/name-index.ts';
import type { SettingsRepo } from '../store/settings-repo.ts';

/**
 * What the Listings and Buy orders screens ask of main: a page of rows with
 * the current draft laid over them, and edits over a selection (bulk
 * formulas, deletes, reverts) computed here from the selection main
 * understands, into the current draft (made on the spot when there is none).
 */
export interface LedgerTables {
  page(domain: LedgerDomain, filter: LedgerFilter, sort: LedgerSort | null, offset: number, limit: number): LedgerPageResult & { draftId: string | null };
  /** What a bulk edit would do to the selection, storing nothing. */
  preview(domain: LedgerDomain, selection: LedgerSelection, op: BulkOp): Promise<BulkResult>;
  /** Resolves once written; `journaled` hears as soon as the edit is the draft's (see DraftService.bulk). */
  bulk(domain: LedgerDomain, selection: LedgerSelection, op: BulkOp, journaled?: (result: BulkResult & { draftId: string }) => void): Promise<BulkResult & { draftId: string }>;
  /** Marks the selected rows for deletion (a row the draft creates leaves the draft instead). */
  deleteRows(domain: LedgerDomain, selection: LedgerSelection): AddChangesResult & { draftId: string };
  /** Takes the selected rows' changes out of the draft: they show the ledger's values again. */
  revertRows(domain: LedgerDomain, selection: LedgerSelection): { draftId: string | null; reverted: number };
  /** What a delete-all would remove and replace in the current draft, said before the trader confirms it. */
  deleteAllImpact(domain: LedgerDomain, activeOnly: boolean): { removes: number; replacesChanges: number; keepsCreates: number };
  /** The qualities, effects, killstreak tiers and wears a table's rows hold, with counts, for its item filters. */
  facets(domain: LedgerDomain): ItemFacetCounts;
  /** Keeps the current draft's counts in the store for the next start (at close: see `takeKeptCounts`). */
  keepCounts(): void;
}

const KEPT_COUNTS_KEY = 'ledger.countsAtClose';

/**
 * The counts kept at the last close, taken out of the store as it opens: a
 * desk that ends without closing (a crash, a kill) leaves none behind, so
 * counts kept are never older than the rows they count. Counting every change
 * again costs a start about 15 ms at 50,000 changes and 150 ms at 470,000.
 */
function takeKeptCounts(settings: SettingsRepo): KeptCounts | null {
  const kept = settings.get(KEPT_COUNTS_KEY, keptCountsSchema.nullable(), null);
  if (kept !== null) settings.delete(KEPT_COUNTS_KEY);
  return kept;
}

export function createLedgerTables(deps: {
  store: Pick<Store, 'db' | 'ledgerVersion' | 'ledgerRowsVersion' | 'transaction'>;
  /** Where the name index notes the schema version it was built with. */
  settings?: SettingsRepo;
  drafts: DraftService;
  now: () => number;
  /** Item names for the Item column, its sort and text search by name. Rows show SKUs without them. */
  names?: Pick<ItemNames, 'describe' | 'searchWords' | 'partName'>;
  /** The last balance read, in cents (null before one). */
  balance?: () => number | null;
}): LedgerTables {
  const { drafts, store, names } = deps;
  const nameIndex = names && deps.settings ? schemaNameIndex(store, deps.settings, names, ['ledger']) : undefined;
  const queries = createLedgerQueries({
    store,
    kept: deps.settings ? takeKeptCounts(deps.settings) : null,
    draftVersion: (id) => drafts.version(id),
    draftViews: drafts.views,
    patch: (id, domain) => drafts.patch(id, domain),
    now: deps.now,
    ...(names ? { names } : {}),
    ...(nameIndex ? { nameIndex } : {}),
    ...(deps.balance ? { balance: deps.balance } : {}),
  });
  const reads = createDraftReads(store);

  return {
    keepCounts() {
      const id = drafts.current();
      if (id === null || !deps.settings) return;
      const listings = queries.countsToKeep(id, 'listings');
      const buyOrders = queries.countsToKeep(id, 'buyOrders');
      deps.settings.set(KEPT_COUNTS_KEY, { draftId: id, ...(listings ? { listings } : {}), ...(buyOrders ? { buyOrders } : {}) } satisfies KeptCounts);
    },
    facets: (domain) => queries.facets(drafts.current(), domain),
    page(domain, filter, sort, offset, limit) {
      const id = drafts.current();
      return { ...queries.page(id, domain, filter, sort, offset, limit), draftId: id };
    },
    preview(domain, selection, op) {
      const id = drafts.current();
      return drafts.preview(id, domain, queries.selectedRows(id, domain, selection), op);
    },
    async bulk(domain, selection, op, journaled) {
      const id = drafts.ensureCurrent();
      const told = journaled && ((plan: BulkResult) => journaled({ ...plan, draftId: id }));
      return { ...(await drafts.bulk(id, domain, queries.selectedRows(id, domain, selection), op, told)), draftId: id };
    },
    deleteRows(domain, selection) {
      const id = drafts.ensureCurrent();
      const keys = queries.keys(id, domain, selection);
      const changes = keys.map((k) => (domain === 'listings' ? { kind: 'listing.delete' as const, asset_id: k } : { kind: 'buyOrder.delete' as const, sku: k }));
      return { ...drafts.addChanges(id, changes), draftId: id };
    },
    revertRows(domain, selection) {
      const id = drafts.current();
      if (id === null) return { draftId: id, reverted: 0 };
      const targets = queries.keys(id, domain, selection).flatMap((key) => reads.openTargets(id, domain, key));
      const result = drafts.removeChanges(id, targets);
      return { draftId: id, reverted: result.added };
    },
    deleteAllImpact(domain, activeOnly) {
      const id = drafts.current() ?? '';
      return { removes: reads.deleteAllRemoves(domain, activeOnly), ...reads.deleteAllImpact(id, domain, activeOnly) };
    },
  };
}
