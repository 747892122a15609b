import type { ItemView } from '../../../src-shared/ledger.ts';
import type { InventoryFilter, InventoryItemView, InventorySelection, InventorySort } from '../../../src-shared/inventory.ts';
import type { ItemNames } from '../items/item-names.ts';
import { itemViewOf } from '../items/item-view.ts';
import type { FacetRow, InventoryItemRow, InventoryReads } from '../store/inventory-reads.ts';

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
  /** What the kept items hold: qualities, effects and killstreak tiers, with counts. */
  facets(): { qualities: Facet[]; effects: Facet[]; killstreaks: Facet[] };
}

export interface Facet {
  readonly id: number;
  readonly name: string;
  readonly count: number;
}

export interface InventoryQueryDeps {
  reads: InventoryReads;
  names: Pick<ItemNames, 'describe'>;
  /** The current draft, whose listing creates are marked (null: none). */
  currentDraft: () => string | null;
  /** The main account (listed first when every account is shown). */
  main: () => string | null;
  /** Moves on when the kept items change: what is counted from them is counted again only then. */
  itemsVersion: () => number;
}

const KILLSTREAK_NAMES = ['None', 'Killstreak', 'Specialized Killstreak', 'Professional Killstreak'];

export function createInventoryQueries(deps: InventoryQueryDeps): InventoryQueries {
  const { reads } = deps;
  let facets: { version: number; value: ReturnType<InventoryQueries['facets']> } | null = null;
  const scope = () => ({ draft: deps.currentDraft(), main: deps.main() });

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

  const facetsOf = (rows: readonly FacetRow[], name: (id: number) => string): Facet[] => rows.map((r) => ({ id: r.id, name: name(r.id), count: r.n }));

  return {
    page: (filter, sort, offset, limit) => {
      const at = scope();
      return { total: reads.count(filter, at), all: reads.count(filter, at, true), rows: reads.items(filter, sort, offset, limit, at).map(view) };
    },
    keys: (filter, sort, offset, limit) => reads.items(filter, sort, offset, limit, scope()).map((r) => r.asset_id),
    picked(selection) {
      let rows: InventoryItemRow[];
      if ('ids' in selection) {
        rows = reads.byAssetIds([...new Set(selection.ids)], scope(), true);
      } else {
        const except = new Set(selection.except ?? []);
        rows = reads.items(selection.filter, null, 0, -1, scope()).filter((r) => !except.has(r.asset_id));
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
      const qualities = facetsOf(reads.facet('quality'), (id) => qualityName(deps.names, id));
      const effects = facetsOf(reads.facet('effect'), (id) => effectName(deps.names, id));
      const killstreaks = facetsOf(reads.killstreaks(), (id) => KILLSTREAK_NAMES[id] ?? String(id));
      const value = { qualities, effects, killstreaks };
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
