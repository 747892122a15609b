import { BUY_ORDERS_DELETE_ALL, LISTINGS_DELETE_ALL, isSettled, isLockedEntry } from './change.ts';
import { removedByDeleteAll, type LedgerView } from './ledger-view.ts';
import type { BulkDomain } from './bulk-ops.ts';
import { DELETED_REASON, ENDED_REASON, LOCKED_REASON, UNKNOWN_ID_REASON } from './ledger-rows.ts';
import { isEnded } from '../store/listings-repo.ts';
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
      blocked: locked ? LOCKED_REASON : row.listing_id === null ? UNKNOWN_ID_REASON : isEnded(row.state) ? ENDED_REASON : null,
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

/** Rows a bulk edit leaves out, by reason: counted and shown, never blocking the rest. */
export interface SkippedRows {
  readonly reason: string;
  readonly count: number;
  /** A few of the keys, for the trader to find them. */
  readonly sample: readonly string[];
}

const NOT_FOUND_REASON = 'not in the ledger';
const SAMPLE_SIZE = 5;

/**
 * The rows of these keys as the draft would leave them. A key whose row is
 * gone, deleted in the draft, being applied, or cannot be edited (listing ID
 * unknown) is skipped with its reason: the edit goes on for the others.
 */
export function collectRows(domain: BulkDomain, keys: Iterable<string>, ws: WorkingSet, ledger: LedgerView): { rows: EffectiveRow[]; skipped: SkippedRows[] } {
  const resolve = resolverFor(domain, ws, ledger);
  const held = domain === 'listings' ? ledger.listings : ledger.buyOrders;
  const rows: EffectiveRow[] = [];
  const skipped = new Map<string, { count: number; sample: string[] }>();
  const skip = (key: string, reason: string) => {
    let s = skipped.get(reason);
    if (!s) skipped.set(reason, (s = { count: 0, sample: [] }));
    s.count += 1;
    if (s.sample.length < SAMPLE_SIZE) s.sample.push(key);
  };
  for (const key of keys) {
    const r = resolve(key);
    if (r === null) skip(key, held.has(key) ? DELETED_REASON : NOT_FOUND_REASON);
    else if (r.blocked !== null) skip(key, r.blocked);
    else rows.push(r);
  }
  return { rows, skipped: [...skipped].map(([reason, s]) => ({ reason, count: s.count, sample: s.sample })) };
}
