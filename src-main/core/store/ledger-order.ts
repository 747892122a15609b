import type { SQLInputValue } from 'node:sqlite';
import { BUY_ORDER_COLUMNS, LISTING_COLUMNS, type LedgerColumn, type LedgerDomain, type LedgerFilter, type LedgerSort } from '../../../src-shared/ledger.ts';
import { DomainError } from '../errors.ts';
import { hasFacets, itemTextSql, skuFacetSql, type SqlPart } from './item-match.ts';
import { openEntry } from './ledger-arms.ts';
import type { Params } from './typed-rows.ts';

/**
 * Which rows of a table a screen asks for and in what order, as SQL over the
 * columns both arms project (ledger-arms.ts): a filter's WHERE, the "changed"
 * test, a sort's value and the keyset order a page continues from.
 */

/** Whether the draft changes a row: it creates it, or has an open change or delete of it, or a delete-all takes it. */
export function changedSql(domain: LedgerDomain): string {
  const deleteAll = domain === 'listings' ? "(:deleteAll IS NOT NULL AND (:deleteAll = 0 OR state = 'active'))" : ':deleteAll = 1';
  return `(arm = 0 OR ${openEntry('e')} OR ${openEntry('x')} OR ${deleteAll})`;
}

/** Whether a filter needs nothing but "all rows" (`craftable: false` narrows; `changedOnly: false` does not). */
export function isEmptyFilter(f: LedgerFilter): boolean {
  return Object.entries(f).every(([k, v]) => v === undefined || v === '' || (v === false && k !== 'craftable'));
}

/** The WHERE clause of a filter over the projected columns, with its parameters; `names`: it reads the names tables. */
export function filterSql(domain: LedgerDomain, f: LedgerFilter): { where: string; params: Params; names: boolean } {
  const parts: string[] = [];
  const params: Params = {};
  const add = (sql: string, name: string, value: SQLInputValue) => {
    parts.push(sql);
    params[name] = value;
  };
  const addPart = (part: SqlPart | null) => {
    if (part === null) return;
    parts.push(part.sql);
    Object.assign(params, part.params);
  };
  const note = f.note?.trim().toLowerCase() || undefined;
  const sku = f.sku?.trim() || undefined;
  if (sku !== undefined) add('sku = :f_sku', 'f_sku', sku);
  if (f.account) add('account = :f_account', 'f_account', f.account);
  if (f.minPrice !== undefined) add('price >= :f_min', 'f_min', f.minPrice);
  if (f.maxPrice !== undefined) add('price <= :f_max', 'f_max', f.maxPrice);
  if (domain === 'listings' && f.promoted !== undefined) add('promoted = :f_promoted', 'f_promoted', f.promoted);
  if (domain === 'buyOrders' && f.active !== undefined) add('active = :f_active', 'f_active', f.active);
  if (note !== undefined) add('instr(fold(user_note), :f_note) > 0', 'f_note', note);
  const text = itemTextSql(f.text ?? '', { sku: 'sku', texts: ['fold(sku)', 'fold(user_note)', 'key', "fold(coalesce(listing_id, ''))"] }, 'f_text');
  addPart(text);
  addPart(skuFacetSql(f, 'sku', 'f_item'));
  if (f.changedOnly) parts.push(changedSql(domain));
  return { where: parts.length === 0 ? '1' : parts.join(' AND '), params, names: text !== null || hasFacets(f) };
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
