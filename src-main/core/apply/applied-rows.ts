import type { CreatedListing } from '../api/schemas.ts';
import type { Change } from '../drafts/change.ts';
import type { AppliedSlot, RowValues } from '../store/applied-repo.ts';
import type { BuyOrderRow } from '../store/buy-orders-repo.ts';
import type { Repos } from '../store/index.ts';
import type { ListingRow } from '../store/listings-repo.ts';
import { recordInLedger } from './ledger-effects.ts';

/**
 * A change a run's request did (or the trader said it did) goes into the
 * ledger here, and what it changed is kept for an undo of the run: the
 * ledger row before and after, the first "before" of the run and its last
 * "after" (see store/applied-repo.ts). Changes settled without changing
 * anything on the service (a delete of a listing already sold) go through
 * recordInLedger alone.
 */
export type AppliedRepos = Pick<Repos, 'listings' | 'buyOrders' | 'applied'>;

export const listingValues = (row: ListingRow | null): RowValues | null =>
  row === null ? null : { listing_id: row.listing_id, price: row.price, promoted: row.promoted, quantity: null, active: null, user_note: row.user_note };

export const buyOrderValues = (row: BuyOrderRow | null): RowValues | null =>
  row === null ? null : { listing_id: null, price: row.price, promoted: null, quantity: row.quantity, active: row.active, user_note: row.user_note };

/** A change settled done, with the create response's entry for a new listing (null: its listing_id is unknown). */
export interface DoneChange {
  readonly change: Change;
  readonly created?: CreatedListing | null;
}

/**
 * Records done changes of run `runId` in the ledger, keeping each row's
 * values before and after for the undo. The rows are read in one query
 * before and one after, not two a change: an outcome journals its hundred
 * changes in a shorter turn of the worker. A row
 * two of them change keeps its first "before" and its last "after", as the
 * undo's record keeps them across a run (store/applied-repo.ts).
 */
export function recordAppliedMany(repos: AppliedRepos, runId: number, done: readonly DoneChange[]): void {
  const keyed = done.map((d) => ({ ...d, row: rowOf(d.change) }));
  const rows = keyed.filter(hasRow);
  if (rows.length === keyed.length) {
    record(repos, runId, rows);
    return;
  }
  // A delete-all is about every row: each change goes in on its own, in its order.
  for (const d of keyed) {
    if (hasRow(d)) record(repos, runId, [d]);
    else {
      // Every row it removes is kept as removed by this run, before the ledger forgets them.
      if (d.change.kind === 'listing.deleteAll') repos.applied.noteRemovedAll(runId, 'L', d.change.active_only);
      else repos.applied.noteRemovedAll(runId, 'B', false);
      recordInLedger(repos, d.change);
    }
  }
}

const hasRow = <T extends { readonly row: ChangedRow | null }>(d: T): d is T & { readonly row: ChangedRow } => d.row !== null;

/** The ledger row a change is about; null for a delete-all, which is about every row. */
function rowOf(change: Change): ChangedRow | null {
  switch (change.kind) {
    case 'listing.create':
    case 'listing.edit':
    case 'listing.delete':
      return { slot: 'L', key: change.asset_id, sku: '', account: change.account };
    case 'buyOrder.create':
    case 'buyOrder.edit':
    case 'buyOrder.delete':
      return { slot: 'B', key: change.sku, sku: change.sku, account: change.account };
    case 'listing.deleteAll':
    case 'buyOrder.deleteAll':
      return null;
  }
}

/** A ledger row a change is about: its key, and the SKU and account the change names, for a row not there. */
interface ChangedRow {
  readonly slot: AppliedSlot;
  readonly key: string;
  readonly sku: string;
  readonly account: string;
}

interface Held {
  readonly account: string;
  readonly sku: string;
  readonly values: RowValues | null;
}

/** The rows these keys have now, by slot and key. */
function readRows(repos: AppliedRepos, rows: readonly { slot: AppliedSlot; key: string }[]): Map<string, Held> {
  const of = (slot: AppliedSlot) => rows.filter((r) => r.slot === slot).map((r) => r.key);
  const held = new Map<string, Held>();
  const listings = of('L');
  for (const l of listings.length === 0 ? [] : repos.listings.getMany(listings)) {
    held.set(`L${l.asset_id}`, { account: l.account, sku: l.sku, values: listingValues(l) });
  }
  const orders = of('B');
  for (const b of orders.length === 0 ? [] : repos.buyOrders.getMany(orders)) {
    held.set(`B${b.sku}`, { account: b.account, sku: b.sku, values: buyOrderValues(b) });
  }
  return held;
}

/** Changes of distinct rows into the ledger, each row read just before and just after, kept for the undo. */
function record(repos: AppliedRepos, runId: number, done: readonly (DoneChange & { row: ChangedRow })[]): void {
  const rows = done.map((d) => d.row);
  const before = readRows(repos, rows);
  for (const d of done) recordInLedger(repos, d.change, d.created ?? null);
  const after = readRows(repos, rows);
  for (const d of done) {
    const { slot, key, sku, account } = d.row;
    const was = before.get(`${slot}${key}`) ?? null;
    const is = after.get(`${slot}${key}`) ?? null;
    const held = is ?? was;
    repos.applied.note({
      runId, slot, key, account: held?.account ?? account, sku: held?.sku ?? sku,
      before: was?.values ?? null, after: is?.values ?? null, kind: d.change.kind,
    });
  }
}
