import type { LedgerDomain, LedgerFilter, LedgerSelection, LedgerSort } from '../../../src-shared/ledger.ts';
import type { BulkOp } from './bulk-ops.ts';
import { buyOrderDeleteKey, buyOrderKey, listingDeleteKey, listingKey } from './change.ts';
import type { AddChangesResult, BulkResult, DraftService } from './draft-service.ts';
import { createLedgerQueries, type LedgerPageResult } from './ledger-query.ts';
import { removedByDeleteAll } from './ledger-view.ts';
import { replacedByDeleteAll } from './merge.ts';
import { liveEntries, type WorkingSet } from './working-set.ts';
import type { ItemNames } from '../items/item-names.ts';

/**
 * What the Listings and Buy orders screens ask of main: a page of rows with
 * the current draft laid over them, and edits over a selection (bulk
 * formulas, deletes, reverts) computed here from the selection main
 * understands, into the current draft (made on the spot when there is none).
 */
export interface LedgerTables {
  page(domain: LedgerDomain, filter: LedgerFilter, sort: LedgerSort | null, offset: number, limit: number): LedgerPageResult & { draftId: string | null };
  /** What a bulk edit would do to the selection, storing nothing. */
  preview(domain: LedgerDomain, selection: LedgerSelection, op: BulkOp): BulkResult;
  bulk(domain: LedgerDomain, selection: LedgerSelection, op: BulkOp): BulkResult & { draftId: string };
  /** Marks the selected rows for deletion (a row the draft creates leaves the draft instead). */
  deleteRows(domain: LedgerDomain, selection: LedgerSelection): AddChangesResult & { draftId: string };
  /** Takes the selected rows' changes out of the draft: they show the ledger's values again. */
  revertRows(domain: LedgerDomain, selection: LedgerSelection): { draftId: string | null; reverted: number };
  /** What a delete-all would remove and replace in the current draft, said before the trader confirms it. */
  deleteAllImpact(domain: LedgerDomain, activeOnly: boolean): { removes: number; replacesChanges: number; keepsCreates: number };
}

export function createLedgerTables(deps: {
  drafts: DraftService;
  now: () => number;
  /** Item names for the Item column, its sort and text search; rows show SKUs without them. */
  names?: Pick<ItemNames, 'describe' | 'searchName'>;
  /** The last balance read, in cents (null before one). */
  balance?: () => number | null;
}): LedgerTables {
  const { drafts } = deps;
  const queries = createLedgerQueries({
    ledger: () => drafts.ledgerView(),
    draftVersion: (id) => drafts.version(id),
    laidEffect: (id) => drafts.laidEffect(id),
    now: deps.now,
    ...(deps.names ? { names: deps.names } : {}),
    ...(deps.balance ? { balance: deps.balance } : {}),
  });
  const currentSet = (): WorkingSet | null => drafts.workingSet(drafts.current());

  return {
    page(domain, filter, sort, offset, limit) {
      const ws = currentSet();
      return { ...queries.page(ws, domain, filter, sort, offset, limit), draftId: ws?.draftId ?? null };
    },
    preview(domain, selection, op) {
      const id = drafts.current();
      return drafts.preview(id, domain, queries.keys(drafts.workingSet(id), domain, selection), op);
    },
    bulk(domain, selection, op) {
      const id = drafts.ensureCurrent();
      return { ...drafts.bulk(id, domain, queries.keys(drafts.workingSet(id), domain, selection), op), draftId: id };
    },
    deleteRows(domain, selection) {
      const id = drafts.ensureCurrent();
      const keys = queries.keys(drafts.workingSet(id), domain, selection);
      const changes = keys.map((k) => (domain === 'listings' ? { kind: 'listing.delete' as const, asset_id: k } : { kind: 'buyOrder.delete' as const, sku: k }));
      return { ...drafts.addChanges(id, changes), draftId: id };
    },
    revertRows(domain, selection) {
      const id = drafts.current();
      const ws = drafts.workingSet(id);
      if (id === null || ws === null) return { draftId: id, reverted: 0 };
      const targets: string[] = [];
      for (const key of queries.keys(ws, domain, selection)) {
        for (const t of domain === 'listings' ? [listingKey(key), listingDeleteKey(key)] : [buyOrderKey(key), buyOrderDeleteKey(key)]) {
          const e = ws.entries.get(t);
          if (e && e.status !== 'done' && e.status !== 'dropped') targets.push(t);
        }
      }
      const result = drafts.removeChanges(id, targets);
      return { draftId: id, reverted: result.added };
    },
    deleteAllImpact(domain, activeOnly) {
      const ledger = drafts.ledgerView();
      const ws = currentSet();
      let removes = 0;
      if (domain === 'listings') {
        for (const row of ledger.listings.values()) if (removedByDeleteAll(row, activeOnly)) removes += 1;
      } else removes = ledger.buyOrders.size;
      const input = domain === 'listings' ? { kind: 'listing.deleteAll' as const, active_only: activeOnly } : { kind: 'buyOrder.deleteAll' as const };
      const live = () => (ws ? liveEntries(ws) : []);
      let replacesChanges = 0;
      for (const _ of replacedByDeleteAll(input, { ledger, liveEntries: live })) replacesChanges += 1;
      const createKind = domain === 'listings' ? 'listing.create' : 'buyOrder.create';
      let keepsCreates = 0;
      for (const e of live()) if (e.change.kind === createKind) keepsCreates += 1;
      return { removes, replacesChanges, keepsCreates };
    },
  };
}
