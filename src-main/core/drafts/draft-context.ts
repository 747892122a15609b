import { removedByDeleteAll } from '../ledger/ledger-rows.ts';
import type { BuyOrderRow } from '../store/buy-orders-repo.ts';
import type { DraftReads } from '../store/draft-reads.ts';
import type { Repos } from '../store/index.ts';
import type { ListingRow } from '../store/listings-repo.ts';
import {
  BUY_ORDERS_DELETE_ALL, buyOrderDeleteKey, buyOrderKey, isSettled, listingDeleteKey, listingKey, LISTINGS_DELETE_ALL, type DraftEntry, type ParsedChangeInput,
} from './change.ts';
import type { Staging } from './draft-staging.ts';
import type { DeleteAllInput, LedgerLookup, MergeContext } from './merge.ts';

/**
 * What the merge rules read, answered by the store a row at a time, seen
 * through the changes staged but not yet written (`staged`, later inputs of
 * one call seeing earlier ones). A staged `dropped` entry hides the stored
 * row of its target.
 *
 * `warm` reads at once what a run of inputs will ask for (their rows of the
 * draft, of the staging and of the ledger), so merging a thousand inputs
 * costs a few queries rather than thousands of point lookups; what it did
 * not foresee is still read a row at a time.
 */
export function ledgerLookup(repos: Pick<Repos, 'listings' | 'buyOrders'>): LedgerLookup {
  return {
    listing: (id) => repos.listings.get(id),
    listingById: (id) => repos.listings.byListingId(id),
    buyOrder: (sku) => repos.buyOrders.get(sku),
  };
}

/** The ledger, with the rows of the inputs at hand read in one query per table. */
function cachedLedger(repos: Pick<Repos, 'listings' | 'buyOrders'>): LedgerLookup & { warm(assets: string[], skus: string[]): void } {
  const listings = new Map<string, ListingRow | null>();
  const buyOrders = new Map<string, BuyOrderRow | null>();
  const through = <K, V>(cache: Map<K, V | null>, key: K, read: (key: K) => V | null): V | null => {
    const known = cache.get(key);
    if (known !== undefined) return known;
    const value = read(key);
    cache.set(key, value);
    return value;
  };
  return {
    listing: (id) => through(listings, id, (k) => repos.listings.get(k)),
    listingById: (id) => repos.listings.byListingId(id),
    buyOrder: (sku) => through(buyOrders, sku, (k) => repos.buyOrders.get(k)),
    warm(assets, skus) {
      listings.clear();
      buyOrders.clear();
      for (const id of assets) listings.set(id, null);
      for (const row of repos.listings.getMany(assets)) listings.set(row.asset_id, row);
      for (const sku of skus) buyOrders.set(sku, null);
      for (const row of repos.buyOrders.getMany(skus)) buyOrders.set(row.sku, row);
    },
  };
}

/** The draft rows and ledger keys inputs will be checked against. */
function keysOf(inputs: readonly ParsedChangeInput[]): { targets: string[]; assets: string[]; skus: string[] } {
  const assets = new Set<string>();
  const skus = new Set<string>();
  for (const input of inputs) {
    if ('asset_id' in input && input.asset_id !== undefined) assets.add(input.asset_id);
    if ('sku' in input && input.sku !== undefined) skus.add(input.sku);
  }
  const targets = [LISTINGS_DELETE_ALL, BUY_ORDERS_DELETE_ALL];
  for (const a of assets) targets.push(listingKey(a), listingDeleteKey(a));
  for (const s of skus) targets.push(buyOrderKey(s), buyOrderDeleteKey(s));
  return { targets, assets: [...assets], skus: [...skus] };
}

export function draftContext(
  reads: Pick<DraftReads, 'replacedByDeleteAll' | 'createsOfHeld'>,
  repos: Pick<Repos, 'listings' | 'buyOrders' | 'drafts' | 'accounts'>,
  draftId: string,
  staged: Pick<Staging, 'get' | 'has' | 'values' | 'warm'>,
): MergeContext {
  const ledger = cachedLedger(repos);
  const accounts = new Set(repos.accounts.list().map((a) => a.account_id));
  // Stored rows read for the inputs at hand (null: none); nothing is written to the draft while they are merged.
  const stored = new Map<string, DraftEntry | null>();
  const storedEntry = (target: string): DraftEntry | null => {
    const known = stored.get(target);
    if (known !== undefined) return known;
    const e = repos.drafts.entry(draftId, target);
    stored.set(target, e);
    return e;
  };
  const live = (target: string): DraftEntry | undefined => {
    const e = staged.get(target) ?? storedEntry(target) ?? undefined;
    return e && !isSettled(e.status) ? e : undefined;
  };
  /** Staged live entries `keep` accepts, then the stored ones not staged, each target once. */
  function* liveOf(stored: Iterable<DraftEntry>, keep: (e: DraftEntry) => boolean): Iterable<DraftEntry> {
    for (const e of staged.values()) if (!isSettled(e.status) && keep(e)) yield e;
    for (const e of stored) if (!staged.has(e.target)) yield e;
  }
  return {
    ledger,
    live,
    replacedBy(input: DeleteAllInput) {
      if (input.kind === 'buyOrder.deleteAll') {
        return liveOf(reads.replacedByDeleteAll(draftId, 'buyOrders', false), (e) => e.change.kind === 'buyOrder.edit' || e.change.kind === 'buyOrder.delete');
      }
      const removes = (assetId: string) => {
        const row = ledger.listing(assetId);
        return row === null || removedByDeleteAll(row.state, input.active_only);
      };
      return liveOf(reads.replacedByDeleteAll(draftId, 'listings', input.active_only),
        (e) => (e.change.kind === 'listing.edit' || e.change.kind === 'listing.delete') && removes(e.change.asset_id));
    },
    createsOfHeld(domain) {
      const listings = domain === 'listings';
      const held = (e: DraftEntry) => (e.change.kind === 'listing.create' ? ledger.listing(e.change.asset_id) !== null
        : e.change.kind === 'buyOrder.create' ? ledger.buyOrder(e.change.sku) !== null : false);
      return liveOf(reads.createsOfHeld(draftId, domain), (e) => e.change.kind === (listings ? 'listing.create' : 'buyOrder.create') && held(e));
    },
    accountExists: (a) => accounts.has(a),
    mainAccount: repos.accounts.main()?.account_id ?? null,
    warm(inputs) {
      const { targets, assets, skus } = keysOf(inputs);
      stored.clear();
      for (const t of targets) stored.set(t, null);
      for (const e of repos.drafts.entriesFor(draftId, targets)) stored.set(e.target, e);
      staged.warm?.(targets);
      ledger.warm(assets, skus);
    },
  };
}
