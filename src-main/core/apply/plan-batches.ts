import type { EndpointName, ItemizedEndpoint, ItemOf, RequestOf } from '../api/endpoints.ts';
import { splitIntoRequests } from '../api/split-requests.ts';
import { endpointOf, type Phase } from '../drafts/change-endpoints.ts';
import { buyOrderDeleteKey, listingDeleteKey, type Change } from '../drafts/change.ts';
import type { BuyOrderRow } from '../store/buy-orders-repo.ts';
import { isEnded, type ListingRow } from '../store/listings-repo.ts';

/**
 * Turns a draft's changes into requests: batches of at most 100 items per
 * endpoint and per `multiaccount_proxy` (only creates carry one), in phases
 * so that a delete-all runs before anything else and deleting an asset (or a
 * SKU) runs before listing it again. Within a phase every endpoint runs side
 * by side; the scheduler paces each at its own limit.
 */

export { endpointOf, PHASES, type Phase } from '../drafts/change-endpoints.ts';

export interface PlannedBatch {
  readonly endpoint: EndpointName;
  /** The linked account a create acts for; null for the main account and for other endpoints. */
  readonly proxy: string | null;
  readonly phase: Phase;
  /** Draft targets, parallel to the request's items (one for a delete-all). */
  readonly targets: readonly string[];
  readonly input: RequestOf<EndpointName>;
}

export interface PlanEntry {
  readonly target: string;
  readonly change: Change;
}

/**
 * The phase of a change, given the targets of the deletes going in the same
 * apply: a create waits for a delete of the same asset or SKU.
 */
export function phaseOf(change: Change, deletes: ReadonlySet<string>): Phase {
  if (change.kind === 'listing.deleteAll' || change.kind === 'buyOrder.deleteAll') return 0;
  if (change.kind === 'listing.create' && deletes.has(listingDeleteKey(change.asset_id))) return 2;
  if (change.kind === 'buyOrder.create' && deletes.has(buyOrderDeleteKey(change.sku))) return 2;
  return 1;
}

/** Ledger lookups by asset and SKU: the in-memory view, or the repositories row by row. */
export interface LedgerLookup {
  readonly listings: { get(assetId: string): ListingRow | undefined };
  readonly buyOrders: { get(sku: string): BuyOrderRow | undefined };
}

/** The ledger read row by row (planning and the check before sending touch only a run's targets). */
export function repoLookup(repos: { listings: { get(id: string): ListingRow | null }; buyOrders: { get(sku: string): BuyOrderRow | null } }): LedgerLookup {
  return {
    listings: { get: (id) => repos.listings.get(id) ?? undefined },
    buyOrders: { get: (sku) => repos.buyOrders.get(sku) ?? undefined },
  };
}

type LedgerRepos = {
  listings: { get(id: string): ListingRow | null; getMany(ids: readonly string[]): ListingRow[] };
  buyOrders: { get(sku: string): BuyOrderRow | null; getMany(skus: readonly string[]): BuyOrderRow[] };
};

/**
 * The ledger rows a group of changes is about, read at once (a query for
 * each table) instead of one by one while each change is planned; a row not
 * among them is read as `repoLookup` reads it.
 */
export function readAhead(repos: LedgerRepos, changes: Iterable<Change>): LedgerLookup {
  const assetIds = new Set<string>();
  const skus = new Set<string>();
  for (const c of changes) {
    if (c.kind === 'listing.create' || c.kind === 'listing.edit' || c.kind === 'listing.delete') assetIds.add(c.asset_id);
    else if (c.kind === 'buyOrder.create' || c.kind === 'buyOrder.edit' || c.kind === 'buyOrder.delete') skus.add(c.sku);
  }
  const listings = new Map(repos.listings.getMany([...assetIds]).map((r) => [r.asset_id, r]));
  const orders = new Map(repos.buyOrders.getMany([...skus]).map((r) => [r.sku, r]));
  const rest = repoLookup(repos);
  return {
    listings: { get: (id) => (assetIds.has(id) ? listings.get(id) : rest.listings.get(id)) },
    buyOrders: { get: (sku) => (skus.has(sku) ? orders.get(sku) : rest.buyOrders.get(sku)) },
  };
}

/** An edit that would set what the ledger already holds: nothing to send. */
export function isNoOpEdit(change: Change, ledger: LedgerLookup): boolean {
  if (change.kind === 'listing.edit') {
    const row = ledger.listings.get(change.asset_id);
    return row !== undefined && row.listing_id === change.listing_id && row.price === change.price && row.promoted === change.promoted
      && (change.user_note === undefined || change.user_note === row.user_note);
  }
  if (change.kind === 'buyOrder.edit') {
    const row = ledger.buyOrders.get(change.sku);
    return row !== undefined && !row.quantity_may_be_cut && row.price === change.price && row.quantity === change.quantity
      && row.active === change.active && (change.user_note === undefined || change.user_note === row.user_note);
  }
  return false;
}

/** An edit or delete of a listing the service no longer holds (sold, gone): never sent. */
export function isToEndedListing(change: Change, ledger: LedgerLookup): boolean {
  if (change.kind !== 'listing.edit' && change.kind !== 'listing.delete') return false;
  const state = ledger.listings.get(change.asset_id)?.state;
  return state !== undefined && isEnded(state);
}

const withNote = <T extends object>(item: T, note: string | undefined): T => (note === undefined ? item : { ...item, user_note: note });

/** The wire item of an itemized change; null for a delete-all. */
export function itemOf(change: Change): ItemOf<ItemizedEndpoint> | null {
  switch (change.kind) {
    case 'listing.create':
      return withNote({ asset_id: change.asset_id, price: change.price, promoted: change.promoted, game: change.game }, change.user_note);
    case 'listing.edit':
      return withNote({ listing_id: change.listing_id, price: change.price, promoted: change.promoted }, change.user_note);
    case 'listing.delete':
      return { asset_id: change.asset_id };
    case 'buyOrder.create':
      return withNote({ sku: change.sku, price: change.price, quantity: change.quantity }, change.user_note);
    case 'buyOrder.edit':
      return withNote({ sku: change.sku, price: change.price, quantity: change.quantity, active: change.active }, change.user_note);
    case 'buyOrder.delete':
      return { sku: change.sku };
    default:
      return null;
  }
}

/** The proxy a change is sent with: creates for a linked account name it. */
export function proxyOf(change: Change, mainAccount: string): string | null {
  if ((change.kind === 'listing.create' || change.kind === 'buyOrder.create') && change.account !== mainAccount) return change.account;
  return null;
}

/**
 * Batches for the entries of one phase, in draft order within each group.
 * Validates every item with the request schemas (ApiError 'invalid' naming
 * the item), so nothing the service would refuse for a knowable reason is sent.
 */
export function planBatches(entries: readonly PlanEntry[], phase: Phase, mainAccount: string): PlannedBatch[] {
  const groups = new Map<string, { endpoint: EndpointName; proxy: string | null; entries: PlanEntry[] }>();
  for (const e of entries) {
    const endpoint = endpointOf(e.change);
    const proxy = proxyOf(e.change, mainAccount);
    const key = `${endpoint}|${proxy ?? ''}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { endpoint, proxy, entries: [] }));
    group.entries.push(e);
  }
  const batches: PlannedBatch[] = [];
  for (const { endpoint, proxy, entries: group } of groups.values()) {
    if (endpoint === 'delete_all_listings' || endpoint === 'delete_all_buy_orders') {
      for (const e of group) {
        const input: RequestOf<'delete_all_listings'> | RequestOf<'delete_all_buy_orders'> =
          e.change.kind === 'listing.deleteAll' ? { active_only: e.change.active_only } : {};
        batches.push({ endpoint, proxy: null, phase, targets: [e.target], input });
      }
      continue;
    }
    const items = group.map((e) => itemOf(e.change)) as ItemOf<ItemizedEndpoint>[];
    const rest = proxy === null ? undefined : { multiaccount_proxy: proxy };
    const requests = splitIntoRequests(endpoint as ItemizedEndpoint, items as never, rest as never);
    requests.forEach((input, n) => {
      const targets = group.slice(n * 100, n * 100 + 100).map((e) => e.target);
      batches.push({ endpoint, proxy, phase, targets, input: input as RequestOf<EndpointName> });
    });
  }
  return batches;
}
