import {
  BUY_ORDERS_DELETE_ALL,
  buyOrderDeleteKey,
  buyOrderKey,
  LISTINGS_DELETE_ALL,
  listingDeleteKey,
  listingKey,
  isLockedEntry,
  LOCKED_REASON,
  type Change,
  type ChangeOf,
  type DraftEntry,
  type ParsedChangeInput,
} from './change.ts';
import type { BuyOrderRow } from '../store/buy-orders-repo.ts';
import type { ListingRow } from '../store/listings-repo.ts';
import { removedByDeleteAll } from '../ledger/ledger-rows.ts';

/**
 * The merge rules of a draft, as pure functions: changes to the same target
 * merge (latest wins), an edit after a create folds into the create, a delete
 * supersedes edits, and what the ledger says decides what is possible (no
 * create on a listed asset unless it is deleted first, no edit of a listing
 * whose ID is unknown). The result says which rows to write and which to drop.
 */
export interface MergeContext {
  readonly ledger: LedgerLookup;
  /** The entry at `target` unless it is settled (done or dropped). */
  live(target: string): DraftEntry | undefined;
  /** The draft's live edits and deletes of rows a delete-all would remove (see replacedByDeleteAll). */
  replacedBy(input: DeleteAllInput): Iterable<DraftEntry>;
  /** The draft's live creates of assets (listings) or SKUs (buy orders) the ledger holds. */
  createsOfHeld(domain: 'listings' | 'buyOrders'): Iterable<DraftEntry>;
  accountExists(accountId: string): boolean;
  readonly mainAccount: string | null;
  /** Reads at once what these inputs will be checked against (a run of them is about to be merged). */
  warm?(inputs: readonly ParsedChangeInput[]): void;
}

/** The ledger, a row at a time. */
export interface LedgerLookup {
  listing(assetId: string): ListingRow | null;
  listingById(listingId: string): ListingRow | null;
  buyOrder(sku: string): BuyOrderRow | null;
}

export type DeleteAllInput = { kind: 'listing.deleteAll'; active_only: boolean } | { kind: 'buyOrder.deleteAll' };

/** A refusal that names the row (target) and the field. */
export interface ChangeIssue {
  readonly target: string;
  readonly field: string;
  readonly message: string;
}

export type MergeOutcome =
  | { ok: true; write: readonly Change[]; drop: readonly string[] }
  | { ok: false; issues: readonly ChangeIssue[] };

const refuse = (target: string, field: string, message: string): MergeOutcome => ({ ok: false, issues: [{ target, field, message }] });
const done = (write: readonly Change[], drop: readonly string[] = []): MergeOutcome => ({ ok: true, write, drop });

export function mergeChange(input: ParsedChangeInput, ctx: MergeContext): MergeOutcome {
  const locked = lockedTarget(input, ctx);
  if (locked) return refuse(locked, 'status', `this change is ${LOCKED_REASON}; resolve it first`);
  switch (input.kind) {
    case 'listing.create': return createListing(input, ctx);
    case 'listing.edit': return editListing(input, ctx);
    case 'listing.delete': return deleteListing(input.asset_id, ctx);
    case 'listing.deleteAll': return deleteAll(input, ctx);
    case 'buyOrder.create': return createBuyOrder(input, ctx);
    case 'buyOrder.edit': return editBuyOrder(input, ctx);
    case 'buyOrder.delete': return deleteBuyOrder(input.sku, ctx);
    case 'buyOrder.deleteAll': return deleteAll(input, ctx);
  }
}

function lockedTarget(input: ParsedChangeInput, ctx: MergeContext): string | null {
  const keys: string[] = [];
  const asset = 'asset_id' in input ? input.asset_id : undefined;
  if (asset !== undefined) keys.push(listingKey(asset), listingDeleteKey(asset));
  if (input.kind === 'buyOrder.create' || input.kind === 'buyOrder.edit' || input.kind === 'buyOrder.delete') {
    keys.push(buyOrderKey(input.sku), buyOrderDeleteKey(input.sku));
  }
  if (input.kind === 'listing.deleteAll') keys.push(LISTINGS_DELETE_ALL);
  if (input.kind === 'buyOrder.deleteAll') keys.push(BUY_ORDERS_DELETE_ALL);
  return keys.find((k) => isLockedEntry(ctx.live(k))) ?? null;
}


function ownerOf(account: string | undefined, target: string, ctx: MergeContext): string | MergeOutcome {
  const id = account ?? ctx.mainAccount;
  if (id === null) return refuse(target, 'account', 'no main account is known yet; connect the key first');
  if (!ctx.accountExists(id)) return refuse(target, 'account', `account ${id} is not the main or a linked account`);
  return id;
}

/** Whether a delete-all of listings in this draft removes the ledger row of this asset. */
function listingGoneByDeleteAll(assetId: string, ctx: MergeContext): boolean {
  const all = ctx.live(LISTINGS_DELETE_ALL)?.change;
  if (all?.kind !== 'listing.deleteAll') return false;
  const row = ctx.ledger.listing(assetId);
  return row !== null && removedByDeleteAll(row.state, all.active_only);
}

function createListing(input: Extract<ParsedChangeInput, { kind: 'listing.create' }>, ctx: MergeContext): MergeOutcome {
  const target = listingKey(input.asset_id);
  const account = ownerOf(input.account, target, ctx);
  if (typeof account !== 'string') return account;
  const row = ctx.ledger.listing(input.asset_id);
  const deleted = ctx.live(listingDeleteKey(input.asset_id)) !== undefined || listingGoneByDeleteAll(input.asset_id, ctx);
  if (row && !deleted) {
    return refuse(target, 'asset_id', `asset ${input.asset_id} is already listed${row.listing_id ? ` (listing ${row.listing_id})` : ''}; edit it, or delete it first to list it again`);
  }
  return done([{ ...input, account }]);
}

function editListing(input: Extract<ParsedChangeInput, { kind: 'listing.edit' }>, ctx: MergeContext): MergeOutcome {
  let assetId = input.asset_id;
  if (assetId === undefined) {
    if (input.listing_id === undefined) return refuse('', 'listing_id', 'name the listing by listing_id or asset_id');
    const byId = ctx.ledger.listingById(input.listing_id);
    if (!byId) return refuse(`listing:${input.listing_id}`, 'listing_id', `no listing ${input.listing_id} in the ledger`);
    assetId = byId.asset_id;
  }
  const target = listingKey(assetId);
  const current = ctx.live(target)?.change;
  if (current?.kind === 'listing.create') {
    return done([{ ...current, ...definedOf({ price: input.price, promoted: input.promoted, user_note: input.user_note }) }]);
  }
  if (ctx.live(listingDeleteKey(assetId))) return refuse(target, 'asset_id', 'this listing is deleted in this draft');
  if (listingGoneByDeleteAll(assetId, ctx)) return refuse(target, 'asset_id', 'this listing is removed by the delete-all in this draft');
  const row = ctx.ledger.listing(assetId);
  if (!row) return refuse(target, 'asset_id', `asset ${assetId} has no listing in the ledger`);
  if (row.listing_id === null) {
    return refuse(target, 'listing_id', 'the listing ID is unknown (its create response was lost); delete the asset and list it again');
  }
  const base = current?.kind === 'listing.edit' ? current : { price: row.price, promoted: row.promoted, user_note: undefined };
  const edit: ChangeOf<'listing.edit'> = {
    kind: 'listing.edit', account: row.account, asset_id: assetId, listing_id: row.listing_id,
    price: input.price ?? base.price,
    promoted: input.promoted ?? base.promoted,
    ...definedOf({ user_note: input.user_note ?? base.user_note }),
  };
  const noOp = edit.price === row.price && edit.promoted === row.promoted && (edit.user_note === undefined || edit.user_note === row.user_note);
  return noOp ? done([], current ? [target] : []) : done([edit]);
}

function deleteListing(assetId: string, ctx: MergeContext): MergeOutcome {
  const target = listingKey(assetId);
  const current = ctx.live(target);
  const row = ctx.ledger.listing(assetId);
  if (!row) {
    if (current?.change.kind === 'listing.create') return done([], [target]);
    return refuse(listingDeleteKey(assetId), 'asset_id', `asset ${assetId} has no listing in the ledger`);
  }
  const drop = current ? [target] : [];
  if (listingGoneByDeleteAll(assetId, ctx)) return done([], drop);
  return done([{ kind: 'listing.delete', account: row.account, asset_id: assetId }], drop);
}

function createBuyOrder(input: Extract<ParsedChangeInput, { kind: 'buyOrder.create' }>, ctx: MergeContext): MergeOutcome {
  const target = buyOrderKey(input.sku);
  const account = ownerOf(input.account, target, ctx);
  if (typeof account !== 'string') return account;
  const deleted = ctx.live(buyOrderDeleteKey(input.sku)) !== undefined || ctx.live(BUY_ORDERS_DELETE_ALL) !== undefined;
  if (ctx.ledger.buyOrder(input.sku) !== null && !deleted) {
    return refuse(target, 'sku', `a buy order for ${input.sku} exists; edit it, or delete it first`);
  }
  return done([{ ...input, account }]);
}

function editBuyOrder(input: Extract<ParsedChangeInput, { kind: 'buyOrder.edit' }>, ctx: MergeContext): MergeOutcome {
  const target = buyOrderKey(input.sku);
  const current = ctx.live(target)?.change;
  const fields = definedOf({ price: input.price, quantity: input.quantity, user_note: input.user_note });
  if (current?.kind === 'buyOrder.create') {
    // A create is always active; pausing it before it exists is not something the service offers.
    if (input.active === 0) return refuse(target, 'active', 'a buy order created in this draft cannot be paused before it exists');
    return done([{ ...current, ...fields }]);
  }
  if (ctx.live(buyOrderDeleteKey(input.sku))) return refuse(target, 'sku', 'this buy order is deleted in this draft');
  if (ctx.live(BUY_ORDERS_DELETE_ALL)) return refuse(target, 'sku', 'this buy order is removed by the delete-all in this draft');
  const row = ctx.ledger.buyOrder(input.sku);
  if (!row) return refuse(target, 'sku', `no buy order for ${input.sku} in the ledger`);
  const base = current?.kind === 'buyOrder.edit' ? current : { price: row.price, quantity: row.quantity, active: row.active, user_note: undefined };
  const edit: ChangeOf<'buyOrder.edit'> = {
    kind: 'buyOrder.edit', account: row.account, sku: input.sku,
    price: input.price ?? base.price,
    quantity: input.quantity ?? base.quantity,
    active: input.active ?? base.active,
    ...definedOf({ user_note: input.user_note ?? base.user_note }),
  };
  const noOp = edit.price === row.price && edit.quantity === row.quantity && edit.active === row.active
    && (edit.user_note === undefined || edit.user_note === row.user_note) && !row.quantity_may_be_cut;
  return noOp ? done([], current ? [target] : []) : done([edit]);
}

function deleteBuyOrder(sku: string, ctx: MergeContext): MergeOutcome {
  const target = buyOrderKey(sku);
  const current = ctx.live(target);
  const row = ctx.ledger.buyOrder(sku);
  if (!row) {
    if (current?.change.kind === 'buyOrder.create') return done([], [target]);
    return refuse(buyOrderDeleteKey(sku), 'sku', `no buy order for ${sku} in the ledger`);
  }
  const drop = current ? [target] : [];
  if (ctx.live(BUY_ORDERS_DELETE_ALL)) return done([], drop);
  return done([{ kind: 'buyOrder.delete', account: row.account, sku }], drop);
}

/**
 * A delete-all replaces the edits and deletes it makes pointless (those rows
 * go anyway): they leave the draft, and the delete-all records how many, so
 * the review can say so. Creates stay and run after it.
 */
function deleteAll(input: ChangeOf<'listing.deleteAll'> | ChangeOf<'buyOrder.deleteAll'>, ctx: MergeContext): MergeOutcome {
  const drop: string[] = [];
  for (const e of ctx.replacedBy(input)) {
    if (isLockedEntry(e)) return refuse(e.target, 'status', 'a change this delete-all replaces is being applied; wait for it or resolve it first');
    drop.push(e.target);
  }
  const earlier = ctx.live(input.kind === 'listing.deleteAll' ? LISTINGS_DELETE_ALL : BUY_ORDERS_DELETE_ALL)?.change;
  const before = earlier && 'replaced' in earlier ? (earlier.replaced ?? 0) : 0;
  return done([{ ...input, replaced: before + drop.length }], drop);
}

/**
 * When the trader removes a delete, creates that were only allowed because of
 * it (listing the same asset again) go too, so the draft stays valid.
 */
export function dependentsOf(target: string, ctx: MergeContext): string[] {
  const creates: string[] = [];
  if (target === LISTINGS_DELETE_ALL || target === BUY_ORDERS_DELETE_ALL) {
    for (const e of ctx.createsOfHeld(target === LISTINGS_DELETE_ALL ? 'listings' : 'buyOrders')) {
      const ownDelete = e.change.kind === 'listing.create' ? listingDeleteKey(e.change.asset_id) : e.change.kind === 'buyOrder.create' ? buyOrderDeleteKey(e.change.sku) : null;
      if (ownDelete !== null && !ctx.live(ownDelete)) creates.push(e.target);
    }
  } else if (target.startsWith('LD:') || target.startsWith('BD:')) {
    const listing = target.startsWith('LD:');
    const id = target.slice(3);
    const createKey = listing ? listingKey(id) : buyOrderKey(id);
    const e = ctx.live(createKey);
    const held = listing ? ctx.ledger.listing(id) !== null : ctx.ledger.buyOrder(id) !== null;
    const isCreate = e?.change.kind === (listing ? 'listing.create' : 'buyOrder.create');
    if (e && isCreate && held && !ctx.live(listing ? LISTINGS_DELETE_ALL : BUY_ORDERS_DELETE_ALL)) creates.push(createKey);
  }
  return creates;
}

/** Drops keys whose value is undefined, so a spread never overwrites with undefined. */
export function definedOf<T extends Record<string, unknown>>(fields: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(fields) as (keyof T)[]) {
    if (fields[key] !== undefined) out[key] = fields[key];
  }
  return out;
}
