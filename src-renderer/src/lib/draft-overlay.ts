import type { BuyOrderRow, ChangeView, ListingRow } from '../../../src-shared/contract.ts';

/**
 * Lays the current draft over the ledger so each row shows what it will
 * become (before → after) without the service having been touched. Changes
 * are keyed by asset ID (listings) or SKU (buy orders). Changes already
 * applied (`done`) are in the ledger itself and are left out. A stored edit
 * carries every field; only the ones that differ from the ledger are shown
 * as pending.
 */

export type RowChange = 'create' | 'edit' | 'delete';

export interface ListingPending {
  price?: number;
  promoted?: 0 | 1;
  user_note?: string;
}

export interface BuyOrderPending {
  price?: number;
  quantity?: number;
  active?: 0 | 1;
  user_note?: string;
}

/** One row as the table shows it: the ledger's values plus the draft's. */
export interface DisplayRow<Row, Pending> {
  /** Stable row key, and the ID bulk operations name: the asset ID of a listing, the SKU of a buy order. */
  readonly key: string;
  readonly row: Row;
  readonly change: RowChange | null;
  /** The draft's new values for an edit; null when the row is untouched. */
  readonly pending: Pending | null;
  readonly changeId: string | null;
  /** Why the last apply of this row's change failed, or its outcome is unknown. */
  readonly problem: string | null;
}

export type ListingDisplay = DisplayRow<ListingRow, ListingPending>;
export type BuyOrderDisplay = DisplayRow<BuyOrderRow, BuyOrderPending>;

export interface DraftOverlay {
  readonly listingEdits: ReadonlyMap<string, ChangeView>;
  readonly listingDeletes: ReadonlyMap<string, ChangeView>;
  readonly listingCreates: readonly ChangeView[];
  readonly listingDeleteAll: ChangeView | null;
  readonly buyOrderEdits: ReadonlyMap<string, ChangeView>;
  readonly buyOrderDeletes: ReadonlyMap<string, ChangeView>;
  readonly buyOrderCreates: readonly ChangeView[];
  readonly buyOrderDeleteAll: ChangeView | null;
  /**
   * Fields of local bulk patches (see patchOverlay) per listing or buy order
   * that has no create in the draft, laid over its stored edit, or standing
   * as a new edit, as the rows are built.
   */
  readonly listingPatch: ReadonlyMap<string, Fields>;
  readonly buyOrderPatch: ReadonlyMap<string, Fields>;
}

/** A change's fields as they cross the bridge. */
export type Fields = Readonly<Record<string, unknown>>;
const NO_PATCH: ReadonlyMap<string, Fields> = new Map();

export function buildOverlay(changes: readonly ChangeView[]): DraftOverlay {
  const listingEdits = new Map<string, ChangeView>();
  const listingDeletes = new Map<string, ChangeView>();
  const listingCreates = new Map<string, ChangeView>();
  const buyOrderEdits = new Map<string, ChangeView>();
  const buyOrderDeletes = new Map<string, ChangeView>();
  const buyOrderCreates = new Map<string, ChangeView>();
  let listingDeleteAll: ChangeView | null = null;
  let buyOrderDeleteAll: ChangeView | null = null;
  for (const change of changes) {
    if (change.status === 'done') continue;
    // Later changes to the same target win, as they do when the draft is applied.
    switch (change.kind) {
      case 'listing.create': listingCreates.set(change.target, change); break;
      case 'listing.edit': listingEdits.set(change.target, change); break;
      case 'listing.delete': listingDeletes.set(change.target, change); break;
      case 'listing.deleteAll': listingDeleteAll = change; break;
      case 'buyOrder.create': buyOrderCreates.set(change.target, change); break;
      case 'buyOrder.edit': buyOrderEdits.set(change.target, change); break;
      case 'buyOrder.delete': buyOrderDeletes.set(change.target, change); break;
      case 'buyOrder.deleteAll': buyOrderDeleteAll = change; break;
      default: break;
    }
  }
  return {
    listingEdits, listingDeletes, listingCreates: [...listingCreates.values()], listingDeleteAll,
    buyOrderEdits, buyOrderDeletes, buyOrderCreates: [...buyOrderCreates.values()], buyOrderDeleteAll,
    listingPatch: NO_PATCH, buyOrderPatch: NO_PATCH,
  };
}

/**
 * Values a bulk edit is about to store, per row key (asset ID or SKU), laid
 * over the overlay from the click on so the table need not wait for main to
 * store them and for the draft to be read back.
 */
export interface LocalPatch {
  readonly target: 'listings' | 'buyOrders';
  readonly values: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
}

/**
 * The overlay with local patches applied in order: a patched row's create
 * gets the patch's fields merged over its own; any other row's go into the
 * patch layer, which the row builders merge over its stored edit (or show
 * as a new edit, with no id, `''`, until main stores it). Kept as a layer
 * rather than merged into 50,000 edits here: at the click that merge was
 * the biggest part of the wait.
 */
export function patchOverlay(overlay: DraftOverlay, patches: readonly LocalPatch[]): DraftOverlay {
  let out = overlay;
  for (const patch of patches) {
    const listings = patch.target === 'listings';
    const created = new Set<string>();
    const creates = (listings ? out.listingCreates : out.buyOrderCreates).map((c) => {
      const values = patch.values.get(c.target);
      if (values === undefined) return c;
      created.add(c.target);
      return { ...c, fields: { ...c.fields, ...values } };
    });
    const before = listings ? out.listingPatch : out.buyOrderPatch;
    let layer: ReadonlyMap<string, Fields> = patch.values;
    // One patch over none, on no created row (the usual case): its own map, not a copy.
    if (before.size > 0 || created.size > 0) {
      const merged = new Map(before);
      for (const [key, values] of patch.values) {
        if (created.has(key)) continue;
        const earlier = merged.get(key);
        merged.set(key, earlier ? { ...earlier, ...values } : values);
      }
      layer = merged;
    }
    out = listings
      ? { ...out, listingPatch: layer, listingCreates: creates }
      : { ...out, buyOrderPatch: layer, buyOrderCreates: creates };
  }
  return out;
}
