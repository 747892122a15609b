import { drawItem, inventoryMix, SANDBOX_GAME } from '../catalog/catalog.ts';
import { streamFor } from '../catalog/prng.ts';

/**
 * The seeded items each account owns. Creating a listing names an asset; the
 * sandbox answers with that asset's SKU, so the inventory must exist before any
 * request. Generated once from the seed, so the same seed gives the same assets;
 * each account draws from its own mix of the catalog (catalog.ts).
 */

export interface Asset {
  readonly asset_id: string;
  readonly sku: string;
  readonly game: string;
  readonly account: string;
  /** A plausible price in cents, used when the admin API seeds listings. */
  readonly suggestedPrice: number;
}

const INVENTORY_STREAM = 1;

export class Inventory {
  private readonly assets = new Map<string, Asset>();
  private readonly byAccount = new Map<string, Asset[]>();
  /** Assets that left the account (a sale); they can no longer be listed. */
  private readonly gone = new Set<string>();

  /**
   * @param sizes how many assets each account owns, main account first.
   */
  constructor(seed: number, sizes: ReadonlyArray<readonly [account: string, size: number]>) {
    sizes.forEach(([account, size], accountIndex) => {
      const random = streamFor(seed, INVENTORY_STREAM, accountIndex);
      // Disjoint, increasing ID ranges per account, like the platform's asset IDs.
      let next = 11_000_000_000 + accountIndex * 700_000_000 + Math.floor(random() * 1_000_000);
      const list: Asset[] = [];
      for (let i = 0; i < size; i++) {
        next += 1 + Math.floor(random() * 40);
        const item = drawItem(random, inventoryMix(accountIndex));
        const asset: Asset = {
          asset_id: String(next),
          sku: item.sku,
          game: SANDBOX_GAME,
          account,
          suggestedPrice: item.price,
        };
        list.push(asset);
        this.assets.set(asset.asset_id, asset);
      }
      this.byAccount.set(account, list);
    });
  }

  get(assetId: string): Asset | undefined {
    return this.assets.get(assetId);
  }

  /** Whether the asset is still owned (not sold away). */
  held(assetId: string): boolean {
    return this.assets.has(assetId) && !this.gone.has(assetId);
  }

  markGone(assetId: string): void {
    this.gone.add(assetId);
  }

  /** Owned assets of one account, in ID order. */
  owned(account: string): Asset[] {
    return (this.byAccount.get(account) ?? []).filter((a) => !this.gone.has(a.asset_id));
  }
}
