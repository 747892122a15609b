import type { Repos } from '../store/index.ts';
import type { Store } from '../store/db.ts';
import type { BuyOrderRow } from '../store/buy-orders-repo.ts';
import type { ListingRow } from '../store/listings-repo.ts';
import { entryOf, entrySelect, type EntryRecord } from '../store/draft-columns.ts';
import { BUY_ORDERS_DELETE_ALL, buyOrderDeleteKey, buyOrderKey, isSettled, listingDeleteKey, listingKey, LISTINGS_DELETE_ALL, type DraftEntry } from './change.ts';
import { removedByDeleteAll } from '../ledger/ledger-rows.ts';
import type { DeleteAllInput, LedgerLookup, MergeContext } from './merge.ts';
import type { Staging } from './draft-staging.ts';

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

/** The draft rows and ledger keys an input will be checked against, read from its raw fields. */
function keysOf(inputs: readonly unknown[]): { targets: string[]; assets: string[]; skus: string[] } {
  const assets = new Set<string>();
  const skus = new Set<string>();
  for (const raw of inputs) {
    if (typeof raw !== 'object' || raw === null) continue;
    const { asset_id: asset, sku } = raw as Record<string, unknown>;
    if (typeof asset === 'string') assets.add(asset);
    if (typeof sku === 'string') skus.add(sku);
  }
  const targets = [LISTINGS_DELETE_ALL, BUY_ORDERS_DELETE_ALL];
  for (const a of assets) targets.push(listingKey(a), listingDeleteKey(a));
  for (const s of skus) targets.push(buyOrderKey(s), buyOrderDeleteKey(s));
  return { targets, assets: [...assets], skus: [...skus] };
}

export function draftContext(
  store: Pick<Store, 'db'>,
  repos: Pick<Repos, 'listings' | 'buyOrders' | 'drafts' | 'accounts'>,
  draftId: string,
  staged: Pick<Staging, 'get' | 'has' | 'values' | 'warm'>,
): MergeContext {
  const cols = entrySelect('e');
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
  /** Stored live entries matching `where`, then staged ones `keep` accepts, each target once, staged first. */
  function* liveWhere(sql: string, params: readonly (string | number)[], keep: (e: DraftEntry) => boolean): Iterable<DraftEntry> {
    for (const e of staged.values()) if (!isSettled(e.status) && keep(e)) yield e;
    for (const row of store.db.prepare(sql).iterate(draftId, ...params) as Iterable<EntryRecord>) {
      const e = entryOf(row);
      if (!staged.has(e.target)) yield e;
    }
  }
  return {
    ledger,
    live,
    replacedBy(input: DeleteAllInput) {
      if (input.kind === 'buyOrder.deleteAll') {
        return liveWhere(`SELECT ${cols} FROM draft_entries e WHERE e.draft_id = ? AND e.kind IN ('buyOrder.edit', 'buyOrder.delete')
          AND e.status NOT IN ('done', 'dropped')`, [], (e) => e.change.kind === 'buyOrder.edit' || e.change.kind === 'buyOrder.delete');
      }
      const removes = (assetId: string) => {
        const row = ledger.listing(assetId);
        return row === null || removedByDeleteAll(row.state, input.active_only);
      };
      return liveWhere(`SELECT ${cols} FROM draft_entries e LEFT JOIN listings l ON l.asset_id = e.key
          WHERE e.draft_id = ? AND e.kind IN ('listing.edit', 'listing.delete') AND e.status NOT IN ('done', 'dropped')
            AND (l.asset_id IS NULL OR ? = 0 OR l.state = 'active')`, [input.active_only ? 1 : 0],
      (e) => (e.change.kind === 'listing.edit' || e.change.kind === 'listing.delete') && removes(e.change.asset_id));
    },
    createsOfHeld(domain) {
      const listings = domain === 'listings';
      const held = (e: DraftEntry) => (e.change.kind === 'listing.create' ? ledger.listing(e.change.asset_id) !== null
        : e.change.kind === 'buyOrder.create' ? ledger.buyOrder(e.change.sku) !== null : false);
      return liveWhere(`SELECT ${cols} FROM draft_entries e WHERE e.draft_id = ? AND e.kind = ? AND e.status NOT IN ('done', 'dropped')
          AND EXISTS (SELECT 1 FROM ${listings ? 'listings h WHERE h.asset_id' : 'buy_orders h WHERE h.sku'} = e.key)`,
      [listings ? 'listing.create' : 'buyOrder.create'], (e) => e.change.kind === (listings ? 'listing.create' : 'buyOrder.create') && held(e));
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
