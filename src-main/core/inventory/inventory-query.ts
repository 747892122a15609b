import type { SQLInputValue } from 'node:sqlite';
import type { ItemView } from '../../../src-shared/ledger.ts';
import type { InventoryFilter, InventoryItemView, InventorySelection, InventorySort, KillstreakFilter } from '../../../src-shared/inventory.ts';
import type { ItemNames } from '../items/item-names.ts';
import { itemViewOf } from '../items/item-view.ts';
import type { Store } from '../store/db.ts';

/**
 * The kept inventories as the picker asks for them: SQL over the current
 * copy of each account, filtered, sorted and paged where the data is, with
 * each item's listing in the ledger (joined by asset ID) and its create in the
 * current draft (joined from the draft's rows by the same key) marked. Memory
 * grows with the page, not with the inventory or the draft.
 */

/** An item of a selection, as drafting needs it. */
export interface PickedItem {
  readonly assetId: string;
  readonly account: string;
  readonly sku: string;
  readonly name: string;
  readonly tradable: boolean;
  /** The state of its listing in the ledger, if it has one. */
  readonly listingState: string | null;
}

export interface InventoryQueries {
  page(filter: InventoryFilter, sort: InventorySort | null, offset: number, limit: number): { total: number; all: number; rows: InventoryItemView[] };
  /** Asset IDs of rows [offset, offset + limit) in table order: a shift-click range. */
  keys(filter: InventoryFilter, sort: InventorySort | null, offset: number, limit: number): string[];
  /** The selected items, in table order (Steam's). */
  picked(selection: InventorySelection): PickedItem[];
  /** These assets where they are kept (any account), with their listing. */
  find(assetIds: readonly string[]): Map<string, InventoryItemView>;
  /** What the kept items hold: qualities, effects and killstreak tiers, with counts. */
  facets(): { qualities: Facet[]; effects: Facet[]; killstreaks: Facet[] };
}

export interface Facet {
  readonly id: number;
  readonly name: string;
  readonly count: number;
}

export interface InventoryQueryDeps {
  store: Store;
  names: Pick<ItemNames, 'describe'>;
  /** The current draft, whose listing creates are marked (null: none). */
  currentDraft: () => string | null;
  /** The main account (listed first when every account is shown). */
  main: () => string | null;
  /** Moves on when the kept items change: what is counted from them is counted again only then. */
  itemsVersion: () => number;
}

const FROM = `FROM inventory_items i
  JOIN inventory_reads r ON r.account = i.account AND r.generation = i.generation
  LEFT JOIN listings l ON l.asset_id = i.asset_id`;

/** FROM with the current draft's create of each item (its one parameter is the draft ID); one lookup by primary key a row. */
const FROM_DRAFTED = `${FROM}
  LEFT JOIN draft_entries d ON d.draft_id = ? AND d.slot = 'L' AND d.key = i.asset_id
    AND d.kind = 'listing.create' AND d.status NOT IN ('done', 'dropped')`;

const COLUMNS = 'i.account, i.asset_id, i.sku, i.name, i.tradable, l.state AS listing_state, l.price AS listing_price, d.price AS drafted_price';

interface Row {
  account: string;
  asset_id: string;
  sku: string;
  name: string;
  tradable: number;
  listing_state: string | null;
  listing_price: number | null;
  drafted_price: number | null;
}

const KILLSTREAK_SQL: Readonly<Record<KillstreakFilter, string>> = {
  none: 'i.killstreak = 0', any: 'i.killstreak > 0', basic: 'i.killstreak = 1', specialized: 'i.killstreak = 2', professional: 'i.killstreak = 3',
};

const KILLSTREAK_NAMES = ['None', 'Killstreak', 'Specialized Killstreak', 'Professional Killstreak'];

export function createInventoryQueries(deps: InventoryQueryDeps): InventoryQueries {
  const { db } = deps.store;
  let facets: { version: number; value: ReturnType<InventoryQueries['facets']> } | null = null;

  function where(filter: InventoryFilter, withAccountOnly = false): { sql: string; params: SQLInputValue[] } {
    const parts: string[] = [];
    const params: SQLInputValue[] = [];
    if (filter.account !== undefined) {
      parts.push('i.account = ?');
      params.push(filter.account);
    }
    if (!withAccountOnly) {
      const text = filter.text?.trim().toLowerCase();
      if (text) {
        parts.push("i.search LIKE ? ESCAPE '\\'");
        params.push(`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      }
      // A Strange Unusual counts as Strange too: it is what a trader filtering for Strange wants to see.
      if (filter.quality !== undefined) {
        parts.push(filter.quality === 11 ? '(i.quality = 11 OR i.strange = 1)' : 'i.quality = ?');
        if (filter.quality !== 11) params.push(filter.quality);
      }
      if (filter.effect !== undefined) {
        parts.push('i.effect = ?');
        params.push(filter.effect);
      }
      if (filter.killstreak !== undefined) parts.push(KILLSTREAK_SQL[filter.killstreak]);
      if (filter.craftable !== undefined) {
        parts.push('i.craftable = ?');
        params.push(filter.craftable ? 1 : 0);
      }
      if (filter.listed !== undefined) {
        const marked = '(l.asset_id IS NOT NULL OR d.key IS NOT NULL)';
        parts.push(filter.listed === 'only' ? marked : `NOT ${marked}`);
      }
    }
    return { sql: parts.length === 0 ? '' : `WHERE ${parts.join(' AND ')}`, params };
  }

  function order(sort: InventorySort | null): { sql: string; params: SQLInputValue[] } {
    const dir = sort?.dir === 'desc' ? 'DESC' : 'ASC';
    switch (sort?.column) {
      case 'name': return { sql: `ORDER BY i.name COLLATE NOCASE ${dir}, length(i.asset_id) ${dir}, i.asset_id ${dir}`, params: [] };
      case 'asset': return { sql: `ORDER BY length(i.asset_id) ${dir}, i.asset_id ${dir}`, params: [] };
      case 'account': return { sql: `ORDER BY i.account ${dir}, i.position`, params: [] };
      default: return { sql: 'ORDER BY i.account <> ?, i.account, i.position', params: [deps.main() ?? ''] };
    }
  }

  function select(filter: InventoryFilter, sort: InventorySort | null, offset: number, limit: number): Row[] {
    const w = where(filter);
    const o = order(sort);
    return db.prepare(`SELECT ${COLUMNS} ${FROM_DRAFTED} ${w.sql} ${o.sql} LIMIT ? OFFSET ?`)
      .all(deps.currentDraft(), ...w.params, ...o.params, limit, offset) as unknown as Row[];
  }

  const count = (filter: InventoryFilter, accountOnly = false): number => {
    const w = where(filter, accountOnly);
    return Number((db.prepare(`SELECT count(*) AS n ${FROM_DRAFTED} ${w.sql}`).get(deps.currentDraft(), ...w.params) as { n: number }).n);
  };

  function view(row: Row): InventoryItemView {
    const named = row.sku === '' ? null : itemViewOf(deps.names, row.sku);
    return {
      key: row.asset_id,
      account: row.account,
      sku: row.sku,
      item: named?.known === true ? named : unknownItem(row.name),
      tradable: row.tradable === 1,
      listing: row.listing_state === null ? null : { state: row.listing_state, price: Number(row.listing_price) },
      drafted: row.drafted_price === null ? null : { price: Number(row.drafted_price) },
    };
  }

  function facet(column: 'quality' | 'effect', name: (id: number) => string): Facet[] {
    const rows = db.prepare(`SELECT i.${column} AS id, count(*) AS n ${FROM} WHERE i.${column} IS NOT NULL GROUP BY i.${column} ORDER BY n DESC`).all() as Array<{ id: number; n: number }>;
    return rows.map((r) => ({ id: Number(r.id), name: name(Number(r.id)), count: Number(r.n) }));
  }

  return {
    page: (filter, sort, offset, limit) => ({ total: count(filter), all: count(filter, true), rows: select(filter, sort, offset, limit).map(view) }),
    keys: (filter, sort, offset, limit) => select(filter, sort, offset, limit).map((r) => r.asset_id),
    picked(selection) {
      let rows: Row[];
      if ('ids' in selection) {
        const wanted = new Set(selection.ids);
        rows = (db.prepare(`SELECT ${COLUMNS} ${FROM_DRAFTED} WHERE i.asset_id IN (SELECT value FROM json_each(?)) ORDER BY i.account, i.position`)
          .all(deps.currentDraft(), JSON.stringify([...wanted])) as unknown as Row[]);
      } else {
        const except = new Set(selection.except ?? []);
        rows = select(selection.filter, null, 0, -1).filter((r) => !except.has(r.asset_id));
      }
      return rows.map((r) => ({
        assetId: r.asset_id, account: r.account, sku: r.sku, name: r.name, tradable: r.tradable === 1, listingState: r.listing_state,
      }));
    },
    find(assetIds) {
      const rows = db.prepare(`SELECT ${COLUMNS} ${FROM_DRAFTED} WHERE i.asset_id IN (SELECT value FROM json_each(?))`)
        .all(deps.currentDraft(), JSON.stringify(assetIds)) as unknown as Row[];
      return new Map(rows.map((r) => [r.asset_id, view(r)]));
    },
    facets() {
      if (facets?.version === deps.itemsVersion()) return facets.value;
      const version = deps.itemsVersion();
      const qualities = facet('quality', (id) => qualityName(deps.names, id));
      const effects = facet('effect', (id) => effectName(deps.names, id));
      const ks = db.prepare(`SELECT i.killstreak AS id, count(*) AS n ${FROM} GROUP BY i.killstreak ORDER BY i.killstreak`).all() as Array<{ id: number; n: number }>;
      const value = { qualities, effects, killstreaks: ks.map((r) => ({ id: Number(r.id), name: KILLSTREAK_NAMES[Number(r.id)] ?? String(r.id), count: Number(r.n) })) };
      facets = { version, value };
      return value;
    },
  };
}

function unknownItem(name: string): ItemView {
  return { name, known: false, quality: null, color: null, effect: null, killstreak: null, wear: null, australium: false, festivized: false, craftable: true };
}

/** The schema's name of a quality, read through a SKU of a key of that quality. */
function qualityName(names: Pick<ItemNames, 'describe'>, id: number): string {
  const d = names.describe(`5021;${id}`);
  return d.known ? d.quality.name : `Quality ${id}`;
}

/** The schema's name of an effect, read through a SKU of an Unusual Team Captain with it. */
function effectName(names: Pick<ItemNames, 'describe'>, id: number): string {
  const d = names.describe(`378;5;u${id}`);
  return d.known && d.effect !== null ? d.effect.name : `Effect ${id}`;
}
