import type { ItemView } from '../../../src-shared/ledger.ts';
import type { InventoryFilter, InventoryItemView, InventorySelection, InventorySort } from '../../../src-shared/inventory.ts';
import type { ItemNames } from '../items/item-names.ts';
import { itemViewOf } from '../items/item-view.ts';
import type { InventoryItemRow, InventoryReads } from '../store/inventory-reads.ts';
import type { NameIndex } from '../store/name-index.ts';
import { namedFacets, type PartKind } from '../items/part-names.ts';
import type { ItemFacetCounts } from '../../../src-shared/item-facets.ts';

/**
 * The kept inventories as the picker asks for them (store/inventory-reads.ts
 * reads them a page at a time): each item named from its SKU, with its
 * listing in the ledger and its create in the current draft marked, and the
 * qualities, effects and killstreak tiers the filters offer.
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
  /** What the kept items hold: qualities, effects, killstreak tiers and wears, with counts. */
  facets(): ItemFacetCounts;
}

export interface InventoryQueryDeps {
  reads: InventoryReads;
  names: Pick<ItemNames, 'describe' | 'partName'>;
  /** The current draft, whose listing creates are marked (null: none). */
  currentDraft: () => string | null;
  /** The main account (listed first when every account is shown). */
  main: () => string | null;
  /** Moves on when the kept items change: what is counted from them is counted again only then. */
  itemsVersion: () => number;
  /** The names tables the search reads (store/name-index.ts), put in step with the kept items before a search. */
  nameIndex?: NameIndex;
}

export function createInventoryQueries(deps: InventoryQueryDeps): InventoryQueries {
  const { reads } = deps;
  let facets: { version: number; value: ReturnType<InventoryQueries['facets']> } | null = null;
  let namedAt = -1;
  /** The scope of a question; a search first names the kept items' SKUs it has not named yet (once per read). */
  const scope = (filter?: InventoryFilter) => {
    if (deps.nameIndex && filter?.text !== undefined && namedAt !== deps.itemsVersion()) {
      deps.nameIndex.sync();
      namedAt = deps.itemsVersion();
    }
    return { draft: deps.currentDraft(), main: deps.main() };
  };

  function view(row: InventoryItemRow): InventoryItemView {
    const named = row.sku === '' ? null : itemViewOf(deps.names, row.sku);
    return {
      key: row.asset_id,
      account: row.account,
      sku: row.sku,
      item: named?.known === true ? named : unknownItem(row.name),
      tradable: row.tradable,
      listing: row.listing_state === null ? null : { state: row.listing_state, price: Number(row.listing_price) },
      drafted: row.drafted_price === null ? null : { price: Number(row.drafted_price) },
    };
  }

  return {
    page: (filter, sort, offset, limit) => {
      const at = scope(filter);
      return { total: reads.count(filter, at), all: reads.count(filter, at, true), rows: reads.items(filter, sort, offset, limit, at).map(view) };
    },
    keys: (filter, sort, offset, limit) => reads.items(filter, sort, offset, limit, scope(filter)).map((r) => r.asset_id),
    picked(selection) {
      let rows: InventoryItemRow[];
      if ('ids' in selection) {
        rows = reads.byAssetIds([...new Set(selection.ids)], scope(), true);
      } else {
        const except = new Set(selection.except ?? []);
        rows = reads.items(selection.filter, null, 0, -1, scope(selection.filter)).filter((r) => !except.has(r.asset_id));
      }
      return rows.map((r) => ({
        assetId: r.asset_id, account: r.account, sku: r.sku, name: r.name, tradable: r.tradable, listingState: r.listing_state,
      }));
    },
    find(assetIds) {
      return new Map(reads.byAssetIds(assetIds, scope(), false).map((r) => [r.asset_id, view(r)]));
    },
    facets() {
      if (facets?.version === deps.itemsVersion()) return facets.value;
      const version = deps.itemsVersion();
      const name = (kind: PartKind, id: number) => deps.names.partName(kind, id);
      const value = {
        qualities: namedFacets(reads.facet('quality'), 'quality', name),
        effects: namedFacets(reads.facet('effect'), 'effect', name),
        killstreaks: namedFacets(reads.killstreaks(), 'killstreak', name),
        wears: namedFacets(reads.facet('wear'), 'wear', name),
      };
      facets = { version, value };
      return value;
    },
  };
}

function unknownItem(name: string): ItemView {
  return { name, known: false, quality: null, color: null, effect: null, killstreak: null, wear: null, australium: false, festivized: false, craftable: true };
}
