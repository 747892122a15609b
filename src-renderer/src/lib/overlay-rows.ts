import type { BuyOrderRow, ChangeView, ListingRow } from '../../../src-shared/contract.ts';
import type { BuyOrderDisplay, BuyOrderPending, DraftOverlay, Fields, ListingDisplay, ListingPending } from './draft-overlay.ts';

/**
 * The ledger's rows with the draft laid over them (draft-overlay.ts builds
 * the overlay): what each row will become, and which fields are pending.
 * These run over every row of the ledger whenever the overlay changes, so
 * they read each value once and allocate only for rows that changed.
 */

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
