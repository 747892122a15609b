import {
  BUY_ORDERS_DELETE_ALL,
  LISTINGS_DELETE_ALL,
  isSettled,
  isLockedEntry,
} from './change.ts';
import { removedByDeleteAll, type LedgerView } from './ledger-view.ts';
import type { BulkDomain, BulkFilter, RefusedRow, Selection } from './bulk-ops.ts';
import { liveEntry, type WorkingSet } from './working-set.ts';

/**
 * The draft's view of the market: ledger rows with the draft's creates and
 * edits laid over them, minus what it deletes. Bulk operations select from
 * this view; the UI shows it as "after the draft".
 */
export interface EffectiveRow {
  /** Asset ID (listings) or SKU (buy orders). */
  readonly id: string;
  readonly listing_id: string | null;
  readonly sku: string;
  readonly account: string;
  readonly price: number;
  readonly promoted: 0 | 1;
  readonly active: 0 | 1;
  readonly quantity: number;
  readonly user_note: string;
  /** Created by this draft (not yet on the market). */
  readonly isCreate: boolean;
  /** Why this row cannot be changed now (being applied, ID unknown); null when it can. */
  readonly blocked: string | null;
}

const LOCKED_REASON = 'being applied or its outcome is unknown';
const UNKNOWN_ID_REASON = 'its listing ID is unknown (create response lost)';


type Resolver = (id: string) => EffectiveRow | null;

/**
 * A function giving one row as the draft would leave it, or null when the
 * draft removes it or it does not exist. Built once per operation: what is
 * the same for every row (the delete-all) is looked up once.
 */
export function resolverFor(domain: BulkDomain, ws: WorkingSet, ledger: LedgerView): Resolver {
  return domain === 'listings' ? listingResolver(ws, ledger) : buyOrderResolver(ws, ledger);
}

function listingResolver(ws: WorkingSet, ledger: LedgerView): Resolver {
  const all = liveEntry(ws, LISTINGS_DELETE_ALL)?.change;
  const activeOnly = all?.kind === 'listing.deleteAll' ? all.active_only : null;
  const edits = ws.entries.slot('L');
  const deletes = ws.entries.slot('LD');
  return (assetId) => {
    const raw = edits.get(assetId);
    const rawDelete = deletes.get(assetId);
    const locked = isLockedEntry(raw) || isLockedEntry(rawDelete);
    const entry = raw && !isSettled(raw.status) ? raw.change : undefined;
    if (entry?.kind === 'listing.create') {
      return {
        id: assetId, listing_id: null, sku: entry.sku ?? '', account: entry.account, price: entry.price,
        promoted: entry.promoted, active: 1, quantity: 1, user_note: entry.user_note ?? '', isCreate: true,
        blocked: locked ? LOCKED_REASON : null,
      };
    }
    const row = ledger.listings.get(assetId);
    if (!row) return null;
    if (rawDelete && !isSettled(rawDelete.status) && !locked) return null;
    if (activeOnly !== null && removedByDeleteAll(row, activeOnly)) return null;
    const edit = entry?.kind === 'listing.edit' ? entry : undefined;
    return {
      id: assetId, listing_id: row.listing_id, sku: row.sku, account: row.account,
      price: edit?.price ?? row.price, promoted: edit?.promoted ?? row.promoted, active: 1, quantity: 1,
      user_note: edit?.user_note ?? row.user_note, isCreate: false,
      blocked: locked ? LOCKED_REASON : row.listing_id === null ? UNKNOWN_ID_REASON : null,
    };
  };
}

function buyOrderResolver(ws: WorkingSet, ledger: LedgerView): Resolver {
  const deleteAll = liveEntry(ws, BUY_ORDERS_DELETE_ALL) !== undefined;
  const edits = ws.entries.slot('B');
  const deletes = ws.entries.slot('BD');
  return (skuValue) => {
    const raw = edits.get(skuValue);
    const rawDelete = deletes.get(skuValue);
    const locked = isLockedEntry(raw) || isLockedEntry(rawDelete);
    const entry = raw && !isSettled(raw.status) ? raw.change : undefined;
    if (entry?.kind === 'buyOrder.create') {
      return {
        id: skuValue, listing_id: null, sku: skuValue, account: entry.account, price: entry.price, promoted: 0,
        active: 1, quantity: entry.quantity, user_note: entry.user_note ?? '', isCreate: true,
        blocked: locked ? LOCKED_REASON : null,
      };
    }
    const row = ledger.buyOrders.get(skuValue);
    if (!row) return null;
    if ((rawDelete && !isSettled(rawDelete.status) && !locked) || deleteAll) return null;
    const edit = entry?.kind === 'buyOrder.edit' ? entry : undefined;
    return {
      id: skuValue, listing_id: null, sku: skuValue, account: row.account, price: edit?.price ?? row.price, promoted: 0,
      active: edit?.active ?? row.active, quantity: edit?.quantity ?? row.quantity,
      user_note: edit?.user_note ?? row.user_note, isCreate: false, blocked: locked ? LOCKED_REASON : null,
    };
  };
}

/** Every ID the draft's view holds for a domain: ledger rows plus the draft's creates. */
export function* viewIds(domain: BulkDomain, ws: WorkingSet, ledger: LedgerView): Iterable<string> {
  const source = domain === 'listings' ? ledger.listings : ledger.buyOrders;
  yield* source.keys();
  const kind = domain === 'listings' ? 'listing.create' : 'buyOrder.create';
  for (const [id, e] of ws.entries.slot(domain === 'listings' ? 'L' : 'B')) {
    if (e.change.kind === kind && !isSettled(e.status) && !source.has(id)) yield id;
  }
}

/** Resolves a selection to rows; IDs that cannot be changed are refused with the reason. */
export function collectRows(domain: BulkDomain, sel: Selection, ws: WorkingSet, ledger: LedgerView): { rows: EffectiveRow[]; refused: RefusedRow[] } {
  const resolve = resolverFor(domain, ws, ledger);
  const rows: EffectiveRow[] = [];
  const refused: RefusedRow[] = [];
  if ('ids' in sel) {
    for (const id of new Set(sel.ids)) {
      const r = resolve(id);
      if (r === null) refused.push({ id, reason: 'not in the ledger or deleted in this draft' });
      else if (r.blocked !== null) refused.push({ id, reason: r.blocked });
      else rows.push(r);
    }
    return { rows, refused };
  }
  const match = matcher(sel.filter);
  for (const id of viewIds(domain, ws, ledger)) {
    const r = resolve(id);
    if (r === null || !match(r)) continue;
    // A matching row that cannot change is reported, not silently skipped.
    if (r.blocked !== null) refused.push({ id, reason: r.blocked });
    else rows.push(r);
  }
  return { rows, refused };
}

function matcher(f: BulkFilter): (r: EffectiveRow) => boolean {
  const text = f.text?.toLowerCase();
  const note = f.note?.toLowerCase();
  return (r) => {
    if (f.sku !== undefined && r.sku !== f.sku) return false;
    if (f.account !== undefined && r.account !== f.account) return false;
    if (f.minPrice !== undefined && r.price < f.minPrice) return false;
    if (f.maxPrice !== undefined && r.price > f.maxPrice) return false;
    if (f.promoted !== undefined && r.promoted !== f.promoted) return false;
    if (f.active !== undefined && r.active !== f.active) return false;
    if (note !== undefined && !r.user_note.toLowerCase().includes(note)) return false;
    if (text !== undefined && !(r.id.toLowerCase().includes(text) || r.sku.toLowerCase().includes(text)
      || (r.listing_id ?? '').toLowerCase().includes(text) || r.user_note.toLowerCase().includes(text))) return false;
    return true;
  };
}
