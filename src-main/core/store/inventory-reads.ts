import type { DatabaseSync } from 'node:sqlite';
import { z } from 'zod';
import type { InventoryFilter, InventorySort } from '../../../src-shared/inventory.ts';
import { facetRow, type FacetRow } from './item-facet-reads.ts';
import { facetSql, itemTextSql, type FacetColumns, type SqlPart } from './item-match.ts';
import { createReferenceReads } from './reference-reads.ts';
import { parseRows, sqlBool } from './sql.ts';
import { countOf, type Params } from './typed-rows.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * The kept inventories as the picker asks for them: SQL over the current
 * copy of each account (inventory-repo.ts writes them), filtered, sorted and
 * paged where the data is, with each item's listing in the ledger (joined by
 * asset ID) and its create in the current draft (joined from the draft's rows
 * by the same key). Memory grows with the page, not with the inventory or the
 * draft.
 */

const FROM = `FROM inventory_items i
  JOIN inventory_reads r ON r.account = i.account AND r.generation = i.generation
  LEFT JOIN listings l ON l.asset_id = i.asset_id`;

/** FROM with the current draft's create of each item (the parameter `draft` is the draft ID); one lookup by primary key a row. */
const FROM_DRAFTED = `${FROM}
  LEFT JOIN draft_entries d ON d.draft_id = :draft AND d.slot = 'L' AND d.key = i.asset_id
    AND d.kind = 'listing.create' AND d.status NOT IN ('done', 'dropped')`;

const COLUMNS = 'i.account, i.asset_id, i.sku, i.name, i.tradable, l.state AS listing_state, l.price AS listing_price, d.price AS drafted_price';

/** A kept item with its listing in the ledger and its create in the current draft, if any. */
export const inventoryItemRow = lazySchema(() => z.object({
  account: z.string(),
  asset_id: z.string(),
  sku: z.string(),
  name: z.string(),
  tradable: sqlBool,
  listing_state: z.string().nullable(),
  listing_price: z.number().nullable(),
  drafted_price: z.number().nullable(),
}));
export type InventoryItemRow = z.output<typeof inventoryItemRow>;


/** The kept items' part columns, for the item filters (item-match.ts). */
const ITEM_COLUMNS: FacetColumns = { quality: 'i.quality', strange: 'i.strange', effect: 'i.effect', killstreak: 'i.killstreak', craftable: 'i.craftable', wear: 'i.wear' };

export interface InventoryReads {
  /** Rows [offset, offset + limit) of `filter` in `sort`'s order (none: the main account's first, then Steam's order). */
  items(filter: InventoryFilter, sort: InventorySort | null, offset: number, limit: number, at: PickerScope): InventoryItemRow[];
  /** How many items `filter` matches; `accountOnly`: only its account counts (how many there are to filter). */
  count(filter: InventoryFilter, at: Pick<PickerScope, 'draft'>, accountOnly?: boolean): number;
  /** These assets where they are kept (any account); `inOrder`: in table order (Steam's). */
  byAssetIds(assetIds: readonly string[], at: Pick<PickerScope, 'draft'>, inOrder: boolean): InventoryItemRow[];
  /** Kept items per value of a column (the values that occur), most first. */
  facet(column: 'quality' | 'effect' | 'wear'): FacetRow[];
  /** Kept items per killstreak tier, in tier order. */
  killstreaks(): FacetRow[];
  /** The price of each SKU's standing listing (the lowest), or of its buy order. */
  referencePrices(from: 'listing' | 'buyOrder', skus: readonly string[]): Map<string, number>;
}

/** Whose creates mark the items (the current draft; null: none), and which account is listed first. */
export interface PickerScope {
  readonly draft: string | null;
  readonly main: string | null;
}

export function createInventoryReads(db: DatabaseSync): InventoryReads {
  const references = createReferenceReads(db);
  const ordered = db.prepare('SELECT sku, price FROM buy_orders WHERE sku IN (SELECT value FROM json_each(?))');

  /** The filter's WHERE over the kept items; `accountOnly`: its account alone (how many there are to filter). */
  function where(filter: InventoryFilter, accountOnly = false): { sql: string; params: Params } {
    const parts: string[] = [];
    const params: Params = {};
    const add = (part: SqlPart | null) => {
      if (part === null) return;
      parts.push(part.sql);
      Object.assign(params, part.params);
    };
    if (filter.account !== undefined) add({ sql: 'i.account = :account', params: { account: filter.account } });
    if (!accountOnly) {
      // Steam's own name, SKU and asset ID (i.search) find an item the schema cannot name, as typed.
      add(itemTextSql(filter.text ?? '', { sku: 'i.sku', texts: ['i.search'] }, 'text'));
      add(facetSql(filter, ITEM_COLUMNS, 'item'));
      if (filter.listed !== undefined) {
        const marked = '(l.asset_id IS NOT NULL OR d.key IS NOT NULL)';
        parts.push(filter.listed === 'only' ? marked : `NOT ${marked}`);
      }
    }
    return { sql: parts.length === 0 ? '' : `WHERE ${parts.join(' AND ')}`, params };
  }

  function order(sort: InventorySort | null, main: string | null): { sql: string; params: Params } {
    const dir = sort?.dir === 'desc' ? 'DESC' : 'ASC';
    switch (sort?.column) {
      case 'name': return { sql: `ORDER BY i.name COLLATE NOCASE ${dir}, length(i.asset_id) ${dir}, i.asset_id ${dir}`, params: {} };
      case 'asset': return { sql: `ORDER BY length(i.asset_id) ${dir}, i.asset_id ${dir}`, params: {} };
      case 'account': return { sql: `ORDER BY i.account ${dir}, i.position`, params: {} };
      default: return { sql: 'ORDER BY i.account <> :main, i.account, i.position', params: { main: main ?? '' } };
    }
  }

  return {
    items(filter, sort, offset, limit, at) {
      const w = where(filter);
      const o = order(sort, at.main);
      return parseRows('inventory_items', inventoryItemRow, db.prepare(`SELECT ${COLUMNS} ${FROM_DRAFTED} ${w.sql} ${o.sql} LIMIT :limit OFFSET :offset`)
        .all({ draft: at.draft, ...w.params, ...o.params, limit, offset }));
    },
    count(filter, at, accountOnly = false) {
      const w = where(filter, accountOnly);
      return countOf('inventory_items', db.prepare(`SELECT count(*) AS n ${FROM_DRAFTED} ${w.sql}`).get({ draft: at.draft, ...w.params }));
    },
    byAssetIds(assetIds, at, inOrder) {
      const sql = `SELECT ${COLUMNS} ${FROM_DRAFTED} WHERE i.asset_id IN (SELECT value FROM json_each(:ids))${inOrder ? ' ORDER BY i.account, i.position' : ''}`;
      return parseRows('inventory_items', inventoryItemRow, db.prepare(sql).all({ draft: at.draft, ids: JSON.stringify(assetIds) }));
    },
    facet(column) {
      return parseRows('inventory_items', facetRow, db.prepare(
        `SELECT i.${column} AS id, count(*) AS n ${FROM} WHERE i.${column} IS NOT NULL GROUP BY i.${column} ORDER BY n DESC`,
      ).all());
    },
    killstreaks() {
      return parseRows('inventory_items', facetRow, db.prepare(`SELECT i.killstreak AS id, count(*) AS n ${FROM} GROUP BY i.killstreak ORDER BY i.killstreak`).all());
    },
    referencePrices(from, skus) {
      if (from === 'listing') return references.lowestListings(skus);
      const rows = parseRows('buy_orders', z.object({ sku: z.string(), price: z.number() }), ordered.all(JSON.stringify(skus)));
      return new Map(rows.map((r) => [r.sku, r.price]));
    },
  };
}
