import type { BuyOrderRow, ChangeView, ListingRow } from '../../../src-preload/contract.ts';

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

type Fields = Readonly<Record<string, unknown>>;
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

/**
 * Draft-created listings first (what the trader is working on), in asset ID
 * order so they stay put while edits land on them, then the ledger.
 */
export function overlayListings(rows: readonly ListingRow[], overlay: DraftOverlay, mainAccount: string): ListingDisplay[] {
  const out: ListingDisplay[] = [];
  const listed = overlay.listingCreates.length === 0 ? EMPTY : keysOf(rows, (row) => row.asset_id);
  for (const change of byTarget(overlay.listingCreates, (t) => t.padStart(20, '0'))) {
    // Listing an asset again after deleting it: shown on the ledger's row below.
    if (listed.has(change.target)) continue;
    const f = change.fields;
    out.push({
      key: change.target,
      row: {
        listing_id: null,
        asset_id: change.target,
        sku: str(f.sku) ?? '',
        price: int(f.price) ?? 0,
        promoted: flag(f.promoted) ?? 0,
        game: str(f.game) ?? '',
        user_note: str(f.user_note) ?? '',
        account: str(f.account) ?? mainAccount,
        state: 'new',
        updatedAt: change.updatedAt,
      },
      change: 'create',
      pending: null,
      changeId: change.id,
      problem: change.error,
    });
  }
  // Read once: this loop runs over every row of the ledger on each overlay change.
  const { listingDeletes, listingEdits, listingPatch, listingCreates } = overlay;
  const anyDeletes = listingDeletes.size > 0;
  const anyPatch = listingPatch.size > 0;
  for (const row of rows) {
    const key = row.asset_id;
    const deleted = anyDeletes ? listingDeletes.get(key) : undefined;
    const stored = listingEdits.get(key);
    const patched = anyPatch ? listingPatch.get(key) : undefined;
    const relisted = deleted ? listingCreates.find((c) => c.target === key) : undefined;
    const edited = stored !== undefined || patched !== undefined;
    const change = relisted ?? deleted ?? stored;
    out.push({
      key,
      row,
      change: relisted ? 'create' : deleted ? 'delete' : edited ? 'edit' : null,
      pending: relisted ? listingPending(relisted.fields, undefined, row) : edited && !deleted ? listingPending(stored?.fields, patched, row) : null,
      changeId: change?.id ?? (patched !== undefined ? '' : null),
      problem: change?.error ?? null,
    });
  }
  return out;
}

export function overlayBuyOrders(rows: readonly BuyOrderRow[], overlay: DraftOverlay, mainAccount: string): BuyOrderDisplay[] {
  const out: BuyOrderDisplay[] = [];
  const known = overlay.buyOrderCreates.length === 0 ? EMPTY : keysOf(rows, (row) => row.sku);
  for (const change of byTarget(overlay.buyOrderCreates, (t) => t)) {
    if (known.has(change.target)) continue;
    const f = change.fields;
    out.push({
      key: change.target,
      row: {
        sku: change.target,
        account: str(f.account) ?? mainAccount,
        price: int(f.price) ?? 0,
        quantity: int(f.quantity) ?? 0,
        active: 1,
        user_note: str(f.user_note) ?? '',
        filled: 0,
        quantityMayBeCut: false,
        updatedAt: change.updatedAt,
      },
      change: 'create',
      pending: null,
      changeId: change.id,
      problem: change.error,
    });
  }
  const { buyOrderDeletes, buyOrderEdits, buyOrderCreates, buyOrderPatch } = overlay;
  const anyDeletes = buyOrderDeletes.size > 0;
  const anyCreates = buyOrderCreates.length > 0;
  const anyPatch = buyOrderPatch.size > 0;
  for (const row of rows) {
    const key = row.sku;
    const deleted = anyDeletes ? buyOrderDeletes.get(key) : undefined;
    const base = buyOrderEdits.get(key) ?? (anyCreates ? buyOrderCreates.find((c) => c.target === key) : undefined);
    const patched = anyPatch ? buyOrderPatch.get(key) : undefined;
    const edited = base !== undefined || patched !== undefined;
    const change = deleted ?? base;
    out.push({
      key,
      row,
      change: deleted ? 'delete' : edited ? 'edit' : null,
      pending: edited && !deleted ? buyOrderPending(base?.fields, patched, row) : null,
      changeId: change?.id ?? (patched !== undefined ? '' : null),
      problem: change?.error ?? null,
    });
  }
  return out;
}

/**
 * The fields of a change that differ from the ledger's row: what the table
 * marks as pending. Change fields cross the bridge as `unknown`, so each is
 * read by its expected type and ignored when it is not one; `p`, a local
 * patch's fields, wins over the stored change's `f`. Written out per
 * table (no loop over field names): it runs for every changed row of a
 * 50,000-row ledger each time the overlay changes.
 */
function listingPending(f: Fields | undefined, p: Fields | undefined, row: ListingRow): ListingPending {
  const out: ListingPending = {};
  const price = int(p?.price ?? f?.price);
  if (price !== undefined && price !== row.price) out.price = price;
  const promoted = flag(p?.promoted ?? f?.promoted);
  if (promoted !== undefined && promoted !== row.promoted) out.promoted = promoted;
  const note = str(p?.user_note ?? f?.user_note);
  if (note !== undefined && note !== row.user_note) out.user_note = note;
  return out;
}

function buyOrderPending(f: Fields | undefined, p: Fields | undefined, row: BuyOrderRow): BuyOrderPending {
  const out: BuyOrderPending = {};
  const price = int(p?.price ?? f?.price);
  if (price !== undefined && price !== row.price) out.price = price;
  const quantity = int(p?.quantity ?? f?.quantity);
  if (quantity !== undefined && quantity !== row.quantity) out.quantity = quantity;
  const active = flag(p?.active ?? f?.active);
  if (active !== undefined && active !== row.active) out.active = active;
  const note = str(p?.user_note ?? f?.user_note);
  if (note !== undefined && note !== row.user_note) out.user_note = note;
  return out;
}

const EMPTY: ReadonlySet<string> = new Set();
const keySets = new WeakMap<object, ReadonlySet<string>>();

/** The ledger's keys, built once per ledger array (overlay changes reuse it). */
function keysOf<R>(rows: readonly R[], key: (row: R) => string): ReadonlySet<string> {
  let keys = keySets.get(rows);
  if (keys === undefined) keySets.set(rows, (keys = new Set(rows.map(key))));
  return keys;
}

/** Changes in a stable order of their targets (digits padded so asset IDs sort as numbers). */
function byTarget(changes: readonly ChangeView[], key: (target: string) => string): ChangeView[] {
  return [...changes].sort((a, b) => (key(a.target) < key(b.target) ? -1 : key(a.target) > key(b.target) ? 1 : 0));
}

// Change fields cross the bridge as `unknown`: read each defensively.
function int(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}
function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
function flag(v: unknown): 0 | 1 | undefined {
  return v === 0 || v === 1 ? v : undefined;
}
