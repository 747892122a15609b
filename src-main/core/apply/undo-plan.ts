import { formatCents } from '../../../src-shared/money.ts';
import type { ChangeInput } from '../drafts/change.ts';
import type { AppliedRow, RowValues } from '../store/applied-repo.ts';
import type { BuyOrderRow } from '../store/buy-orders-repo.ts';
import { isEnded, type ListingRow } from '../store/listings-repo.ts';
import { buyOrderValues, listingValues } from './applied-rows.ts';
import { describeEnded } from './ended-listings.ts';

/**
 * What undoing an apply takes: for every ledger row the run changed, the
 * change that brings it back to its values before the run (a listing's
 * price, promotion and note; a buy order's price, quantity, active and note),
 * a delete of what it created, a create of a buy order it deleted. A listing
 * it deleted cannot come back (the service cannot recover one), nor can one
 * sold or gone since: those are said, with why. A deleted listing's asset
 * can be listed again as a new listing at its last price (`relists`,
 * undo-relist.ts): offered, never put in the undo's draft unasked. A row changed again since
 * the run (another apply, or anything else the ledger learnt) is brought
 * back to its values before the run anyway, and that is said too.
 */
export interface UndoStep {
  readonly target: string;
  readonly what: 'restore' | 'remove' | 'recreate';
  readonly input: ChangeInput;
}

export interface UndoNote {
  /** The ledger row: `L:<asset>` or `B:<sku>`. */
  readonly target: string;
  readonly sku: string;
  /** `lost`: cannot come back; `changedSince`: changed again since the apply, undone anyway; `partly`: comes back in part. */
  readonly kind: 'lost' | 'changedSince' | 'partly';
  readonly reason: string;
}

/** A listing the run deleted, as it stood before: what listing its asset again takes. */
export interface Relist {
  readonly assetId: string;
  readonly account: string;
  readonly sku: string;
  readonly price: number;
  readonly promoted: 0 | 1;
  readonly user_note: string;
}

export interface UndoPlan {
  readonly steps: UndoStep[];
  readonly notes: UndoNote[];
  /** Listings the run deleted whose asset no listing holds now: they can be listed again. */
  readonly relists: Relist[];
  /** Rows already as they were before the run (or already gone again): nothing to do. */
  readonly unchanged: number;
}

export interface UndoLedger {
  listing(assetId: string): ListingRow | null;
  buyOrder(sku: string): BuyOrderRow | null;
}

const LISTING_FIELDS = ['price', 'promoted', 'user_note'] as const;
const BUY_ORDER_FIELDS = ['price', 'quantity', 'active', 'user_note'] as const;
type Field = (typeof BUY_ORDER_FIELDS)[number] | (typeof LISTING_FIELDS)[number];

const same = (a: RowValues, b: RowValues, fields: readonly Field[]) => fields.every((f) => a[f] === b[f]);

function shown(field: Field, v: RowValues): string {
  if (field === 'price') return formatCents(v.price);
  if (field === 'user_note') return v.user_note === '' ? 'no note' : `note “${v.user_note}”`;
  if (field === 'promoted') return v.promoted === 1 ? 'promoted' : 'not promoted';
  if (field === 'active') return v.active === 1 ? 'active' : 'paused';
  return `quantity ${v.quantity ?? '?'}`;
}

/** "changed since this apply (now $4.50, it left $4.00); <then>". */
function changedSince(now: RowValues, left: RowValues, fields: readonly Field[], then: string): string {
  const diffs = fields.filter((f) => now[f] !== left[f]).map((f) => `now ${shown(f, now)}, it left ${shown(f, left)}`);
  return `changed since this apply (${diffs.join('; ')}); ${then}`;
}

export function planUndo(rows: readonly AppliedRow[], ledger: UndoLedger): UndoPlan {
  const plan = { steps: [] as UndoStep[], notes: [] as UndoNote[], relists: [] as Relist[], unchanged: 0 };
  for (const r of rows) {
    if (r.slot === 'L') undoListing(r, ledger.listing(r.key), plan);
    else undoBuyOrder(r, ledger.buyOrder(r.key), plan);
  }
  return plan;
}

type Plan = { steps: UndoStep[]; notes: UndoNote[]; relists: Relist[]; unchanged: number };

function undoListing(r: AppliedRow, row: ListingRow | null, plan: Plan): void {
  const target = `L:${r.key}`;
  const note = (kind: UndoNote['kind'], reason: string) => plan.notes.push({ target, sku: row?.sku || r.sku, kind, reason });
  const now = listingValues(row);
  if (r.after === null) {
    if (r.before === null) return;
    if (row !== null && !isEnded(row.state)) return void note('lost', 'deleted by this apply, and its asset is listed again since: it is left as it is');
    note('lost', 'deleted by this apply: a deleted listing cannot come back, but its asset can be listed again as a new listing');
    const { price, promoted, user_note } = r.before;
    plan.relists.push({ assetId: r.key, account: r.account, sku: row?.sku || r.sku, price, promoted: promoted ?? 0, user_note });
    return;
  }
  if (row === null || now === null) {
    // Created by the run and gone since: as before. Edited, then gone: nothing left to restore.
    if (r.before === null) plan.unchanged += 1;
    else note('lost', 'no longer in the ledger (deleted or cleared since this apply): nothing to restore');
    return;
  }
  if (isEnded(row.state)) return void note('lost', `cannot be undone: ${describeEnded(row)}`);
  const changed = !same(now, r.after, LISTING_FIELDS);
  if (r.before === null) {
    plan.steps.push({ target, what: 'remove', input: { kind: 'listing.delete', asset_id: r.key } });
    if (changed) note('changedSince', changedSince(now, r.after, LISTING_FIELDS, 'deleted anyway, as this apply created it'));
    return;
  }
  if (row.listing_id === null) return void note('lost', 'its listing ID is unknown (its create response was lost), so it cannot be edited');
  if (same(now, r.before, LISTING_FIELDS)) {
    plan.unchanged += 1;
    return;
  }
  const { price, promoted, user_note } = r.before;
  plan.steps.push({ target, what: 'restore', input: { kind: 'listing.edit', asset_id: r.key, price, promoted: promoted ?? 0, user_note } });
  if (changed) note('changedSince', changedSince(now, r.after, LISTING_FIELDS, 'set back to its values before this apply anyway'));
}

function undoBuyOrder(r: AppliedRow, row: BuyOrderRow | null, plan: Plan): void {
  const target = `B:${r.key}`;
  const note = (kind: UndoNote['kind'], reason: string) => plan.notes.push({ target, sku: r.key, kind, reason });
  const now = buyOrderValues(row);
  if (r.after === null) {
    if (r.before === null) return;
    if (now !== null) return void note('lost', 'deleted by this apply, and a buy order for this SKU stands again since: it is left as it is');
    const { price, quantity, user_note } = r.before;
    plan.steps.push({ target, what: 'recreate', input: { kind: 'buyOrder.create', sku: r.key, account: r.account, price, quantity: quantity ?? 1, user_note } });
    if (r.before.active === 0) note('partly', 'deleted by this apply while paused: created again, it starts active; pause it once this is applied');
    return;
  }
  if (now === null) {
    if (r.before === null) plan.unchanged += 1;
    else note('lost', 'no longer in the ledger (deleted since this apply): nothing to restore');
    return;
  }
  // A create's quantity is the service's to cut (see buy-order-quantities.ts): not a change made since.
  const fields = r.before === null ? BUY_ORDER_FIELDS.filter((f) => f !== 'quantity') : BUY_ORDER_FIELDS;
  const changed = !same(now, r.after, fields);
  if (r.before === null) {
    plan.steps.push({ target, what: 'remove', input: { kind: 'buyOrder.delete', sku: r.key } });
    if (changed) note('changedSince', changedSince(now, r.after, fields, 'deleted anyway, as this apply created it'));
    return;
  }
  if (same(now, r.before, BUY_ORDER_FIELDS) && !row?.quantity_may_be_cut) {
    plan.unchanged += 1;
    return;
  }
  const { price, quantity, active, user_note } = r.before;
  plan.steps.push({ target, what: 'restore', input: { kind: 'buyOrder.edit', sku: r.key, price, quantity: quantity ?? 1, active: active ?? 1, user_note } });
  if (changed) note('changedSince', changedSince(now, r.after, fields, 'set back to its values before this apply anyway'));
}
