import { z } from 'zod';
import type { LedgerDomain, LedgerFilter, LedgerRowView, LedgerSelection, LedgerSort } from '../../../src-shared/ledger.ts';
import type { ItemFacetCounts } from '../../../src-shared/item-facets.ts';
import type { ItemNames } from '../items/item-names.ts';
import { namedFacets, type PartKind } from '../items/part-names.ts';
import { readLedgerFacets } from '../store/item-facet-reads.ts';
import { itemViewOf } from '../items/item-view.ts';
import type { BulkPatch } from '../store/bulk-patch.ts';
import type { Store } from '../store/db.ts';
import type { CountsMove } from '../store/key-counts.ts';
import type { DraftScope } from '../store/ledger-arms.ts';
import type { RowPlace } from '../store/ledger-order.ts';
import { createLedgerReads, tableCounts, type SelectedRows, type TableCounts, type TableQuery } from '../store/ledger-reads.ts';
import type { NameIndex } from '../store/name-index.ts';
import { buyOrderView, listingView } from './ledger-rows.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

export type { SelectedRows };

/**
 * Filter, sort, count and page a ledger table with a draft laid over it,
 * answered by SQL (store/ledger-reads.ts): nothing of the table is held in
 * memory but its counts and the places of the rows last served, so that the
 * next page of a scroll starts right after them (keyset paging) instead of
 * counting its way down with OFFSET.
 */

export interface LedgerPageResult {
  readonly total: number;
  readonly all: number;
  readonly changed: number;
  readonly rows: LedgerRowView[];
}

export interface LedgerQueries {
  /** One page of a table with the draft `draftId` (or none) laid over the ledger. */
  page(draftId: string | null, domain: LedgerDomain, filter: LedgerFilter, sort: LedgerSort | null, offset: number, limit: number): LedgerPageResult;
  /** The keys a selection names, in table order for a filter; unknown keys are kept (the caller reports them). */
  keys(draftId: string | null, domain: LedgerDomain, selection: LedgerSelection): string[];
  /**
   * The rows a selection names as one query over both arms (every column of
   * store/ledger-arms.ts's ArmRow), for statements that work on them in SQL;
   * with the keys named by ID, so the caller can tell which name no row.
   */
  selectedRows(draftId: string | null, domain: LedgerDomain, selection: LedgerSelection): SelectedRows;
  /** What the draft's delete-all does to a table. */
  scope(draftId: string | null, domain: LedgerDomain): DraftScope;
  /** A table's unfiltered counts with the draft laid over, to keep for the next start; null while they cannot be kept (a bulk edit being written, a delete-all). */
  countsToKeep(draftId: string, domain: LedgerDomain): TableCounts | null;
  /** Rowids of the ledger's own rows (not the draft's creates) matching a filter, in the ledger's order, after `after`. */
  ledgerRowids(draftId: string | null, domain: LedgerDomain, filter: LedgerFilter, after: number, limit: number): number[];
  /** The qualities, effects, killstreak tiers and wears a table's rows hold, with counts, for its item filters (none without names). */
  facets(draftId: string | null, domain: LedgerDomain): ItemFacetCounts;
}

export interface LedgerQueryDeps {
  store: Pick<Store, 'db' | 'ledgerVersion' | 'ledgerRowsVersion' | 'transaction'>;
  /** Bumped on every change of a draft: row places laid over it depend on it. */
  draftVersion(draftId: string): number;
  /**
   * What the screens read of each draft (DraftService.views): its version, bumped on every change of it, which a
   * table's sorted order and counts depend on (the draft's version without it), and how the counts moved since an
   * earlier version, so that a table moves the counts it served instead of counting them again.
   */
  draftViews?: {
    version(draftId: string): number;
    movedSince(draftId: string, since: number, domain: LedgerDomain): CountsMove | null;
    /** This table serves the draft's unfiltered counts: the moves of later writes are worth counting. */
    watch(draftId: string, domain: LedgerDomain): void;
  };
  now(): number;
  /** Item names: the Item column; with the index, its sort and text search by name. Without them rows show SKUs. */
  names?: Pick<ItemNames, 'describe' | 'partName'>;
  nameIndex?: NameIndex;
  /** The last balance read (cents), for what it covers of each buy order; null when not read. */
  balance?: () => number | null;
  /** The bulk edit being written into a draft's table, laid over what the screens read (see store/bulk-patch.ts). */
  patch?: (draftId: string, domain: LedgerDomain) => BulkPatch | null;
  /**
   * The counts as they stood when the desk last closed (see bulk/ledger-tables.ts), which the first page after a start
   * uses instead of counting every change again, as long as neither the ledger's rows nor what the screens read of that
   * draft have changed since (see draftViews).
   */
  kept?: KeptCounts | null;
}

/** A draft's tables' unfiltered counts, as kept in the store between a close and the next start. */
export const keptCountsSchema = lazySchema(() => z.object({ draftId: z.string(), listings: tableCounts.optional(), buyOrders: tableCounts.optional() }));
export type KeptCounts = z.infer<typeof keptCountsSchema>;

const movedBy = (c: TableCounts, m: CountsMove): TableCounts =>
  ({ created: c.created + m.created, ledger: c.ledger, changed: c.changed + m.changed, all: c.all + m.created });

/** Row places kept per query, for the next page of a scroll. */
const MAX_PLACES = 4_000;

export function createLedgerQueries(deps: LedgerQueryDeps): LedgerQueries {
  const reads = createLedgerReads(deps.store);

  const stateOf = (draftId: string | null, version = deps.draftVersion) =>
    `${deps.store.ledgerVersion}|${draftId ?? ''}|${draftId === null ? 0 : version(draftId)}`;
  // What the screens read of a draft (its order and counts) holds once a bulk edit's parts are all written under
  // its patch: sorting 50,000 rows again by the price after the draft takes ~100 ms, as the table refreshes for the last part.
  const viewVersion = deps.draftViews?.version ?? deps.draftVersion;
  const viewStateOf = (draftId: string | null) => stateOf(draftId, viewVersion);
  let namesSynced = '';
  function syncNames(draftId: string | null): void {
    const state = stateOf(draftId);
    if (!deps.nameIndex || namesSynced === state) return;
    deps.nameIndex.sync();
    namesSynced = state;
  }

  /**
   * A question about a table; what the screens read has the bulk edit being
   * written laid over it (`patched`), while a selection an edit will work on
   * reads the draft as stored (no edit is written meanwhile).
   */
  function query(draftId: string | null, domain: LedgerDomain, filter: LedgerFilter, sort: LedgerSort | null, patched = true): TableQuery {
    const patch = patched && draftId !== null ? deps.patch?.(draftId, domain) ?? null : null;
    const q = reads.query(draftId, domain, filter, sort, { names: deps.nameIndex !== undefined, patch });
    if (q.names) syncNames(draftId);
    return q;
  }

  /**
   * Which state of the store a table's counts depend on. Unfiltered, with no
   * delete-all in the draft, they count rows and changes only, which an edit
   * of a row's price or note (an apply's, a trade's) leaves as they were. Like
   * the order, they hold once a bulk edit's parts are all written: counted with
   * its patch laid over, they are the same (counting again took ~20 ms of the
   * worker at 50,000 rows, in the turn a page was asked in).
   */
  function countsId(q: TableQuery, draftId: string | null, domain: LedgerDomain, filter: LedgerFilter): string {
    if (q.filterEmpty && q.scope.deleteAll === null) {
      return JSON.stringify(['rows', deps.store.ledgerRowsVersion, draftId, draftId === null ? 0 : viewVersion(draftId), domain]);
    }
    return JSON.stringify([viewStateOf(draftId), domain, filter]);
  }

  /**
   * Each draft's table's unfiltered counts as last served with no bulk edit
   * laid over it (no delete-all either): they hold while the ledger's rows and
   * what the screens read of the draft are as they were (see countsId), and
   * tell the counts once an edit is laid over the draft as it was served
   * (`version`: the draft's version it was last served at). The counts kept at
   * the last close are the first.
   */
  const served = new Map<string, { rows: number; view: number; version: number; counts: TableCounts }>();
  const servedKey = (draftId: string, domain: LedgerDomain) => `${domain}|${draftId}`;
  const servedNow = (draftId: string, counts: TableCounts) =>
    ({ rows: deps.store.ledgerRowsVersion, view: viewVersion(draftId), version: deps.draftVersion(draftId), counts });
  const kept = deps.kept ?? null;
  for (const domain of ['listings', 'buyOrders'] as const) {
    const counts = kept?.[domain];
    if (kept && counts) served.set(servedKey(kept.draftId, domain), servedNow(kept.draftId, counts));
  }
  const unfiltered = (q: TableQuery) => q.filterEmpty && q.scope.deleteAll === null && q.scope.draftId !== '';

  /**
   * Unfiltered counts with a bulk edit laid over the draft as it was last
   * served (nothing else moved since): those counts and the rows the edit adds,
   * not every change counted again (~20 ms at 50,000 rows, in a page's turn).
   */
  function laidOver(q: TableQuery, domain: LedgerDomain): TableCounts | undefined {
    const laid = q.patch?.laid;
    const base = served.get(servedKey(q.scope.draftId, domain));
    if (!laid || !base || base.rows !== deps.store.ledgerRowsVersion || base.version !== laid.before || deps.draftVersion(q.scope.draftId) !== laid.after) return undefined;
    return { ...base.counts, changed: base.counts.changed + reads.patchAdds(domain) };
  }

  /** Counts filtered, or with a bulk edit laid over, by countsId; the ones served while an edit's parts were written hold once they all are. */
  const countCache = new Map<string, TableCounts>();
  function counts(q: TableQuery, domain: LedgerDomain, id: string): TableCounts {
    if (unfiltered(q) && q.patch === null) {
      // As last served while the ledger's rows and the draft's view hold, or as served under the edit just written.
      const key = servedKey(q.scope.draftId, domain);
      const last = served.get(key);
      const rowsHold = last !== undefined && last.rows === deps.store.ledgerRowsVersion;
      const fresh = rowsHold && last.view === viewVersion(q.scope.draftId);
      // Changes added a part at a time (a reprice's) move the counts by what their keys counted before and after.
      const moved = rowsHold && !fresh ? deps.draftViews?.movedSince(q.scope.draftId, last.view, domain) ?? null : null;
      const result = (fresh ? last.counts : moved && last ? movedBy(last.counts, moved) : countCache.get(id)) ?? reads.counts(q, domain);
      served.set(key, servedNow(q.scope.draftId, result));
      deps.draftViews?.watch(q.scope.draftId, domain);
      return result;
    }
    const cached = countCache.get(id);
    if (cached) return cached;
    const result = (unfiltered(q) ? laidOver(q, domain) : undefined) ?? reads.counts(q, domain);
    if (countCache.size > 20) countCache.clear();
    countCache.set(id, result);
    return result;
  }

  const placeCache = new Map<string, Map<number, RowPlace>>();
  function placesOf(id: string): Map<number, RowPlace> {
    let places = placeCache.get(id);
    if (!places) {
      if (placeCache.size > 8) placeCache.clear();
      places = new Map();
      placeCache.set(id, places);
    }
    return places;
  }

  function itemOf(sku: string) {
    return deps.names && sku !== '' ? itemViewOf(deps.names, sku) : null;
  }

  let facetCache: { id: string; value: ItemFacetCounts } | null = null;

  const queries: LedgerQueries = {
    scope: (draftId, domain) => reads.scope(draftId, domain),
    page(draftId, domain, filter, sort, offset, limit) {
      const q = query(draftId, domain, filter, sort);
      const id = JSON.stringify([stateOf(draftId), domain, filter, sort]);
      const c = counts(q, domain, countsId(q, draftId, domain, filter));
      const places = placesOf(id);
      // The ledger's own order and its price have indexes to walk; every other sort is kept sorted (rowsSorted).
      // Otherwise a page starts after the place of the row before it when that is known, else it is counted down to.
      // A jump deep into the price order is read from the kept order too: counting down to it sorts every row
      // again for each jump (a quarter of a second at 50,000), the kept order is sorted once.
      const before = offset === 0 ? null : places.get(offset - 1);
      const rows = sort !== null && (sort.column !== 'price' || before === undefined)
        ? reads.rowsSorted(q, JSON.stringify([viewStateOf(draftId), domain, filter, sort.column]), offset, limit)
        : before !== undefined ? reads.rowsAfter(q, c.created, before, limit)
          : reads.rowsCounted(q, domain, c.created, offset, limit);
      if (places.size > MAX_PLACES) places.clear();
      rows.forEach((r, i) => places.set(offset + i, { v: r.v, arm: r.arm, t1: r.t1, t2: r.t2 }));
      const now = deps.now();
      const balance = deps.balance?.() ?? null;
      return {
        total: c.created + c.ledger,
        all: c.all,
        changed: c.changed,
        rows: rows.map((r) => (domain === 'listings' ? listingView(r, q.scope, now, itemOf(r.sku)) : buyOrderView(r, q.scope, now, itemOf(r.sku), balance))),
      };
    },
    keys(draftId, domain, selection) {
      if ('ids' in selection) return [...new Set(selection.ids)];
      return reads.keys(queries.selectedRows(draftId, domain, selection));
    },
    countsToKeep(draftId, domain) {
      const q = query(draftId, domain, {}, null);
      if (q.patch !== null || q.scope.deleteAll !== null) return null;
      return counts(q, domain, countsId(q, draftId, domain, {}));
    },
    ledgerRowids: (draftId, domain, filter, after, limit) => reads.ledgerRowids(query(draftId, domain, filter, null), after, limit),
    facets(draftId, domain) {
      const { names } = deps;
      if (!names || !deps.nameIndex) return { qualities: [], effects: [], killstreaks: [], wears: [] };
      const id = JSON.stringify([stateOf(draftId), domain]);
      if (facetCache?.id === id) return facetCache.value;
      syncNames(draftId);
      const rows = readLedgerFacets(deps.store.db, domain, draftId);
      const name = (kind: PartKind, n: number) => names.partName(kind, n);
      const value = {
        qualities: namedFacets(rows.quality, 'quality', name), effects: namedFacets(rows.effect, 'effect', name),
        killstreaks: namedFacets(rows.killstreak, 'killstreak', name), wears: namedFacets(rows.wear, 'wear', name),
      };
      facetCache = { id, value };
      return value;
    },
    selectedRows(draftId, domain, selection) {
      const byIds = 'ids' in selection;
      return reads.selectedRows(query(draftId, domain, byIds ? {} : selection.filter, null, false), selection);
    },
  };
  return queries;
}
