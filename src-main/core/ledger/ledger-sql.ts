import type { SQLInputValue } from 'node:sqlite';
import { BUY_ORDER_COLUMNS, LISTING_COLUMNS, type LedgerColumn, type LedgerDomain, type LedgerFilter, type LedgerSort } from '../../../src-shared/ledger.ts';
import { DomainError } from '../errors.ts';
import { patchedColumn, patchJoin, type BulkPatch } from '../bulk/bulk-patch.ts';

/**
 * The draft laid over the ledger, as SQL: the rows a table shows are two
 * arms, the ledger's rows with the draft's change and delete of each joined
 * by key (arm 1), and the rows the draft creates that the ledger does not
 * hold (arm 0). Both project the same columns, so one filter, one order and
 * one "changed" test serve both, and each arm stays a plain join SQLite can
 * walk in index order: a first page reads a hundred rows, not the ledger.
 *
 * A row's own values (`price`, `user_note`, …) are the ledger's, or the
 * create's for a row the draft creates; filters and sorts read those, so a
 * row does not jump while the trader reprices it (`newPrice` sorts by the
 * price after the draft, on purpose). `e_*` are the row's open-or-not change
 * (slot L or B), `x_*` its delete (LD or BD).
 */

export type Params = Record<string, SQLInputValue>;

/** What the draft as a whole does to a table: its delete-all, if any. */
export interface DraftScope {
  /** The draft laid over the ledger ('' for none: the joins then find nothing). */
  readonly draftId: string;
  /** Listings: null without a live delete-all, else its `active_only`. Buy orders: whether one is live. */
  readonly deleteAll: boolean | null;
}

/** Columns every arm projects (see the module comment). */
const ENTRY = (a: string, p: string) =>
  `${a}.kind AS ${p}kind, ${a}.status AS ${p}status, ${a}.error AS ${p}error, ${a}.price AS ${p}price, ${a}.promoted AS ${p}promoted,
   ${a}.quantity AS ${p}quantity, ${a}.active AS ${p}active, ${a}.user_note AS ${p}note, ${a}.updated_at AS ${p}updated_at`;

/** A bulk edit being written into the draft the arms lay over, read as a patch (see bulk-patch.ts); null for none. */
export type ArmPatch = Pick<BulkPatch, 'domain' | 'notes'> | null;

/** A column of the row's change (`e`), with the patch laid over it when there is one. */
const changeColumn = (patch: ArmPatch, column: Parameters<typeof patchedColumn>[1]) => (patch === null ? `e.${column}` : patchedColumn(patch, column));

/** The change's columns (`e_*`), and the join that finds its patch. */
function changeOf(patch: ArmPatch, key: string): { columns: string; join: string } {
  if (patch === null) return { columns: ENTRY('e', 'e_'), join: '' };
  const c = (column: Parameters<typeof patchedColumn>[1], as: string) => `${patchedColumn(patch, column)} AS e_${as}`;
  return {
    columns: [c('kind', 'kind'), c('status', 'status'), c('error', 'error'), c('price', 'price'), c('promoted', 'promoted'),
      c('quantity', 'quantity'), c('active', 'active'), c('user_note', 'note'), c('updated_at', 'updated_at')].join(', '),
    join: patchJoin(key),
  };
}

const SETTLED = "('done', 'dropped')";

/** The ledger's table of a domain. */
export const ledgerTable = (domain: LedgerDomain): 'listings' | 'buy_orders' => (domain === 'listings' ? 'listings' : 'buy_orders');

/** A change that is still the draft's (not done, not removed). */
export const openEntry = (p: 'e' | 'x') => `(${p}_status IS NOT NULL AND ${p}_status NOT IN ${SETTLED})`;

function listingArms(withNames: boolean, patch: ArmPatch): { ledger: string; created: string } {
  const names = (sku: string) => (withNames ? `LEFT JOIN item_names n ON n.sku = ${sku}` : '');
  const name = withNames ? 'n.search' : 'NULL';
  const held = changeOf(patch, 'l.asset_id');
  const created = changeOf(patch, 'e.key');
  const own = (column: Parameters<typeof patchedColumn>[1]) => changeColumn(patch, column);
  return {
    ledger: `SELECT 1 AS arm, l.rowid AS t1, '' AS t2, l.asset_id AS key, 1 AS held,
        l.sku AS sku, l.account AS account, l.price AS price, l.promoted AS promoted, 1 AS active, 1 AS quantity, 0 AS filled,
        l.user_note AS user_note, l.listing_id AS listing_id, l.id_unknown AS id_unknown, l.state AS state,
        l.state_reason AS state_reason, l.trade_id AS trade_id, 0 AS may_be_cut, NULL AS at_least, l.updated_at AS updated_at,
        ${name} AS name, ${held.columns}, ${ENTRY('x', 'x_')}
      FROM listings l
      LEFT JOIN draft_entries e ON e.draft_id = :draft AND e.slot = 'L' AND e.key = l.asset_id
      ${held.join}
      LEFT JOIN draft_entries x ON x.draft_id = :draft AND x.slot = 'LD' AND x.key = l.asset_id
      ${names('l.sku')}`,
    created: `SELECT 0 AS arm, length(e.key) AS t1, e.key AS t2, e.key AS key, 0 AS held,
        coalesce(e.sku, '') AS sku, e.account AS account, ${own('price')} AS price, ${own('promoted')} AS promoted, 1 AS active, 1 AS quantity, 0 AS filled,
        coalesce(${own('user_note')}, '') AS user_note, NULL AS listing_id, 0 AS id_unknown, 'new' AS state,
        NULL AS state_reason, NULL AS trade_id, 0 AS may_be_cut, NULL AS at_least, ${own('updated_at')} AS updated_at,
        ${name} AS name, ${created.columns}, ${ENTRY('x', 'x_')}
      FROM draft_entries e
      ${created.join}
      LEFT JOIN draft_entries x ON x.draft_id = :draft AND x.slot = 'LD' AND x.key = e.key
      ${names('e.sku')}
      WHERE e.draft_id = :draft AND e.slot = 'L' AND e.kind = 'listing.create' AND e.status NOT IN ${SETTLED}
        AND NOT EXISTS (SELECT 1 FROM listings h WHERE h.asset_id = e.key)`,
  };
}

function buyOrderArms(withNames: boolean, patch: ArmPatch): { ledger: string; created: string } {
  const names = (sku: string) => (withNames ? `LEFT JOIN item_names n ON n.sku = ${sku}` : '');
  const name = withNames ? 'n.search' : 'NULL';
  const held = changeOf(patch, 'b.sku');
  const created = changeOf(patch, 'e.key');
  const own = (column: Parameters<typeof patchedColumn>[1]) => changeColumn(patch, column);
  return {
    ledger: `SELECT 1 AS arm, b.rowid AS t1, '' AS t2, b.sku AS key, 1 AS held,
        b.sku AS sku, b.account AS account, b.price AS price, 0 AS promoted, b.active AS active, b.quantity AS quantity,
        b.fills_seen AS filled, b.user_note AS user_note, NULL AS listing_id, 0 AS id_unknown, NULL AS state,
        NULL AS state_reason, NULL AS trade_id, b.quantity_may_be_cut AS may_be_cut, b.quantity_at_least AS at_least,
        b.updated_at AS updated_at, ${name} AS name, ${held.columns}, ${ENTRY('x', 'x_')}
      FROM buy_orders b
      LEFT JOIN draft_entries e ON e.draft_id = :draft AND e.slot = 'B' AND e.key = b.sku
      ${held.join}
      LEFT JOIN draft_entries x ON x.draft_id = :draft AND x.slot = 'BD' AND x.key = b.sku
      ${names('b.sku')}`,
    created: `SELECT 0 AS arm, 0 AS t1, e.key AS t2, e.key AS key, 0 AS held,
        e.key AS sku, e.account AS account, ${own('price')} AS price, 0 AS promoted, 1 AS active, ${own('quantity')} AS quantity,
        0 AS filled, coalesce(${own('user_note')}, '') AS user_note, NULL AS listing_id, 0 AS id_unknown, NULL AS state,
        NULL AS state_reason, NULL AS trade_id, 0 AS may_be_cut, NULL AS at_least,
        ${own('updated_at')} AS updated_at, ${name} AS name, ${created.columns}, ${ENTRY('x', 'x_')}
      FROM draft_entries e
      ${created.join}
      LEFT JOIN draft_entries x ON x.draft_id = :draft AND x.slot = 'BD' AND x.key = e.key
      ${names('e.key')}
      WHERE e.draft_id = :draft AND e.slot = 'B' AND e.kind = 'buyOrder.create' AND e.status NOT IN ${SETTLED}
        AND NOT EXISTS (SELECT 1 FROM buy_orders h WHERE h.sku = e.key)`,
  };
}

/** A row of either arm as SQLite hands it back. */
export interface ArmRow {
  readonly arm: 0 | 1;
  readonly t1: number;
  readonly t2: string;
  readonly key: string;
  readonly held: 0 | 1;
  readonly sku: string;
  readonly account: string;
  readonly price: number;
  readonly promoted: 0 | 1;
  readonly active: 0 | 1;
  readonly quantity: number;
  readonly filled: number;
  readonly user_note: string;
  readonly listing_id: string | null;
  readonly id_unknown: 0 | 1;
  readonly state: string | null;
  readonly state_reason: string | null;
  readonly trade_id: string | null;
  readonly may_be_cut: 0 | 1;
  readonly at_least: number | null;
  readonly updated_at: number;
  readonly name: string | null;
  readonly e_kind: string | null;
  readonly e_status: string | null;
  readonly e_error: string | null;
  readonly e_price: number | null;
  readonly e_promoted: 0 | 1 | null;
  readonly e_quantity: number | null;
  readonly e_active: 0 | 1 | null;
  readonly e_note: string | null;
  readonly e_updated_at: number | null;
  readonly x_kind: string | null;
  readonly x_status: string | null;
  readonly x_error: string | null;
  readonly x_price: null;
  readonly x_promoted: null;
  readonly x_quantity: null;
  readonly x_active: null;
  readonly x_note: null;
  readonly x_updated_at: number | null;
}

/** Whether the draft changes a row: it creates it, or has an open change or delete of it, or a delete-all takes it. */
export function changedSql(domain: LedgerDomain): string {
  const deleteAll = domain === 'listings' ? "(:deleteAll IS NOT NULL AND (:deleteAll = 0 OR state = 'active'))" : ':deleteAll = 1';
  return `(arm = 0 OR ${openEntry('e')} OR ${openEntry('x')} OR ${deleteAll})`;
}

/** Whether a filter needs nothing but "all rows". */
export function isEmptyFilter(f: LedgerFilter): boolean {
  return Object.values(f).every((v) => v === undefined || v === '' || v === false);
}

/** The WHERE clause of a filter over the projected columns, with its parameters. */
export function filterSql(domain: LedgerDomain, f: LedgerFilter): { where: string; params: Params; names: boolean } {
  const parts: string[] = [];
  const params: Params = {};
  const add = (sql: string, name: string, value: SQLInputValue) => {
    parts.push(sql);
    params[name] = value;
  };
  const text = f.text?.trim().toLowerCase() || undefined;
  const note = f.note?.trim().toLowerCase() || undefined;
  const sku = f.sku?.trim() || undefined;
  if (sku !== undefined) add('sku = :f_sku', 'f_sku', sku);
  if (f.account) add('account = :f_account', 'f_account', f.account);
  if (f.minPrice !== undefined) add('price >= :f_min', 'f_min', f.minPrice);
  if (f.maxPrice !== undefined) add('price <= :f_max', 'f_max', f.maxPrice);
  if (domain === 'listings' && f.promoted !== undefined) add('promoted = :f_promoted', 'f_promoted', f.promoted);
  if (domain === 'buyOrders' && f.active !== undefined) add('active = :f_active', 'f_active', f.active);
  if (note !== undefined) add('instr(fold(user_note), :f_note) > 0', 'f_note', note);
  if (text !== undefined) {
    parts.push(`(instr(fold(sku), :f_text) > 0 OR instr(fold(user_note), :f_text) > 0 OR instr(key, :f_text) > 0
      OR instr(fold(coalesce(listing_id, '')), :f_text) > 0 OR instr(coalesce(name, ''), :f_text) > 0)`);
    params.f_text = text;
  }
  if (f.changedOnly) parts.push(changedSql(domain));
  return { where: parts.length === 0 ? '1' : parts.join(' AND '), params, names: text !== undefined };
}

/** The value a column sorts by (over the projected columns). */
function sortValueSql(column: LedgerColumn): string {
  switch (column) {
    case 'name': return "CASE WHEN sku = '' THEN '' ELSE coalesce(name, fold(sku)) END";
    case 'asset': return "substr('00000000000000000000' || key, -20)";
    case 'price': return 'price';
    case 'newPrice': return `CASE WHEN ${openEntry('e')} AND e_price IS NOT NULL THEN e_price ELSE price END`;
    case 'promoted': return 'promoted';
    case 'note': return 'fold(user_note)';
    case 'account': return 'account';
    case 'state': return "coalesce(state, 'new')";
    case 'quantity': return 'quantity';
    case 'active': return 'active';
    case 'filled': return 'filled';
  }
}

export function checkSortColumn(domain: LedgerDomain, column: LedgerColumn): void {
  const allowed = domain === 'listings' ? LISTING_COLUMNS : BUY_ORDER_COLUMNS;
  if (!allowed.includes(column)) {
    throw new DomainError('invalid', `${domain === 'listings' ? 'Listings' : 'Buy orders'} cannot be sorted by ${column}.`);
  }
}

/** Where a row sits in a table's order: its sort value (null without a sort), then arm and the arm's own order. */
export interface RowPlace {
  readonly v: SQLInputValue;
  readonly arm: number;
  readonly t1: number;
  readonly t2: string;
}

/**
 * A table's order: by a column, ties broken by arm (created rows first) and
 * the arm's own order, the whole tuple reversed for a descending sort; or,
 * without a sort, created rows then the ledger's. Each arm is ordered and
 * paged on its own with keys SQLite can walk in an index (the ledger's rowid,
 * an indexed column then rowid): the arm is a constant within its own query,
 * so it never takes part in the SQL order, only in merging the two.
 */
export interface TableOrder {
  /** The sort value's SQL (NULL without a sort). */
  readonly value: string;
  readonly desc: boolean;
  /** ORDER BY of one arm's query. */
  orderBy(arm: 0 | 1): string;
  /** WHERE of one arm's rows after a place (null: none of this arm's rows come after it), with the place's parameters. */
  after(arm: 0 | 1, place: RowPlace): { where: string; params: Params } | null;
}

export function orderSql(sort: LedgerSort | null): TableOrder {
  const value = sort === null ? 'NULL' : sortValueSql(sort.column);
  const desc = sort?.dir === 'desc';
  const dir = desc ? 'DESC' : 'ASC';
  const beyond = desc ? '<' : '>';
  /** The arm's own order: the ledger's by rowid, created rows by asset ID length then ID. */
  const own = (arm: 0 | 1) => (arm === 1 ? ['t1'] : ['t1', 't2']);
  const tuple = (cols: readonly string[]) => (cols.length === 1 ? cols[0] as string : `(${cols.join(', ')})`);
  return {
    value,
    desc,
    orderBy: (arm) => (sort === null ? own(arm) : [value, ...own(arm)]).map((c) => `${c} ${dir}`).join(', '),
    after(arm, place) {
      const params: Params = { c_t1: place.t1, c_t2: place.t2 };
      const ownAfter = `${tuple(own(arm))} ${beyond} ${tuple(own(arm).map((c) => `:c_${c}`))}`;
      const armFirst = desc ? arm > place.arm : arm < place.arm;
      if (sort === null) {
        // Created rows, then the ledger's: an arm before the place's has nothing after it, one after it all.
        if (arm === place.arm) return { where: ownAfter, params };
        return armFirst ? null : { where: '1', params };
      }
      params.c_v = place.v ?? null;
      if (arm === place.arm) return { where: `${tuple([value, ...own(arm)])} ${beyond} ${tuple([':c_v', ...own(arm).map((c) => `:c_${c}`)])}`, params };
      // The other arm's rows of an equal value come before or after the place as a whole.
      return { where: armFirst ? `(${value}) ${beyond} :c_v` : `(${value}) ${beyond}= :c_v`, params };
    },
  };
}

/** The two arms of a table, each `SELECT … FROM (arm) WHERE …` ready for an ORDER BY; with a bulk edit being written laid over them. */
export function armsOf(domain: LedgerDomain, withNames: boolean, patch: ArmPatch = null): { ledger: string; created: string } {
  return domain === 'listings' ? listingArms(withNames, patch) : buyOrderArms(withNames, patch);
}

/** The parameters every arm takes. */
export const scopeParams = (scope: DraftScope): Params => ({
  draft: scope.draftId,
  deleteAll: scope.deleteAll === null ? null : scope.deleteAll ? 1 : 0,
});
