import type { SQLInputValue } from 'node:sqlite';
import { z } from 'zod';
import type { LedgerDomain, LedgerFilter, LedgerRowView, LedgerSelection, LedgerSort } from '../../../src-shared/ledger.ts';
import type { Store } from '../store/db.ts';
import { statementCache } from '../store/sql.ts';
import type { ItemNames } from '../items/item-names.ts';
import { itemViewOf } from '../items/item-view.ts';
import {
  armsOf, changedSql, checkSortColumn, filterSql, isEmptyFilter, ledgerTable, orderSql, scopeParams,
  type ArmRow, type DraftScope, type Params, type RowPlace,
} from './ledger-sql.ts';
import { buyOrderView, listingView } from './ledger-rows.ts';
import type { NameIndex } from './name-index.ts';
import { patchNewKeysSql, patchParams, type BulkPatch } from '../bulk/bulk-patch.ts';
import { byCodeUnit } from '../../../src-shared/text-order.ts';

/**
 * Filter, sort, count and page a ledger table with a draft laid over it,
 * answered by SQL (see ledger-sql.ts): nothing of the table is held in
 * memory but the places of the rows last served, so that the next page
 * of a scroll starts right after them (keyset paging) instead of counting
 * its way down with OFFSET.
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
   * ledger-sql.ts's ArmRow), for statements that work on them in SQL; with
   * the keys named by ID, so the caller can tell which name no row.
   */
  selectedRows(draftId: string | null, domain: LedgerDomain, selection: LedgerSelection): SelectedRows;
  /** What the draft's delete-all does to a table. */
  scope(draftId: string | null, domain: LedgerDomain): DraftScope;
  /** A table's unfiltered counts with the draft laid over, to keep for the next start; null while they cannot be kept (a bulk edit being written, a delete-all). */
  countsToKeep(draftId: string, domain: LedgerDomain): Counts | null;
  /** Rowids of the ledger's own rows (not the draft's creates) matching a filter, in the ledger's order, after `after`. */
  ledgerRowids(draftId: string | null, domain: LedgerDomain, filter: LedgerFilter, after: number, limit: number): number[];
}

export interface LedgerQueryDeps {
  store: Pick<Store, 'db' | 'ledgerVersion' | 'ledgerRowsVersion' | 'transaction'>;
  /** Bumped on every change of a draft: counts and row places laid over it depend on it. */
  draftVersion(draftId: string): number;
  now(): number;
  /** Item names: the Item column; with the index, its sort and text search by name. Without them rows show SKUs. */
  names?: Pick<ItemNames, 'describe'>;
  nameIndex?: NameIndex;
  /** The last balance read (cents), for what it covers of each buy order; null when not read. */
  balance?: () => number | null;
  /** The bulk edit being written into a draft's table, laid over what the screens read (see bulk-patch.ts). */
  patch?: (draftId: string, domain: LedgerDomain) => BulkPatch | null;
  /**
   * The counts as they stood when the desk last closed (see ledger-tables.ts), which the first page after a start
   * uses instead of counting every change again, as long as neither the ledger's rows nor that draft have changed since.
   */
  kept?: KeptCounts | null;
}

export interface SelectedRows {
  readonly sql: string;
  /** The same rows arm by arm (see ledger-sql.ts), for a job that reads them a part at a time. */
  readonly arms: { readonly created: string; readonly ledger: string };
  readonly params: Params;
  /** The keys a selection by ID named, each once; null for a filter. */
  readonly ids: readonly string[] | null;
}

const countsSchema = z.object({
  created: z.number().int().nonnegative(),
  ledger: z.number().int().nonnegative(),
  changed: z.number().int().nonnegative(),
  all: z.number().int().nonnegative(),
});
type Counts = z.infer<typeof countsSchema>;

/** A draft's tables' unfiltered counts, as kept in the store between a close and the next start. */
export const keptCountsSchema = z.object({ draftId: z.string(), listings: countsSchema.optional(), buyOrders: countsSchema.optional() });
export type KeptCounts = z.infer<typeof keptCountsSchema>;

/** Row places kept per query, for the next page of a scroll. */
const MAX_PLACES = 4_000;

export function createLedgerQueries(deps: LedgerQueryDeps): LedgerQueries {
  const { db } = deps.store;
  // One parameter set serves both arms and the counts; each statement takes the ones it names.
  const prepared = statementCache(db, 200);
  const all = <T>(sql: string, params: Params): T[] => prepared(sql).all(params) as T[];
  const one = <T>(sql: string, params: Params): T => prepared(sql).get(params) as T;

  const deleteAllOf = db.prepare(`SELECT kind, active_only FROM draft_entries
    WHERE draft_id = ? AND slot = ? AND key = '' AND status NOT IN ('done', 'dropped')`);
  function scope(draftId: string | null, domain: LedgerDomain): DraftScope {
    if (draftId === null) return { draftId: '', deleteAll: null };
    const row = deleteAllOf.get(draftId, domain === 'listings' ? 'LA' : 'BA') as { active_only: number | null } | undefined;
    if (!row) return { draftId, deleteAll: null };
    return { draftId, deleteAll: domain === 'listings' ? row.active_only === 1 : true };
  }

  const stateOf = (draftId: string | null) => `${deps.store.ledgerVersion}|${draftId ?? ''}|${draftId === null ? 0 : deps.draftVersion(draftId)}`;
  let namesSynced = '';
  function syncNames(draftId: string | null): void {
    const state = stateOf(draftId);
    if (!deps.nameIndex || namesSynced === state) return;
    deps.nameIndex.sync();
    namesSynced = state;
  }

  /**
   * The arms' SQL and parameters for a query; what the screens read has the
   * bulk edit being written laid over it (`patched`), while a selection an
   * edit will work on reads the draft as stored (no edit is written meanwhile).
   */
  function query(draftId: string | null, domain: LedgerDomain, filter: LedgerFilter, sort: LedgerSort | null, patched = true) {
    if (sort) checkSortColumn(domain, sort.column);
    const s = scope(draftId, domain);
    const f = filterSql(domain, filter);
    const withNames = deps.nameIndex !== undefined && (f.names || sort?.column === 'name');
    if (withNames) syncNames(draftId);
    const patch = patched && draftId !== null ? deps.patch?.(draftId, domain) ?? null : null;
    return {
      scope: s, arms: armsOf(domain, withNames, patch), where: f.where, patch,
      params: { ...scopeParams(s), ...f.params, ...(patch ? patchParams(patch) : {}) }, order: orderSql(sort), filterEmpty: isEmptyFilter(filter),
    };
  }
  type Query = ReturnType<typeof query>;

  /**
   * Which state of the store a table's counts depend on. Unfiltered, with no
   * delete-all in the draft, they count rows and changes only, which an edit
   * of a row's price or note (an apply's, a trade's) leaves as they were.
   */
  function countsId(q: Query, draftId: string | null, domain: LedgerDomain, filter: LedgerFilter): string {
    if (q.filterEmpty && q.scope.deleteAll === null) {
      return JSON.stringify(['rows', deps.store.ledgerRowsVersion, draftId, draftId === null ? 0 : deps.draftVersion(draftId), domain]);
    }
    return JSON.stringify([stateOf(draftId), domain, filter]);
  }

  // Kept counts hold while the ledger's rows and the draft are as they were when the store was opened.
  const kept = deps.kept ?? null;
  const keptAt = kept && { rows: deps.store.ledgerRowsVersion, draft: deps.draftVersion(kept.draftId) };
  const keptFor = (q: Query, domain: LedgerDomain): Counts | undefined =>
    kept !== null && keptAt !== null && q.filterEmpty && q.scope.deleteAll === null && q.patch === null && q.scope.draftId === kept.draftId &&
    deps.store.ledgerRowsVersion === keptAt.rows && deps.draftVersion(kept.draftId) === keptAt.draft ? kept[domain] : undefined;

  const countCache = new Map<string, Counts>();
  function counts(q: Query, domain: LedgerDomain, id: string): Counts {
    const cached = countCache.get(id) ?? keptFor(q, domain);
    if (cached) return cached;
    const changed = changedSql(domain);
    const count = (arm: string, where: string) =>
      one<{ n: number; c: number | null }>(`SELECT count(*) AS n, sum(${changed}) AS c FROM (${arm}) WHERE ${where}`, q.params);
    const created = count(q.arms.created, q.where);
    const createdAll = q.filterEmpty ? created : count(q.arms.created, '1');
    const table = ledgerTable(domain);
    const ledgerAll = one<{ n: number }>(`SELECT count(*) AS n FROM ${table}`, {}).n;
    let ledger: { n: number; c: number };
    if (q.filterEmpty && q.scope.deleteAll === null) {
      // Every row matches: the rows changed are counted from the draft's side, a walk over its entries only: the
      // ledger rows with an open change, and those with an open delete and no open change (no DISTINCT to sort).
      const key = domain === 'listings' ? 'asset_id' : 'sku';
      const [edit, del] = domain === 'listings' ? ['L', 'LD'] : ['B', 'BD'];
      const open = (a: string, slot: string) => `${a}.draft_id = :draft AND ${a}.slot = '${slot}' AND ${a}.status NOT IN ('done', 'dropped')`;
      const held = (a: string) => `EXISTS (SELECT 1 FROM ${table} h WHERE h.${key} = ${a}.key)`;
      const c = one<{ n: number }>(`SELECT (SELECT count(*) FROM draft_entries e WHERE ${open('e', edit)} AND ${held('e')})
        + (SELECT count(*) FROM draft_entries x WHERE ${open('x', del)} AND ${held('x')}
          AND NOT EXISTS (SELECT 1 FROM draft_entries e WHERE ${open('e', edit)} AND e.key = x.key)) AS n`, { draft: q.scope.draftId }).n;
      // A bulk edit being written changes rows the draft has no change of yet, too.
      const patched = q.patch ? one<{ n: number }>(patchNewKeysSql(table, key), { p_lo: q.patch.writtenTo }).n : 0;
      ledger = { n: ledgerAll, c: c + patched };
    } else {
      const r = count(q.arms.ledger, q.where);
      ledger = { n: r.n, c: r.c ?? 0 };
    }
    const result = { created: created.n, ledger: ledger.n, changed: (created.c ?? 0) + ledger.c, all: createdAll.n + ledgerAll };
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

  type Placed = ArmRow & { v: SQLInputValue };

  /** Rows of one arm after a place (null: from its first), in the table's order. */
  function armAfter(q: Query, armNo: 0 | 1, after: RowPlace | null, limit: number): Placed[] {
    const arm = armNo === 0 ? q.arms.created : q.arms.ledger;
    const cursor = after === null ? { where: '1', params: {} } : q.order.after(armNo, after);
    if (cursor === null) return [];
    return all<Placed>(`SELECT *, ${q.order.value} AS v FROM (${arm}) WHERE ${q.where} AND ${cursor.where} ORDER BY ${q.order.orderBy(armNo)} LIMIT :limit`,
      { ...q.params, ...cursor.params, limit });
  }

  /**
   * A sort no index serves (by the draft's new price, by name, …) is sorted
   * once per state of the table into a scratch table of row places, and each
   * page is read from it by position: scrolling and jumping cost a lookup
   * each instead of sorting the whole table again for every page.
   */
  let sorted: string | null = null;
  function sortedRows(q: Query, id: string, offset: number, limit: number): Placed[] {
    if (sorted !== id) {
      const dir = q.order.desc ? 'DESC' : 'ASC';
      db.exec('DROP TABLE IF EXISTS temp.page_order; CREATE TEMP TABLE page_order (pos INTEGER PRIMARY KEY, arm INTEGER NOT NULL, t1 INTEGER, t2 TEXT, v ANY)');
      prepared(`INSERT INTO temp.page_order (arm, t1, t2, v) SELECT arm, t1, t2, v FROM (SELECT arm, t1, t2, ${q.order.value} AS v FROM (${q.arms.created}) WHERE ${q.where}
          UNION ALL SELECT arm, t1, t2, ${q.order.value} AS v FROM (${q.arms.ledger}) WHERE ${q.where})
        ORDER BY v ${dir}, arm ${dir}, t1 ${dir}, t2 ${dir}`).run(q.params);
      sorted = id;
    }
    const slice = prepared('SELECT pos, arm, t1, t2, v FROM temp.page_order WHERE pos > :offset ORDER BY pos LIMIT :limit').all({ offset, limit }) as
      { pos: number; arm: 0 | 1; t1: number; t2: string; v: SQLInputValue }[];
    const ledgerIds = JSON.stringify(slice.filter((p) => p.arm === 1).map((p) => p.t1));
    const createdKeys = JSON.stringify(slice.filter((p) => p.arm === 0).map((p) => p.t2));
    const found = new Map<string, ArmRow>();
    for (const r of all<ArmRow>(`SELECT * FROM (${q.arms.ledger}) WHERE t1 IN (SELECT value FROM json_each(:s_ids))`, { ...q.params, s_ids: ledgerIds })) found.set(`1|${r.t1}`, r);
    for (const r of all<ArmRow>(`SELECT * FROM (${q.arms.created}) WHERE key IN (SELECT value FROM json_each(:s_keys))`, { ...q.params, s_keys: createdKeys })) found.set(`0|${r.t2}`, r);
    return slice.flatMap((p) => {
      const row = found.get(p.arm === 1 ? `1|${p.t1}` : `0|${p.t2}`);
      return row ? [{ ...row, v: p.v }] : [];
    });
  }

  /** Rows `offset…offset+limit` of a table: after the place of the row before when it is known, else counted down to. */
  function rowsAt(q: Query, domain: LedgerDomain, c: Counts, sort: LedgerSort | null, places: Map<number, RowPlace>, offset: number, limit: number): Placed[] {
    const before = offset === 0 ? null : places.get(offset - 1);
    if (before !== undefined) {
      // With no created row to show, the created arm is not read: finding none walks every change of the draft.
      const merged = [...(c.created > 0 ? armAfter(q, 0, before, limit) : []), ...armAfter(q, 1, before, limit)];
      merged.sort(comparePlaces(q.order.desc));
      return merged.slice(0, limit);
    }
    if (sort === null) {
      // Created rows come first: the ledger's part starts where they end.
      const fromCreated = offset < c.created
        ? all<Placed>(`SELECT *, NULL AS v FROM (${q.arms.created}) WHERE ${q.where} ORDER BY ${q.order.orderBy(0)} LIMIT :limit OFFSET :offset`, { ...q.params, limit, offset })
        : [];
      const rest = limit - fromCreated.length;
      const skip = Math.max(0, offset - c.created);
      if (rest <= 0) return fromCreated;
      if (q.where === '1' && skip > 0) {
        // Every ledger row is in the table: the page's first row is found by walking the table's rowids, not by
        // joining each row skipped to the draft (an apply moves the places on with every outcome; deep pages stay quick).
        const table = ledgerTable(domain);
        const first = one<{ r: number } | undefined>(`SELECT rowid AS r FROM ${table} ORDER BY rowid LIMIT 1 OFFSET :skip`, { skip });
        if (first === undefined) return fromCreated;
        return [...fromCreated, ...all<Placed>(`SELECT *, NULL AS v FROM (${q.arms.ledger}) WHERE t1 >= :first ORDER BY t1 LIMIT :limit`, { ...q.params, first: first.r, limit: rest })];
      }
      const fromLedger = all<Placed>(`SELECT *, NULL AS v FROM (${q.arms.ledger}) WHERE ${q.where} ORDER BY ${q.order.orderBy(1)} LIMIT :limit OFFSET :offset`,
        { ...q.params, limit: rest, offset: skip });
      return [...fromCreated, ...fromLedger];
    }
    const dir = q.order.desc ? 'DESC' : 'ASC';
    return all<Placed>(`SELECT * FROM (SELECT *, ${q.order.value} AS v FROM (${q.arms.created}) WHERE ${q.where}
        UNION ALL SELECT *, ${q.order.value} AS v FROM (${q.arms.ledger}) WHERE ${q.where})
      ORDER BY v ${dir}, arm ${dir}, t1 ${dir}, t2 ${dir} LIMIT :limit OFFSET :offset`, { ...q.params, limit, offset });
  }

  function itemOf(sku: string) {
    return deps.names && sku !== '' ? itemViewOf(deps.names, sku) : null;
  }

  const queries: LedgerQueries = {
    scope,
    page(draftId, domain, filter, sort, offset, limit) {
      const q = query(draftId, domain, filter, sort);
      const id = JSON.stringify([stateOf(draftId), domain, filter, sort]);
      const c = counts(q, domain, countsId(q, draftId, domain, filter));
      const places = placesOf(id);
      // The ledger's own order and its price have indexes to walk; every other sort is kept sorted (see sortedRows).
      const rows = sort !== null && sort.column !== 'price' ? sortedRows(q, id, offset, limit) : rowsAt(q, domain, c, sort, places, offset, limit);
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
      const { sql, params } = queries.selectedRows(draftId, domain, selection);
      return all<{ key: string }>(`SELECT key FROM (${sql}) ORDER BY arm, t1, t2`, params).map((r) => r.key);
    },
    countsToKeep(draftId, domain) {
      const q = query(draftId, domain, {}, null);
      if (q.patch !== null || q.scope.deleteAll !== null) return null;
      return counts(q, domain, countsId(q, draftId, domain, {}));
    },
    ledgerRowids(draftId, domain, filter, after, limit) {
      const q = query(draftId, domain, filter, null);
      return all<{ t1: number }>(`SELECT t1 FROM (${q.arms.ledger}) WHERE ${q.where} AND t1 > :after ORDER BY t1 LIMIT :limit`, { ...q.params, after, limit })
        .map((r) => r.t1);
    },
    selectedRows(draftId, domain, selection) {
      const byIds = 'ids' in selection;
      const q = query(draftId, domain, byIds ? {} : selection.filter, null, false);
      const ids = byIds ? [...new Set(selection.ids)] : null;
      const except = !byIds && selection.except && selection.except.length > 0 ? JSON.stringify(selection.except) : null;
      const where = ids !== null ? 'key IN (SELECT value FROM json_each(:sel_ids))'
        : except === null ? q.where : `${q.where} AND key NOT IN (SELECT value FROM json_each(:sel_except))`;
      const params: Params = { ...q.params, ...(ids !== null ? { sel_ids: JSON.stringify(ids) } : {}), ...(except !== null ? { sel_except: except } : {}) };
      const arms = { created: `SELECT * FROM (${q.arms.created}) WHERE ${where}`, ledger: `SELECT * FROM (${q.arms.ledger}) WHERE ${where}` };
      return { sql: `${arms.created} UNION ALL ${arms.ledger}`, arms, params, ids };
    },
  };
  return queries;
}

/** SQLite's order of values: NULL, then numbers, then text. */
function compareValues(a: SQLInputValue, b: SQLInputValue): number {
  const rank = (v: SQLInputValue) => (v === null || v === undefined ? 0 : typeof v === 'string' ? 2 : 1);
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0) return 0;
  return (a as number | string) < (b as number | string) ? -1 : (a as number | string) > (b as number | string) ? 1 : 0;
}

/** The table's order of two rows: the tuple (value, arm, t1, t2), reversed whole for a descending sort. */
function comparePlaces(desc: boolean) {
  return (a: RowPlace, b: RowPlace): number =>
    (desc ? -1 : 1) * (compareValues(a.v, b.v) || a.arm - b.arm || a.t1 - b.t1 || byCodeUnit(a.t2, b.t2));
}

