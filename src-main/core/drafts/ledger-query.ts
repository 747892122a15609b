import {
  BUY_ORDER_COLUMNS, LISTING_COLUMNS, type LedgerColumn, type LedgerDomain, type LedgerFilter, type LedgerRowView,
  type LedgerSelection, type LedgerSort,
} from '../../../src-shared/ledger.ts';
import { byAssetId, matcher, mergeSorted, sortKeys, sortValue, type Source } from './ledger-order.ts';
import { isSettled } from './change.ts';
import type { LedgerView } from './ledger-view.ts';
import {
  buyOrderChanged, buyOrderSource, buyOrderView, draftLayer, listingChanged,
  listingSource, listingView, type BuyOrderSource, type DraftLayer, type ListingSource,
} from './ledger-rows.ts';
import type { PatchCounts } from './patch-effect.ts';
import type { WorkingSet } from './working-set.ts';
import { DomainError } from '../errors.ts';
import type { ItemNames } from '../items/item-names.ts';
import { itemViewOf } from '../items/item-view.ts';

/**
 * Filter, sort and page a ledger table with the draft laid over it, in main,
 * where the rows are. Sorting and filtering read a row's own values (see
 * ledger-rows.ts), so the order of the ledger's rows depends only on the
 * ledger: it is sorted once per ledger version and column, and a draft edit
 * costs a merge of the draft's created rows at most, never a re-sort.
 */

export interface LedgerPageResult {
  readonly total: number;
  readonly all: number;
  readonly changed: number;
  readonly rows: LedgerRowView[];
}

export interface LedgerQueries {
  /** One page of a table with the draft `ws` (or none) laid over the ledger. */
  page(ws: WorkingSet | null, domain: LedgerDomain, filter: LedgerFilter, sort: LedgerSort | null, offset: number, limit: number): LedgerPageResult;
  /** The keys a selection names, in table order for a filter; unknown keys are kept (the caller reports them). */
  keys(ws: WorkingSet | null, domain: LedgerDomain, selection: LedgerSelection): string[];
}

export interface LedgerQueryDeps {
  ledger(): LedgerView;
  /** Bumped on every change of a draft: cached results laid over it depend on it. */
  draftVersion(draftId: string): number;
  now(): number;
  /** Item names: the Item column, its sort, and text search by name. Without them rows show SKUs. */
  names?: Pick<ItemNames, 'describe' | 'searchName'>;
  /** The last balance read (cents), for what it covers of each buy order; null when not read. */
  balance?: () => number | null;
  /** What the bulk edit that made a draft's current version did to the counts (null: its last change was another). */
  laidEffect?(draftId: string): Pick<PatchCounts, 'domain' | 'ledgerVersion' | 'changedRows'> | null;
}

export function createLedgerQueries(deps: LedgerQueryDeps): LedgerQueries {
  const names = deps.names;
  const searchName = names ? (sku: string) => names.searchName(sku) : undefined;
  const itemOf = (sku: string | undefined) => (names && sku ? itemViewOf(names, sku) : null);
  /** Ledger keys sorted by a column, per ledger version. */
  const sortedLedger = new Map<string, { version: number; keys: string[] }>();
  /** The last filtered list per domain: typing narrows the same query again and again. */
  const lastFiltered = new Map<LedgerDomain, { id: string; keys: string[]; changed: number }>();

  function sources(domain: LedgerDomain, ledger: LedgerView): ReadonlyMap<string, Source> {
    return domain === 'listings' ? ledger.listings : ledger.buyOrders;
  }

  function sourceOf(domain: LedgerDomain, key: string, ledger: LedgerView, ws: WorkingSet | null): Source | undefined {
    return domain === 'listings' ? listingSource(key, ledger, ws) : buyOrderSource(key, ledger, ws);
  }

  /**
   * What the draft does to a table, per ledger and draft version: a page asks twice, and a
   * first page after an edit of 47,000 rows would otherwise walk the draft once for each.
   */
  const lastLayer = new Map<LedgerDomain, { id: string } & DraftTally>();

  function tallyOf(domain: LedgerDomain, ledger: LedgerView, ws: WorkingSet): DraftTally {
    const version = deps.draftVersion(ws.draftId);
    const id = `${ledger.version}|${ws.draftId}|${version}`;
    const last = lastLayer.get(domain);
    if (last?.id === id) return last;
    // Right after a bulk edit: the tally before it plus what it did, without building its entries (see EntryIndex.lay).
    const before = last?.id === `${ledger.version}|${ws.draftId}|${version - 1}` ? last : null;
    const laid = before ? deps.laidEffect?.(ws.draftId) : null;
    const tally = before && laid && laid.ledgerVersion === ledger.version
      ? { created: before.created, changed: before.changed + (laid.domain === domain ? laid.changedRows : 0) }
      : tallyDraft(domain, ledger, ws);
    lastLayer.set(domain, { id, ...tally });
    return tally;
  }

  /** Keys of rows the draft creates that the ledger does not hold. */
  function createdKeys(domain: LedgerDomain, ledger: LedgerView, ws: WorkingSet | null): string[] {
    return ws ? [...tallyOf(domain, ledger, ws).created] : [];
  }

  function checkColumn(domain: LedgerDomain, column: LedgerColumn): void {
    const allowed = domain === 'listings' ? LISTING_COLUMNS : BUY_ORDER_COLUMNS;
    if (!allowed.includes(column)) {
      throw new DomainError('invalid', `${domain === 'listings' ? 'Listings' : 'Buy orders'} cannot be sorted by ${column}.`);
    }
  }

  function orderedKeys(domain: LedgerDomain, sort: LedgerSort | null, ledger: LedgerView, ws: WorkingSet | null): string[] {
    const created = createdKeys(domain, ledger, ws);
    const src = (k: string) => sourceOf(domain, k, ledger, ws) as Source;
    if (sort === null) {
      // What the trader is working on first, in asset ID order so rows stay put; then the ledger.
      created.sort(domain === 'listings' ? byAssetId : undefined);
      return created.length === 0 ? [...sources(domain, ledger).keys()] : [...created, ...sources(domain, ledger).keys()];
    }
    checkColumn(domain, sort.column);
    const value = sortValue(domain, sort.column, searchName);
    const id = `${domain}|${sort.column}|${sort.dir}`;
    let cached = sortedLedger.get(id);
    if (!cached || cached.version !== ledger.version) {
      cached = { version: ledger.version, keys: sortKeys([...sources(domain, ledger).keys()], (k) => value(src(k)), sort.dir) };
      sortedLedger.set(id, cached);
    }
    if (created.length === 0) return cached.keys;
    return mergeSorted(cached.keys, sortKeys(created, (k) => value(src(k)), sort.dir), (k) => value(src(k)), sort.dir);
  }

  function filtered(ws: WorkingSet | null, domain: LedgerDomain, filter: LedgerFilter, sort: LedgerSort | null): { keys: string[]; changed: number } {
    const ledger = deps.ledger();
    const id = JSON.stringify([ledger.version, ws?.draftId ?? null, ws ? deps.draftVersion(ws.draftId) : 0, filter, sort]);
    const last = lastFiltered.get(domain);
    if (last?.id === id) return last;
    const layer = draftLayer(ws);
    // No filter at all (the usual table): every row matches, and the rows changed are counted from the draft.
    const match = Object.values(filter).every((v) => v === undefined || v === '' || v === false) ? null : matcher(domain, filter, searchName);
    if (match === null && !filter.changedOnly && !deletesAll(layer, domain)) {
      const result = { id, keys: orderedKeys(domain, sort, ledger, ws), changed: ws ? tallyOf(domain, ledger, ws).changed : 0 };
      lastFiltered.set(domain, result);
      return result;
    }
    // Every row is read through the draft: a bulk edit laid over it is written in first, once (see EntryIndex.lay).
    ws?.entries.writeIn(Number.POSITIVE_INFINITY);
    const isChanged = domain === 'listings'
      ? (k: string, s: Source) => listingChanged(k, s as ListingSource, layer)
      : (k: string, s: Source) => buyOrderChanged(k, s as BuyOrderSource, layer);
    const keys: string[] = [];
    let changed = 0;
    for (const key of orderedKeys(domain, sort, ledger, ws)) {
      const s = sourceOf(domain, key, ledger, ws);
      if (s === undefined || (match !== null && !match(key, s))) continue;
      const c = isChanged(key, s);
      if (filter.changedOnly && !c) continue;
      keys.push(key);
      if (c) changed += 1;
    }
    const result = { id, keys, changed };
    lastFiltered.set(domain, result);
    return result;
  }

  return {
    page(ws, domain, filter, sort, offset, limit) {
      const { keys, changed } = filtered(ws, domain, filter, sort);
      const ledger = deps.ledger();
      const layer: DraftLayer = draftLayer(ws);
      const now = deps.now();
      const rows: LedgerRowView[] = [];
      for (const key of keys.slice(offset, offset + limit)) {
        const s = sourceOf(domain, key, ledger, ws);
        if (s === undefined) continue;
        rows.push(domain === 'listings'
          ? listingView(key, s as ListingSource, layer, now, itemOf(s.sku))
          : buyOrderView(key, s as BuyOrderSource, layer, now, itemOf(s.sku), deps.balance?.() ?? null));
      }
      const all = sources(domain, ledger).size + createdKeys(domain, ledger, ws).length;
      return { total: keys.length, all, changed, rows };
    },
    keys(ws, domain, selection) {
      if ('ids' in selection) return [...new Set(selection.ids)];
      const except = new Set(selection.except ?? []);
      const { keys } = filtered(ws, domain, selection.filter, null);
      return except.size === 0 ? keys : keys.filter((k) => !except.has(k));
    },
  };
}

/** Whether the draft holds a delete-all of this table (every row it removes counts as changed). */
function deletesAll(layer: DraftLayer, domain: LedgerDomain): boolean {
  return domain === 'listings' ? layer.listingsDeleteAll !== null : layer.buyOrdersDeleteAll;
}

interface DraftTally {
  /** Keys of rows the draft creates that the ledger does not hold, in the draft's order. */
  readonly created: readonly string[];
  /** Rows the draft changes (see tallyDraft). */
  readonly changed: number;
}

/**
 * One walk over the draft's entries of a table (tens of thousands at most,
 * never every ledger row): the rows it creates, and how many rows it changes,
 * each row with an open edit or delete and each row it creates. Without a
 * delete-all, `changed` is what listingChanged/buyOrderChanged say summed
 * over the table.
 */
function tallyDraft(domain: LedgerDomain, ledger: LedgerView, ws: WorkingSet): DraftTally {
  const listings = domain === 'listings';
  const held: ReadonlyMap<string, unknown> = listings ? ledger.listings : ledger.buyOrders;
  const createKind = listings ? 'listing.create' : 'buyOrder.create';
  const edits = ws.entries.slot(listings ? 'L' : 'B');
  const deletes = ws.entries.slot(listings ? 'LD' : 'BD');
  const created: string[] = [];
  let changed = 0;
  // forEach, not for…of over [key, entry] pairs: half the time on a first, still cold walk of 47,000 entries.
  edits.forEach((e, key) => {
    if (isSettled(e.status)) return;
    if (e.change.kind === createKind) {
      changed += 1;
      if (!held.has(key)) created.push(key);
    } else if (held.has(key)) changed += 1;
  });
  deletes.forEach((e, key) => {
    if (isSettled(e.status) || !held.has(key)) return;
    const edit = edits.get(key);
    if (!edit || isSettled(edit.status)) changed += 1;
  });
  return { created, changed };
}
