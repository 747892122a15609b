import { z } from 'zod';
import { changeStatus } from '../../../src-shared/drafts.ts';
import type { LedgerDomain } from '../../../src-shared/ledger.ts';
import { patchedColumn, patchJoin, type BulkPatch } from './bulk-patch.ts';
import { listingState } from './listings-repo.ts';
import type { Params } from './typed-rows.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

export type { Params };

/**
 * The draft laid over the ledger, as SQL: the rows a table shows are two
 * arms, the ledger's rows with the draft's change and delete of each joined
 * by key (arm 1), and the rows the draft creates that the ledger does not
 * hold (arm 0). Both project the same columns, so one filter, one order and
 * one "changed" test serve both (ledger-order.ts), and each arm stays a plain
 * join SQLite can walk in index order: a first page reads a hundred rows, not
 * the ledger. Listings and buy orders are the same two arms over their own
 * table (DOMAINS says what differs).
 *
 * A row's own values (`price`, `user_note`, …) are the ledger's, or the
 * create's for a row the draft creates; filters and sorts read those, so a
 * row does not jump while the trader reprices it (`newPrice` sorts by the
 * price after the draft, on purpose). `e_*` are the row's open-or-not change
 * (slot L or B), `x_*` its delete (LD or BD).
 */

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

type EntryColumn = Parameters<typeof patchedColumn>[1];

/** The change's columns (`e_*`), and the join that finds its patch. */
function changeOf(patch: ArmPatch, key: string): { columns: string; join: string } {
  if (patch === null) return { columns: ENTRY('e', 'e_'), join: '' };
  const c = (column: EntryColumn, as: string) => `${patchedColumn(patch, column)} AS e_${as}`;
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

/** The columns of a row after the order's (arm, t1, t2, key, held), before the name and the change's. */
const ROW_COLUMNS = ['sku', 'account', 'price', 'promoted', 'active', 'quantity', 'filled', 'user_note', 'listing_id', 'id_unknown', 'state',
  'state_reason', 'trade_id', 'may_be_cut', 'at_least', 'updated_at'] as const;
type RowColumns = Readonly<Record<(typeof ROW_COLUMNS)[number], string>>;

/** What differs between the listings' arms and the buy orders': the table, its key, the draft's slots and each column's value. */
interface ArmsDomain {
  readonly table: 'listings' | 'buy_orders';
  /** The table's alias in the ledger's arm, and its key column. */
  readonly alias: string;
  readonly key: string;
  readonly slot: 'L' | 'B';
  readonly deleteSlot: 'LD' | 'BD';
  readonly create: 'listing.create' | 'buyOrder.create';
  /** The created arm's own order after its key: listings by the asset ID's length (numbers as text), buy orders by SKU alone. */
  readonly createdT1: string;
  /** The SKU a created row is named by. */
  readonly createdSku: string;
  /** A ledger row's columns (`t`: the table's alias). */
  held(t: string): RowColumns;
  /** A created row's columns (`own`: a column of its change, the patch laid over it). */
  created(own: (column: EntryColumn) => string): RowColumns;
}

const DOMAINS: Readonly<Record<LedgerDomain, ArmsDomain>> = {
  listings: {
    table: 'listings', alias: 'l', key: 'asset_id', slot: 'L', deleteSlot: 'LD', create: 'listing.create', createdT1: 'length(e.key)', createdSku: 'e.sku',
    held: (t) => ({
      sku: `${t}.sku`, account: `${t}.account`, price: `${t}.price`, promoted: `${t}.promoted`, active: '1', quantity: '1', filled: '0',
      user_note: `${t}.user_note`, listing_id: `${t}.listing_id`, id_unknown: `${t}.id_unknown`, state: `${t}.state`,
      state_reason: `${t}.state_reason`, trade_id: `${t}.trade_id`, may_be_cut: '0', at_least: 'NULL', updated_at: `${t}.updated_at`,
    }),
    created: (own) => ({
      sku: "coalesce(e.sku, '')", account: 'e.account', price: own('price'), promoted: own('promoted'), active: '1', quantity: '1', filled: '0',
      user_note: `coalesce(${own('user_note')}, '')`, listing_id: 'NULL', id_unknown: '0', state: "'new'",
      state_reason: 'NULL', trade_id: 'NULL', may_be_cut: '0', at_least: 'NULL', updated_at: own('updated_at'),
    }),
  },
  buyOrders: {
    table: 'buy_orders', alias: 'b', key: 'sku', slot: 'B', deleteSlot: 'BD', create: 'buyOrder.create', createdT1: '0', createdSku: 'e.key',
    held: (t) => ({
      sku: `${t}.sku`, account: `${t}.account`, price: `${t}.price`, promoted: '0', active: `${t}.active`, quantity: `${t}.quantity`,
      filled: `${t}.fills_seen`, user_note: `${t}.user_note`, listing_id: 'NULL', id_unknown: '0', state: 'NULL',
      state_reason: 'NULL', trade_id: 'NULL', may_be_cut: `${t}.quantity_may_be_cut`, at_least: `${t}.quantity_at_least`, updated_at: `${t}.updated_at`,
    }),
    created: (own) => ({
      sku: 'e.key', account: 'e.account', price: own('price'), promoted: '0', active: '1', quantity: own('quantity'), filled: '0',
      user_note: `coalesce(${own('user_note')}, '')`, listing_id: 'NULL', id_unknown: '0', state: 'NULL',
      state_reason: 'NULL', trade_id: 'NULL', may_be_cut: '0', at_least: 'NULL', updated_at: own('updated_at'),
    }),
  },
};

const project = (columns: RowColumns) => ROW_COLUMNS.map((c) => `${columns[c]} AS ${c}`).join(', ');

/** The two arms of a table, each `SELECT … FROM (arm) WHERE …` ready for an ORDER BY; with a bulk edit being written laid over them. */
export function armsOf(domain: LedgerDomain, withNames: boolean, patch: ArmPatch = null): { ledger: string; created: string } {
  const d = DOMAINS[domain];
  const t = d.alias;
  const names = (sku: string) => (withNames ? `LEFT JOIN item_names n ON n.sku = ${sku}` : '');
  const name = withNames ? 'n.search' : 'NULL';
  const held = changeOf(patch, `${t}.${d.key}`);
  const created = changeOf(patch, 'e.key');
  const own = (column: EntryColumn) => (patch === null ? `e.${column}` : patchedColumn(patch, column));
  const deletes = (key: string) => `LEFT JOIN draft_entries x ON x.draft_id = :draft AND x.slot = '${d.deleteSlot}' AND x.key = ${key}`;
  return {
    ledger: `SELECT 1 AS arm, ${t}.rowid AS t1, '' AS t2, ${t}.${d.key} AS key, 1 AS held,
        ${project(d.held(t))}, ${name} AS name, ${held.columns}, ${ENTRY('x', 'x_')}
      FROM ${d.table} ${t}
      LEFT JOIN draft_entries e ON e.draft_id = :draft AND e.slot = '${d.slot}' AND e.key = ${t}.${d.key}
      ${held.join}
      ${deletes(`${t}.${d.key}`)}
      ${names(`${t}.sku`)}`,
    created: `SELECT 0 AS arm, ${d.createdT1} AS t1, e.key AS t2, e.key AS key, 0 AS held,
        ${project(d.created(own))}, ${name} AS name, ${created.columns}, ${ENTRY('x', 'x_')}
      FROM draft_entries e
      ${created.join}
      ${deletes('e.key')}
      ${names(d.createdSku)}
      WHERE e.draft_id = :draft AND e.slot = '${d.slot}' AND e.kind = '${d.create}' AND e.status NOT IN ${SETTLED}
        AND NOT EXISTS (SELECT 1 FROM ${d.table} h WHERE h.${d.key} = e.key)`,
  };
}

const flag = lazySchema(() => z.union([z.literal(0), z.literal(1)]));

/** A row of either arm as SQLite hands it back. */
export const armRow = z.object({
  arm: flag,
  t1: z.number(),
  t2: z.string(),
  key: z.string(),
  held: flag,
  sku: z.string(),
  account: z.string(),
  price: z.number(),
  promoted: flag,
  active: flag,
  quantity: z.number(),
  filled: z.number(),
  user_note: z.string(),
  listing_id: z.string().nullable(),
  id_unknown: flag,
  /** A listing's state, 'new' for one the draft creates; null for a buy order. */
  state: z.union([listingState, z.literal('new')]).nullable(),
  state_reason: z.string().nullable(),
  trade_id: z.string().nullable(),
  may_be_cut: flag,
  at_least: z.number().nullable(),
  updated_at: z.number(),
  name: z.string().nullable(),
  e_kind: z.string().nullable(),
  e_status: changeStatus.nullable(),
  e_error: z.string().nullable(),
  e_price: z.number().nullable(),
  e_promoted: flag.nullable(),
  e_quantity: z.number().nullable(),
  e_active: flag.nullable(),
  e_note: z.string().nullable(),
  e_updated_at: z.number().nullable(),
  x_kind: z.string().nullable(),
  x_status: changeStatus.nullable(),
  x_error: z.string().nullable(),
  x_price: z.number().nullable(),
  x_promoted: flag.nullable(),
  x_quantity: z.number().nullable(),
  x_active: flag.nullable(),
  x_note: z.string().nullable(),
  x_updated_at: z.number().nullable(),
});
export type ArmRow = Readonly<z.output<typeof armRow>>;

/** The parameters every arm takes. */
export const scopeParams = (scope: DraftScope): Params => ({
  draft: scope.draftId,
  deleteAll: scope.deleteAll === null ? null : scope.deleteAll ? 1 : 0,
});
