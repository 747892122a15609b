import {
  BUY_ORDERS_DELETE_ALL, buyOrderDeleteKey, buyOrderKey, isLockedStatus, LISTINGS_DELETE_ALL, listingDeleteKey, listingKey, type DraftEntry,
} from './change.ts';
import type { LedgerView } from './ledger-view.ts';

/**
 * What an import checks rows against: the ledger, the known accounts, and
 * the rows an apply owns right now (or whose outcome the trader must resolve),
 * which an adoption must not overwrite underneath it.
 */
export interface ImportContext {
  readonly ledger: LedgerView;
  readonly accounts: ReadonlySet<string>;
  readonly mainAccount: string | null;
  /** Draft targets (`L:…`, `LD:…`, `B:…`, `BD:…`, `LA`, `BA`) locked in any draft. */
  readonly locked: ReadonlySet<string>;
  /** Whether rows may become changes of a draft (one was named). */
  readonly draftOpen: boolean;
}

/** Targets locked in these drafts' entries. */
export function lockedTargets(entries: Iterable<DraftEntry>): Set<string> {
  const out = new Set<string>();
  for (const e of entries) if (isLockedStatus(e.status)) out.add(e.target);
  return out;
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
  return { account: given, reason: known ? null : `account: ${given} is not the main or a linked account` };
}

const BUSY = 'is being applied or its outcome is unknown; resolve it first';

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
