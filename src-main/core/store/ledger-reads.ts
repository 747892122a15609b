import type { SQLInputValue } from 'node:sqlite';
import { z } from 'zod';
import type { LedgerDomain, LedgerFilter, LedgerSelection, LedgerSort } from '../../../src-shared/ledger.ts';
import { byCodeUnit } from '../../../src-shared/text-order.ts';
import { patchNewKeysSql, patchParams, type BulkPatch } from './bulk-patch.ts';
import type { Store } from './db.ts';
import { createRowidAnchors } from './rowid-anchors.ts';
import { armRow, armsOf, ledgerTable, scopeParams, type ArmRow, type DraftScope } from './ledger-arms.ts';
import { changedSql, checkSortColumn, filterSql, isEmptyFilter, orderSql, type RowPlace, type TableOrder } from './ledger-order.ts';
import { parseRow, parseRows, plainRows, statementCache } from './sql.ts';
import { countOf, keysOf, rowidRow, skusOf, type Params } from './typed-rows.ts';
import { buyOrderRow, type BuyOrderRow } from './buy-orders-repo.ts';
import { listingRow, type ListingRow } from './listings-repo.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * A ledger table with a draft laid over it, read in SQL (the arms of
 * ledger-arms.ts, the filters and orders of ledger-order.ts): what the
 * draft's delete-all does to it, how many rows match and have changed, the
 * rows of a page and the keys and rows a selection names. What is kept
 * between calls (counts, the places of rows served) is the caller's
 * (core/ledger/ledger-query.ts); only the sort of a page kept sorted lives
 * here, in a temporary table.
 */

/** The arms' SQL and parameters for one question about a table. */
export interface TableQuery {
  readonly scope: DraftScope;
  readonly arms: { readonly ledger: string; readonly created: string };
  readonly where: string;
  /** The bulk edit being written, laid over what is read (null: the draft as stored). */
  readonly patch: BulkPatch | null;
  readonly params: Params;
  readonly sort: LedgerSort | null;
  readonly order: TableOrder;
  readonly filterEmpty: boolean;
  /** Whether the query reads the item names (a search, an item filter or a sort by name): the name index must be in step first. */
  readonly names: boolean;
}

export const tableCounts = lazySchema(() => z.object({
  created: z.number().int().nonnegative(),
  ledger: z.number().int().nonnegative(),
  changed: z.number().int().nonnegative(),
  all: z.number().int().nonnegative(),
}));
/** A table's rows the draft creates, the ledger's matching, those changed, and every row unfiltered. */
export type TableCounts = z.infer<typeof tableCounts>;

/** An arm's row with the value it sorts by. */
export type PlacedRow = ArmRow & { readonly v: SQLInputValue };
const placedRow = lazySchema(() => armRow.extend({ v: z.union([z.number(), z.string(), z.null()]) }));
const place = lazySchema(() => z.object({ pos: z.number(), arm: z.union([z.literal(0), z.literal(1)]), t1: z.number(), t2: z.string(), v: z.union([z.number(), z.string(), z.null()]) }));
const deleteAllRow = lazySchema(() => z.object({ active_only: z.number().nullable() }));
/** `SELECT count(*) AS n, sum(<changed>) AS c …`: rows and how many of them changed. */
export const changedRow = lazySchema(() => z.object({ n: z.number(), c: z.number().nullable() }));
const t1Row = z.object({ t1: z.number() });

/** The rows a selection names, as a query over both arms (every column of ArmRow), for statements that work on them in SQL. */
export interface SelectedRows {
  readonly sql: string;
  /** The same rows arm by arm, for a job that reads them a part at a time. */
  readonly arms: { readonly created: string; readonly ledger: string };
  readonly params: Params;
  /** The keys a selection by ID named, each once; null for a filter. */
  readonly ids: readonly string[] | null;
}

export interface LedgerReads {
  /** What the draft's delete-all does to a table. */
  scope(draftId: string | null, domain: LedgerDomain): DraftScope;
  /** A question about a table: `names` whether the item names may be joined, `patch` the bulk edit to lay over. */
  query(draftId: string | null, domain: LedgerDomain, filter: LedgerFilter, sort: LedgerSort | null, with_: { names: boolean; patch: BulkPatch | null }): TableQuery;
  /** The table's counts, counted now. */
  counts(q: TableQuery, domain: LedgerDomain): TableCounts;
  /** The rows a bulk edit being written adds to the table's changed ones, over the whole edit (its parts written or not). */
  patchAdds(domain: LedgerDomain): number;
  /** Up to `limit` rows after a place (null: from the first), both arms merged in the table's order; `created` how many rows the draft creates. */
  rowsAfter(q: TableQuery, created: number, before: RowPlace | null, limit: number): PlacedRow[];
  /** Rows `offset…offset+limit` counted down to, for a page whose row before is not known. */
  rowsCounted(q: TableQuery, domain: LedgerDomain, created: number, offset: number, limit: number): PlacedRow[];
  /**
   * Rows `offset…offset+limit` of a sort no index serves, sorted once per `orderId` (the table's state, its filter
   * and the sort's column, not its direction) into a temporary table: a descending order is the ascending one read
   * backwards, the whole tuple reversed, so turning a column's sort round sorts nothing again.
   */
  rowsSorted(q: TableQuery, orderId: string, offset: number, limit: number): PlacedRow[];
  /** The rows a selection names (by ID, or a filter with exceptions). */
  selectedRows(q: TableQuery, selection: LedgerSelection): SelectedRows;
  /** The keys of selected rows, in table order. */
  keys(rows: SelectedRows): string[];
  /** Rowids of the ledger's own rows (not the draft's creates) matching the query, in the ledger's order, after `after`. */
  ledgerRowids(q: TableQuery, after: number, limit: number): number[];
}

export function createLedgerReads(store: Pick<Store, 'db' | 'ledgerRowsVersion'>): LedgerReads {
  const { db } = store;
  const anchors = createRowidAnchors(store);
  // One parameter set serves both arms and the counts; each statement takes the ones it names.
  const prepared = statementCache(db, 200);
  const placed = (sql: string, params: Params): PlacedRow[] => parseRows('a ledger table', placedRow, plainRows(prepared(sql), params));
  const one = (sql: string, params: Params): unknown => prepared(sql).get(params);

  const deleteAllOf = db.prepare(`SELECT kind, active_only FROM draft_entries
    WHERE draft_id = ? AND slot = ? AND key = '' AND status NOT IN ('done', 'dropped')`);
  function scope(draftId: string | null, domain: LedgerDomain): DraftScope {
    if (draftId === null) return { draftId: '', deleteAll: null };
    const row = deleteAllOf.get(draftId, domain === 'listings' ? 'LA' : 'BA');
    if (row === undefined) return { draftId, deleteAll: null };
    return { draftId, deleteAll: domain === 'listings' ? parseRow('draft_entries', deleteAllRow, row).active_only === 1 : true };
  }

  /** Rows of one arm after a place (null: from its first), in the table's order. */
  function armAfter(q: TableQuery, armNo: 0 | 1, after: RowPlace | null, limit: number): PlacedRow[] {
    const arm = armNo === 0 ? q.arms.created : q.arms.ledger;
    const cursor = after === null ? { where: '1', params: {} } : q.order.after(armNo, after);
    if (cursor === null) return [];
    return placed(`SELECT *, ${q.order.value} AS v FROM (${arm}) WHERE ${q.where} AND ${cursor.where} ORDER BY ${q.order.orderBy(armNo)} LIMIT :limit`,
      { ...q.params, ...cursor.params, limit });
  }

  /** The rows of the bulk edit being written after `writtenTo` that the draft has no open change of and the ledger holds. */
  const patchNew = (domain: LedgerDomain, writtenTo: number) =>
    countOf('bulk_rows', one(patchNewKeysSql(ledgerTable(domain), domain === 'listings' ? 'asset_id' : 'sku'), { p_lo: writtenTo }));

  /** The order kept in `temp.page_order`: which question it answers and how many rows it holds. */
  let sorted: { id: string; rows: number } | null = null;

  const reads: LedgerReads = {
    scope,
    query(draftId, domain, filter, sort, with_) {
      if (sort) checkSortColumn(domain, sort.column);
      const s = scope(draftId, domain);
      const f = filterSql(domain, filter);
      // The names are joined to sort by them; a search or an item filter reads them by SKU.
      const byName = with_.names && sort?.column === 'name';
      const names = with_.names && (f.names || byName);
      const { patch } = with_;
      return {
        scope: s, arms: armsOf(domain, byName, patch), where: f.where, patch, names, sort,
        params: { ...scopeParams(s), ...f.params, ...(patch ? patchParams(patch) : {}) }, order: orderSql(sort), filterEmpty: isEmptyFilter(filter),
      };
    },
    counts(q, domain) {
      const changed = changedSql(domain);
      const count = (arm: string, where: string) =>
        parseRow('a ledger table', changedRow, one(`SELECT count(*) AS n, sum(${changed}) AS c FROM (${arm}) WHERE ${where}`, q.params));
      const created = count(q.arms.created, q.where);
      const createdAll = q.filterEmpty ? created : count(q.arms.created, '1');
      const table = ledgerTable(domain);
      const ledgerAll = countOf(table, one(`SELECT count(*) AS n FROM ${table}`, {}));
      let ledger: { n: number; c: number };
      if (q.filterEmpty && q.scope.deleteAll === null) {
        // Every row matches: the rows changed are counted from the draft's side, a walk over its entries only: the
        // ledger rows with an open change, and those with an open delete and no open change (no DISTINCT to sort).
        const key = domain === 'listings' ? 'asset_id' : 'sku';
        const [edit, del] = domain === 'listings' ? ['L', 'LD'] : ['B', 'BD'];
        const open = (a: string, slot: string) => `${a}.draft_id = :draft AND ${a}.slot = '${slot}' AND ${a}.status NOT IN ('done', 'dropped')`;
        const held = (a: string) => `EXISTS (SELECT 1 FROM ${table} h WHERE h.${key} = ${a}.key)`;
        const c = countOf('draft_entries', one(`SELECT (SELECT count(*) FROM draft_entries e WHERE ${open('e', edit)} AND ${held('e')})
          + (SELECT count(*) FROM draft_entries x WHERE ${open('x', del)} AND ${held('x')}
            AND NOT EXISTS (SELECT 1 FROM draft_entries e WHERE ${open('e', edit)} AND e.key = x.key)) AS n`, { draft: q.scope.draftId }));
        // A bulk edit being written changes rows the draft has no change of yet, too.
        const patched = q.patch ? patchNew(domain, q.patch.writtenTo) : 0;
        ledger = { n: ledgerAll, c: c + patched };
      } else {
        const r = count(q.arms.ledger, q.where);
        ledger = { n: r.n, c: r.c ?? 0 };
      }
      return { created: created.n, ledger: ledger.n, changed: (created.c ?? 0) + ledger.c, all: createdAll.n + ledgerAll };
    },
    patchAdds: (domain) => patchNew(domain, 0),
    rowsAfter(q, created, before, limit) {
      // With no created row to show, the created arm is not read: finding none walks every change of the draft.
      const merged = [...(created > 0 ? armAfter(q, 0, before, limit) : []), ...armAfter(q, 1, before, limit)];
      merged.sort(comparePlaces(q.order.desc));
      return merged.slice(0, limit);
    },
    rowsCounted(q, domain, created, offset, limit) {
      if (q.sort !== null) {
        const dir = q.order.desc ? 'DESC' : 'ASC';
        return placed(`SELECT * FROM (SELECT *, ${q.order.value} AS v FROM (${q.arms.created}) WHERE ${q.where}
            UNION ALL SELECT *, ${q.order.value} AS v FROM (${q.arms.ledger}) WHERE ${q.where})
          ORDER BY v ${dir}, arm ${dir}, t1 ${dir}, t2 ${dir} LIMIT :limit OFFSET :offset`, { ...q.params, limit, offset });
      }
      // Created rows come first: the ledger's part starts where they end.
      const fromCreated = offset < created
        ? placed(`SELECT *, NULL AS v FROM (${q.arms.created}) WHERE ${q.where} ORDER BY ${q.order.orderBy(0)} LIMIT :limit OFFSET :offset`, { ...q.params, limit, offset })
        : [];
      const rest = limit - fromCreated.length;
      const skip = Math.max(0, offset - created);
      if (rest <= 0) return fromCreated;
      if (q.where === '1' && skip > 0) {
        // Every ledger row is in the table: the page's first row is found by walking the table's rowids, not by
        // joining each row skipped to the draft (an apply moves the places on with every outcome; deep pages stay quick).
        // It steps from the nearest jump before it, while the table's rows are the same (rowid-anchors.ts).
        const table = ledgerTable(domain);
        // With none kept, from the table's start: no rowid lies below the smallest safe integer.
        const anchor = anchors.before(table, skip) ?? { offset: 0, rowid: Number.MIN_SAFE_INTEGER };
        const first = one(`SELECT rowid AS r FROM ${table} WHERE rowid >= :from ORDER BY rowid LIMIT 1 OFFSET :rest`,
          { from: anchor.rowid, rest: skip - anchor.offset });
        if (first === undefined) return fromCreated;
        const firstRowid = parseRow(table, rowidRow, first).r;
        anchors.keep(table, skip, firstRowid);
        return [...fromCreated, ...placed(`SELECT *, NULL AS v FROM (${q.arms.ledger}) WHERE t1 >= :first ORDER BY t1 LIMIT :limit`,
          { ...q.params, first: firstRowid, limit: rest })];
      }
      const fromLedger = placed(`SELECT *, NULL AS v FROM (${q.arms.ledger}) WHERE ${q.where} ORDER BY ${q.order.orderBy(1)} LIMIT :limit OFFSET :offset`,
        { ...q.params, limit: rest, offset: skip });
      return [...fromCreated, ...fromLedger];
    },
    rowsSorted(q, orderId, offset, limit) {
      if (sorted?.id !== orderId) {
        db.exec('DROP TABLE IF EXISTS temp.page_order; CREATE TEMP TABLE page_order (pos INTEGER PRIMARY KEY, arm INTEGER NOT NULL, t1 INTEGER, t2 TEXT, v ANY)');
        const made = prepared(`INSERT INTO temp.page_order (arm, t1, t2, v) SELECT arm, t1, t2, v FROM (SELECT arm, t1, t2, ${q.order.value} AS v FROM (${q.arms.created}) WHERE ${q.where}
            UNION ALL SELECT arm, t1, t2, ${q.order.value} AS v FROM (${q.arms.ledger}) WHERE ${q.where})
          ORDER BY v, arm, t1, t2`).run(q.params);
        sorted = { id: orderId, rows: Number(made.changes) };
      }
      // Positions count from 1; descending, row `offset` is the one `offset` places before the last.
      const slice = parseRows('page_order', place, q.order.desc
        ? prepared('SELECT pos, arm, t1, t2, v FROM temp.page_order WHERE pos <= :top ORDER BY pos DESC LIMIT :limit').all({ top: sorted.rows - offset, limit })
        : prepared('SELECT pos, arm, t1, t2, v FROM temp.page_order WHERE pos > :offset ORDER BY pos LIMIT :limit').all({ offset, limit }));
      const ledgerIds = JSON.stringify(slice.filter((p) => p.arm === 1).map((p) => p.t1));
      const createdKeys = JSON.stringify(slice.filter((p) => p.arm === 0).map((p) => p.t2));
      const found = new Map<string, ArmRow>();
      const rows = (sql: string, params: Params) => parseRows('a ledger table', armRow, prepared(sql).all(params));
      for (const r of rows(`SELECT * FROM (${q.arms.ledger}) WHERE t1 IN (SELECT value FROM json_each(:s_ids))`, { ...q.params, s_ids: ledgerIds })) found.set(`1|${r.t1}`, r);
      for (const r of rows(`SELECT * FROM (${q.arms.created}) WHERE key IN (SELECT value FROM json_each(:s_keys))`, { ...q.params, s_keys: createdKeys })) found.set(`0|${r.t2}`, r);
      return slice.flatMap((p) => {
        const row = found.get(p.arm === 1 ? `1|${p.t1}` : `0|${p.t2}`);
        return row ? [{ ...row, v: p.v }] : [];
      });
    },
    selectedRows(q, selection) {
      const byIds = 'ids' in selection;
      const ids = byIds ? [...new Set(selection.ids)] : null;
      const except = !byIds && selection.except && selection.except.length > 0 ? JSON.stringify(selection.except) : null;
      const where = ids !== null ? 'key IN (SELECT value FROM json_each(:sel_ids))'
        : except === null ? q.where : `${q.where} AND key NOT IN (SELECT value FROM json_each(:sel_except))`;
      const params: Params = { ...q.params, ...(ids !== null ? { sel_ids: JSON.stringify(ids) } : {}), ...(except !== null ? { sel_except: except } : {}) };
      const arms = { created: `SELECT * FROM (${q.arms.created}) WHERE ${where}`, ledger: `SELECT * FROM (${q.arms.ledger}) WHERE ${where}` };
      return { sql: `${arms.created} UNION ALL ${arms.ledger}`, arms, params, ids };
    },
    keys: (rows) => keysOf('a ledger table', prepared(`SELECT key FROM (${rows.sql}) ORDER BY arm, t1, t2`).all(rows.params)),
    ledgerRowids: (q, after, limit) =>
      parseRows('a ledger table', t1Row, prepared(`SELECT t1 FROM (${q.arms.ledger}) WHERE ${q.where} AND t1 > :after ORDER BY t1 LIMIT :limit`).all({ ...q.params, after, limit }))
        .map((r) => r.t1),
  };
  return reads;
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

/** The SKUs the trader holds: the listings' (in the order first listed), then the buy orders'. */
export function heldSkus(store: Pick<Store, 'db'>): string[] {
  return skusOf('listings', store.db.prepare(`SELECT sku FROM (SELECT sku, min(rowid) AS first, 0 AS t FROM listings WHERE sku != '' GROUP BY sku
    UNION ALL SELECT sku, rowid, 1 FROM buy_orders) ORDER BY t, first`).all());
}

/**
 * The ledger's rows by rowid (as `ledgerRowids` gives them), in the order
 * asked, in one statement: a statement per row made SQLite's per-call work
 * most of an export's page, a step nothing else can come in during.
 */
export function createLedgerRowsAt(store: Pick<Store, 'db'>) {
  // json_each walks the rowids asked (CROSS JOIN keeps it the outer loop), each row found by its rowid.
  const rowsOf = (table: 'listings' | 'buy_orders') =>
    store.db.prepare(`SELECT t.* FROM json_each(?) j CROSS JOIN ${table} t ON t.rowid = j.value ORDER BY j.key`);
  const listings = rowsOf('listings');
  const buyOrders = rowsOf('buy_orders');
  return {
    listings: (rowids: readonly number[]): ListingRow[] => parseRows('listings', listingRow, listings.all(JSON.stringify(rowids))),
    buyOrders: (rowids: readonly number[]): BuyOrderRow[] => parseRows('buy_orders', buyOrderRow, buyOrders.all(JSON.stringify(rowids))),
  };
}
