import type { CreateListingItem, CreatedListing, DeleteListingItem, EditListingItem } from '../../core/api/schemas.ts';
import type { Random } from '../catalog/prng.ts';
import { hexString } from '../catalog/prng.ts';
import { refuseItem } from './refusal.ts';
import type { Inventory } from './inventory.ts';

/**
 * The account's listings. The service has no "list my listings" endpoint, so
 * this record is visible only through the admin API; requests see it through
 * what creates return and what edits and deletes accept or refuse.
 */

/** Active: visible on the market. Inactive: hidden but still standing. Sold and cancelled: history. */
export type ListingState = 'active' | 'sold' | 'cancelled' | 'inactive';

export interface SandboxListing {
  readonly listing_id: string;
  readonly asset_id: string;
  readonly sku: string;
  price: number;
  promoted: 0 | 1;
  readonly game: string;
  user_note: string | null;
  readonly account: string;
  state: ListingState;
  readonly createdAt: number;
  /** Moves when the price changes: the listing's timestamp in search results. */
  updatedAt: number;
  /** Edit requests that named this listing after it stopped standing (sold, cancelled): each one was refused. */
  editsAfterEnd: number;
}

/** A standing listing holds its asset: a second create for that asset is a duplicate. */
export function isLive(listing: SandboxListing): boolean {
  return listing.state === 'active' || listing.state === 'inactive';
}

export interface CreateOutcome {
  readonly created: CreatedListing[];
  /** Items naming an asset that already had a live listing; not created again. */
  readonly duplicates: number;
}

export class Listings {
  private readonly byId = new Map<string, SandboxListing>();
  private readonly liveByAsset = new Map<string, SandboxListing>();
  private readonly inventory: Inventory;
  private readonly random: Random;

  constructor(inventory: Inventory, random: Random) {
    this.inventory = inventory;
    this.random = random;
  }

  all(): SandboxListing[] {
    return [...this.byId.values()];
  }

  get size(): number {
    return this.byId.size;
  }

  liveFor(assetId: string): SandboxListing | undefined {
    return this.liveByAsset.get(assetId);
  }

  /**
   * Creates listings for `account`; refuses the whole batch if any asset is
   * not that account's. An asset that already has a standing listing is
   * skipped, or refuses the batch when `refuseDuplicates` is set.
   */
  create(account: string, items: readonly CreateListingItem[], now: number, refuseDuplicates = false): CreateOutcome {
    items.forEach((item, index) => {
      const asset = this.inventory.get(item.asset_id);
      if (!asset || asset.account !== account) refuseItem(index, 'asset_id', `asset ${item.asset_id} is not in the inventory of account ${account}`);
      if (!this.inventory.held(item.asset_id)) refuseItem(index, 'asset_id', `asset ${item.asset_id} has left the inventory`);
      if (asset.game !== item.game) refuseItem(index, 'game', `asset ${item.asset_id} belongs to game ${asset.game}`);
      if (refuseDuplicates && this.liveByAsset.has(item.asset_id)) refuseItem(index, 'asset_id', `asset ${item.asset_id} is already listed`);
    });
    const created: CreatedListing[] = [];
    let duplicates = 0;
    for (const item of items) {
      if (this.liveByAsset.has(item.asset_id)) {
        duplicates++;
        continue;
      }
      const listing = this.insert(account, item, 'active', now);
      created.push({ listing_id: listing.listing_id, sku: listing.sku, asset_id: listing.asset_id });
    }
    return { created, duplicates };
  }

  /** Lists an asset without the request path (admin seeding); the caller checks it is free. */
  insert(account: string, item: CreateListingItem, state: ListingState, now: number): SandboxListing {
    const asset = this.inventory.get(item.asset_id);
    if (!asset) throw new RangeError(`unknown asset ${item.asset_id}`);
    const listing: SandboxListing = {
      listing_id: this.newId(),
      asset_id: item.asset_id,
      sku: asset.sku,
      price: item.price,
      promoted: item.promoted,
      game: item.game,
      user_note: item.user_note ? item.user_note : null,
      account,
      state,
      createdAt: now,
      updatedAt: now,
      editsAfterEnd: 0,
    };
    this.byId.set(listing.listing_id, listing);
    if (isLive(listing)) this.liveByAsset.set(listing.asset_id, listing);
    if (state === 'sold') this.inventory.markGone(listing.asset_id);
    return listing;
  }

  /**
   * Edits by listing_id; refuses the whole batch, naming the first bad item,
   * if any ID is unknown or no longer standing (`endedUnknown`: a listing no
   * longer standing is named as unknown, as a service keeping no history would).
   */
  edit(items: readonly EditListingItem[], now: number, endedUnknown = false): number {
    // Counted before refusing: every request that names an ended listing is one too many.
    for (const item of items) {
      const listing = this.byId.get(item.listing_id);
      if (listing && !isLive(listing)) listing.editsAfterEnd++;
    }
    const targets = items.map((item, index) => {
      const listing = this.byId.get(item.listing_id);
      if (!listing) return refuseItem(index, 'listing_id', `no listing ${item.listing_id}`);
      if (!isLive(listing)) {
        return refuseItem(index, 'listing_id', endedUnknown ? `unknown listing ${item.listing_id}` : `listing ${item.listing_id} is ${listing.state}`);
      }
      return listing;
    });
    items.forEach((item, index) => {
      const listing = targets[index];
      if (!listing) return;
      if (listing.price !== item.price) listing.updatedAt = now;
      listing.price = item.price;
      listing.promoted = item.promoted;
      // Absent keeps the note; an empty string removes it.
      if (item.user_note !== undefined) listing.user_note = item.user_note === '' ? null : item.user_note;
    });
    return items.length;
  }

  /** Deletes the standing listing of each asset; refuses the batch if an asset has none. */
  deleteByAsset(items: readonly DeleteListingItem[]): number {
    items.forEach((item, index) => {
      if (!this.liveByAsset.has(item.asset_id)) refuseItem(index, 'asset_id', `no listing for asset ${item.asset_id}`);
    });
    let deleted = 0;
    for (const item of items) {
      const listing = this.liveByAsset.get(item.asset_id);
      if (!listing) continue; // named twice in one batch
      this.remove(listing);
      deleted++;
    }
    return deleted;
  }

  /** `activeOnly`: only what is visible on the market; otherwise every record, history included. */
  deleteAll(activeOnly: boolean): number {
    let deleted = 0;
    for (const listing of [...this.byId.values()]) {
      if (activeOnly && listing.state !== 'active') continue;
      this.remove(listing);
      deleted++;
    }
    return deleted;
  }

  /** Active listings, oldest first (what a buyer can take). */
  active(): SandboxListing[] {
    return [...this.liveByAsset.values()].filter((l) => l.state === 'active');
  }

  /** Removes a listing without the request path: the trader deleted it on the website. */
  removeById(listingId: string): SandboxListing {
    const listing = this.byId.get(listingId);
    if (!listing) throw new RangeError(`no listing ${listingId}`);
    this.remove(listing);
    return listing;
  }

  setState(listingId: string, state: ListingState): SandboxListing {
    const listing = this.byId.get(listingId);
    if (!listing) throw new RangeError(`no listing ${listingId}`);
    if (!isLive(listing) && isLive({ ...listing, state }) && this.liveByAsset.has(listing.asset_id)) {
      throw new RangeError(`asset ${listing.asset_id} already has a standing listing`);
    }
    listing.state = state;
    if (isLive(listing)) this.liveByAsset.set(listing.asset_id, listing);
    else if (this.liveByAsset.get(listing.asset_id) === listing) this.liveByAsset.delete(listing.asset_id);
    if (state === 'sold') this.inventory.markGone(listing.asset_id);
    return listing;
  }

  private remove(listing: SandboxListing): void {
    this.byId.delete(listing.listing_id);
    if (this.liveByAsset.get(listing.asset_id) === listing) this.liveByAsset.delete(listing.asset_id);
  }

  private newId(): string {
    for (;;) {
      const id = `lst_${hexString(this.random, 20)}`;
      if (!this.byId.has(id)) return id;
    }
  }
}
