import type { CostConcern } from '../../../src-shared/cost-guard.ts';
import type { LedgerDomain } from '../../../src-shared/ledger.ts';
import { undercutOf, type PriceGuard, type ReferencePrice } from '../../../src-shared/price-guard.ts';
import { priceConcern } from '../../../src-shared/price-rules.ts';
import type { BuyOrderRow } from '../store/buy-orders-repo.ts';
import type { ListingRow } from '../store/listings-repo.ts';
import type { Change, ChangeError, ChangeKind, ChangeStatus, DraftEntry } from './change.ts';
import type { LedgerLookup } from './merge.ts';

/** A field a change sets, before and after. */
export interface FieldDiff {
  readonly field: string;
  readonly before: string | number | null;
  readonly after: string | number | null;
}

export interface ReviewRow {
  /** The change's target key (what removeChanges takes). */
  readonly changeId: string;
  readonly kind: ChangeKind;
  /** Asset ID, SKU, or "all" for a delete-all. */
  readonly target: string;
  /** The SKU the change is about, when known (a listing created without one has none). */
  readonly sku: string | null;
  readonly account: string | null;
  readonly status: ChangeStatus;
  readonly error: ChangeError | null;
  readonly fields: readonly FieldDiff[];
  /** Something the trader should know (a buy order's quantity may be cut; what a delete-all removes). */
  readonly note: string | null;
  /**
   * What the price guard says of the change's new price against the ledger's,
   * of a new listing's against what the item fetches (`under`), or of either
   * against what the item cost; null: nothing unusual, or no price change.
   */
  readonly concern: 'drop' | 'floor' | 'rise' | 'under' | CostConcern | null;
  /** What a new listing marked `under` is held against. */
  readonly reference: ReferencePrice | null;
}

/** What the review knows of new listings beyond the draft and the ledger (review.ts reads it for a page at once). */
export interface CreateFacts {
  /** Where the kept inventory holds an asset; `missing`: the account's inventory was read and does not; `unread`: it never was. */
  kept(assetId: string, account: string): { readonly sku: string; readonly account: string } | 'missing' | 'unread';
  /** What a new listing of the SKU is held against (its lowest standing listing, its last sale). */
  references(sku: string): readonly ReferencePrice[];
  /** What the guard says of a listing's price against what its item cost (`before` null for a new listing). */
  readonly costs: (sku: string, before: number | null, after: number) => CostConcern | null;
}

const NO_FACTS: CreateFacts = { kept: () => 'unread', references: () => [], costs: () => null };

/** Changes the next apply sends: a mark on one already sent would ask about what is done. */
const OPEN: ReadonlySet<ChangeStatus> = new Set(['pending', 'failed']);

export const BUY_ORDER_CUT_NOTE = 'quantity requested; the service may cut it to floor(balance / price)';

const diff = (field: string, before: string | number | null | undefined, after: string | number | null | undefined): FieldDiff[] =>
  after === undefined || before === after ? [] : [{ field, before: before ?? null, after: after ?? null }];

/** An edit that would set what the ledger already holds: nothing to send. */
function isNoOp(c: Change, row: ListingRow | BuyOrderRow | null): boolean {
  if (c.kind !== 'listing.edit' || row === null || !('listing_id' in row)) return false;
  return row.listing_id === c.listing_id && row.price === c.price && row.promoted === c.promoted && (c.user_note === undefined || c.user_note === row.user_note);
}

/**
 * A change of the draft as the review lists it: before → after per field
 * against the ledger, what the price guard says of its price, and a note
 * where the trader should know more (`removed`: what a delete-all of a table
 * takes, counted from the ledger).
 */
export function rowOf(
  e: DraftEntry, ledger: LedgerLookup, removed: (domain: LedgerDomain, activeOnly: boolean) => number, guard: PriceGuard, facts: CreateFacts = NO_FACTS,
): ReviewRow {
  const c = e.change;
  const before = c.kind === 'listing.edit' ? ledger.listing(c.asset_id)?.price : c.kind === 'buyOrder.edit' ? ledger.buyOrder(c.sku)?.price : undefined;
  const priced = before !== undefined && 'price' in c && c.price !== before ? priceConcern(before, c.price, guard) : null;
  const listed = c.kind === 'listing.edit' && before !== undefined && c.price !== before ? ledger.listing(c.asset_id)?.sku ?? '' : '';
  const concern = priced ?? (listed !== '' && c.kind === 'listing.edit' ? facts.costs(listed, before ?? null, c.price) : null);
  const base = { changeId: e.target, kind: c.kind, status: e.status, error: e.error, concern, reference: null };
  const account = 'account' in c ? c.account : null;
  switch (c.kind) {
    case 'listing.create': {
      const row = ledger.listing(c.asset_id);
      const kept = facts.kept(c.asset_id, c.account);
      // Named from the start: by its own SKU, the ledger's, or the inventory's as last read.
      const sku = c.sku || row?.sku || (typeof kept === 'object' ? kept.sku : '');
      const open = sku !== '' && OPEN.has(e.status);
      const reference = open ? undercutOf(c.price, facts.references(sku), guard) : null;
      const cost = open && reference === null ? facts.costs(sku, null, c.price) : null;
      const note = kept === 'missing' ? 'not in this account’s inventory as last read: the service refuses it unless the item has arrived since'
        : typeof kept === 'object' && kept.account !== c.account ? `in the inventory of account ${kept.account}, not of the account it is listed for` : null;
      return { ...base, concern: reference === null ? cost : 'under', reference, target: c.asset_id, sku: sku || null, account, fields: listingFields(c, row ?? undefined), note };
    }
    case 'listing.edit':
    case 'listing.delete': {
      const row = ledger.listing(c.asset_id);
      const note = isNoOp(c, row) ? 'already so in the ledger: nothing to send' : null;
      return { ...base, target: c.asset_id, sku: row?.sku || null, account, fields: listingFields(c, row ?? undefined), note };
    }
    case 'buyOrder.create':
    case 'buyOrder.edit':
    case 'buyOrder.delete': {
      const row = ledger.buyOrder(c.sku);
      return { ...base, target: c.sku, sku: c.sku, account, fields: buyOrderFields(c, row ?? undefined), note: c.kind === 'buyOrder.create' ? BUY_ORDER_CUT_NOTE : null };
    }
    case 'listing.deleteAll': {
      const n = removed('listings', c.active_only);
      const what = c.active_only ? 'listings visible on the market' : 'listings, inactive ones and their history included';
      return { ...base, target: 'all', sku: null, account: null, fields: [{ field: 'listings', before: n, after: 0 }], note: `removes ${n} ${what} (counted from the ledger)${replacedNote(c.replaced)}; not undoable` };
    }
    case 'buyOrder.deleteAll': {
      const n = removed('buyOrders', false);
      return { ...base, target: 'all', sku: null, account: null, fields: [{ field: 'buy orders', before: n, after: 0 }], note: `removes ${n} buy orders (their unfilled parts)${replacedNote(c.replaced)}; not undoable` };
    }
  }
}

/** What a delete-all replaced when it was drafted: those edits and deletes left the draft. */
function replacedNote(replaced: number | undefined): string {
  if (!replaced) return '';
  return `; it replaced ${replaced} pending ${replaced === 1 ? 'edit or delete' : 'edits and deletes'} of rows it removes, which left the draft`;
}

function listingFields(c: Extract<Change, { kind: `listing.${string}` }>, row: ListingRow | undefined): FieldDiff[] {
  if (c.kind === 'listing.delete') {
    return [{ field: 'listing', before: row?.listing_id ?? c.asset_id, after: null }, ...diff('price', row?.price, null)];
  }
  if (c.kind === 'listing.deleteAll') return [];
  const creating = c.kind === 'listing.create';
  // Listing an asset again after deleting it starts from nothing.
  const before = creating ? undefined : row;
  return [
    ...diff('price', before?.price, c.price),
    ...diff('promoted', before?.promoted, c.promoted),
    ...diff('user_note', before?.user_note, c.user_note),
    ...(creating ? [...diff('game', null, c.game), ...diff('account', null, c.account)] : []),
  ];
}

function buyOrderFields(c: Extract<Change, { kind: `buyOrder.${string}` }>, row: BuyOrderRow | undefined): FieldDiff[] {
  if (c.kind === 'buyOrder.delete') return [{ field: 'buy order', before: row ? `${row.quantity} × ${row.price}` : c.sku, after: null }];
  if (c.kind === 'buyOrder.deleteAll') return [];
  const before = c.kind === 'buyOrder.create' ? undefined : row;
  return [
    ...diff('price', before?.price, c.price),
    ...diff('quantity', before?.quantity, c.quantity),
    ...diff('active', before?.active, c.kind === 'buyOrder.edit' ? c.active : undefined),
    ...diff('user_note', before?.user_note, c.user_note),
    ...(c.kind === 'buyOrder.create' ? diff('account', null, c.account) : []),
  ];
}
