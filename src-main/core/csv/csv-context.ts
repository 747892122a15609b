import { BUY_ORDERS_DELETE_ALL, buyOrderDeleteKey, buyOrderKey, LISTINGS_DELETE_ALL, listingDeleteKey, listingKey, LOCKED_REASON } from '../drafts/change.ts';
import type { KnownNames, NameResolution } from '../items/index.ts';
import { idCell } from './csv-cells.ts';
import { echoed } from './csv-format.ts';
import type { LedgerLookup } from '../drafts/merge.ts';

/**
 * What an import checks rows against: the ledger, the known accounts, and
 * the rows an apply owns right now (or whose outcome the trader must resolve),
 * which an adoption must not overwrite underneath it.
 */
export interface ImportContext {
  readonly ledger: LedgerLookup;
  readonly accounts: ReadonlySet<string>;
  readonly mainAccount: string | null;
  /** Draft targets (`L:…`, `LD:…`, `B:…`, `BD:…`, `LA`, `BA`) locked in any draft. */
  readonly locked: ReadonlySet<string>;
  /** Whether rows may become changes of a draft (one was named). */
  readonly draftOpen: boolean;
  /** Item names, for the `name` column: null when this build has no schema. */
  readonly items: ItemLookup | null;
  /** The inventories as last read: what names a new listing given by its asset ID alone. */
  readonly kept?: KeptLookup;
}

/** What an import asks of the kept inventories (store/kept-items.ts). */
export interface KeptLookup {
  of(assetIds: readonly string[]): ReadonlyMap<string, { readonly sku: string; readonly account: string }>;
  /** The accounts whose inventory was read: only of those can an asset be said to be missing. */
  readAccounts(): ReadonlySet<string>;
}

/** What an import needs of the item names (core/items), bound to the SKUs the trader holds. */
export interface ItemLookup {
  /** The name backpack.tf shows for a SKU (the SKU itself for an unknown item). */
  nameOf(sku: string): string;
  /** A name to one SKU, or why not (ambiguous, no such item, not understood). */
  skuFor(name: string): NameResolution;
}

/** An ItemLookup over the names service, preferring the SKUs the trader already has. */
export function itemLookup(
  names: { name(sku: string): string; skuForName(name: string, known?: KnownNames): NameResolution; knownNames(skus: Iterable<string>): KnownNames },
  heldSkus: () => Iterable<string>,
): ItemLookup {
  let known: KnownNames | null = null;
  return {
    nameOf: (sku) => names.name(sku),
    skuFor: (name) => names.skuForName(name, (known ??= names.knownNames(heldSkus()))),
  };
}

/**
 * The SKU a row is about: its `sku` cell, or the item its `name` cell names
 * when it resolves to one SKU. With both, they must be the same item (a name
 * edited in a spreadsheet while the SKU stayed means the row is about
 * something else). A refusal is a reason naming the column.
 */
export function rowSku(cells: Readonly<Record<string, string>>, ctx: ImportContext): { sku: string | undefined; reason: string | null } {
  const sku = idCell(cells.sku);
  const name = cells.name?.trim();
  if (name === undefined || name === '') return { sku, reason: null };
  const items = ctx.items;
  if (items === null) return { sku, reason: sku === undefined ? 'name: item names cannot be read in this build; give the sku' : null };
  if (sku !== undefined) {
    if (sameName(items.nameOf(sku), name)) return { sku, reason: null };
    const r = items.skuFor(name);
    if (r.ok && r.sku === sku) return { sku, reason: null };
    return { sku, reason: `name: “${echoed(name)}” is not the item of sku ${echoed(sku)} (${echoed(items.nameOf(sku))}); correct one of them, or leave name empty` };
  }
  const resolved = items.skuFor(name);
  return resolved.ok ? { sku: resolved.sku, reason: null } : { sku: undefined, reason: `name: ${resolved.message}` };
}

/** Names as a spreadsheet may have retyped them: case, spaces and typographic apostrophes do not matter. */
function sameName(a: string, b: string): boolean {
  const norm = (s: string) => s.normalize('NFC').replace(/[\u2018\u2019]/g, "'").replace(/\s+/g, ' ').trim().toLowerCase();
  return norm(a) === norm(b);
}

/**
 * The account a row belongs to: the named one, or the main account when the
 * cell is empty. A refusal is a reason naming the column; malformed IDs are
 * left to the field rule.
 */
export function rowAccount(given: string | undefined, ctx: ImportContext): { account: string | undefined; reason: string | null } {
  if (given === undefined) {
    return ctx.mainAccount === null
      ? { account: undefined, reason: 'account: no main account is known yet; connect the key first or name the account' }
      : { account: ctx.mainAccount, reason: null };
  }
  const known = !/^\d{1,20}$/.test(given) || ctx.accounts.has(given);
  return { account: given, reason: known ? null : `account: ${echoed(given)} is not the main or a linked account` };
}

const BUSY = `is ${LOCKED_REASON}; resolve it first`;

/** Why adopting this listing now would race an apply; null when it would not. */
export function listingLockReason(assetId: string, ctx: ImportContext): string | null {
  if (ctx.locked.has(LISTINGS_DELETE_ALL)) return `asset_id: a delete-all of listings ${BUSY}`;
  if (ctx.locked.has(listingKey(assetId)) || ctx.locked.has(listingDeleteKey(assetId))) return `asset_id: a change to this listing ${BUSY}`;
  return null;
}

/** Why adopting this buy order now would race an apply; null when it would not. */
export function buyOrderLockReason(sku: string, ctx: ImportContext): string | null {
  if (ctx.locked.has(BUY_ORDERS_DELETE_ALL)) return `sku: a delete-all of buy orders ${BUSY}`;
  if (ctx.locked.has(buyOrderKey(sku)) || ctx.locked.has(buyOrderDeleteKey(sku))) return `sku: a change to this buy order ${BUSY}`;
  return null;
}
