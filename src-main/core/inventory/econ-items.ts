import type { EconItem } from 'tf2-item-format';
import type { ItemNames } from '../items/item-names.ts';
import { printable } from '../safe-text.ts';
import type { SteamDescription, SteamPage } from './steam-answer.ts';
import type { InventoryRow } from '../store/inventory-row.ts';

/**
 * The items of one page of Steam's inventory as the desk keeps them
 * (InventoryRow): each asset with the SKU tf2-item-format reads from its
 * description, the name the game's schema gives that SKU (the one every
 * other screen shows), and the parts the picker filters by. An item the
 * package or the schema cannot read keeps Steam's own name and no SKU: it
 * can still be listed, and the service will name it.
 */
export type { InventoryRow } from '../store/inventory-row.ts';

type Described = Omit<InventoryRow, 'asset_id'>;

/**
 * Reads a page's items [from, to), in Steam's order. `seen` remembers each
 * description read (by class and instance) across the pages of one read: the
 * same item is described on many pages and parsed once.
 */
export function rowsOfPage(
  page: SteamPage, names: Pick<ItemNames, 'describe' | 'skuOfEcon'>, seen: Map<string, Described>, from = 0, to = page.assets?.length ?? 0,
): InventoryRow[] {
  const descriptions = new Map((page.descriptions ?? []).map((d) => [`${d.classid}_${d.instanceid}`, d]));
  return (page.assets ?? []).slice(from, to).map((asset) => {
    const key = `${asset.classid}_${asset.instanceid}`;
    let described = seen.get(key);
    if (described === undefined) {
      const description = descriptions.get(key);
      // The client refuses a page with an asset it cannot describe; this is only a second guard.
      if (description === undefined) throw new RangeError(`asset ${asset.assetid} has no description`);
      described = describe(description, asset.assetid, names);
      seen.set(key, described);
    }
    return { asset_id: asset.assetid, ...described };
  });
}

function describe(d: SteamDescription, assetId: string, names: Pick<ItemNames, 'describe' | 'skuOfEcon'>): Described {
  const tradable = d.tradable === 1 || d.tradable === true;
  const uncraftableLine = (d.descriptions ?? []).some((l) => /not usable in crafting/i.test(l.value));
  const sku = names.skuOfEcon({ ...d, assetid: assetId } as unknown as EconItem);
  const item = sku === null ? null : names.describe(sku);
  if (item === null || !item.known) {
    return {
      sku: '', name: printable(d.market_hash_name, 200), quality: null, qualityName: '', strange: false, effect: null, killstreak: 0, wear: null,
      australium: false, festivized: false, craftable: !uncraftableLine, tradable,
    };
  }
  return {
    sku: item.sku,
    name: item.name,
    quality: item.quality.id,
    qualityName: item.quality.name,
    strange: item.strange,
    effect: item.effect?.id ?? null,
    killstreak: item.killstreak?.id ?? 0,
    wear: item.wear?.id ?? null,
    australium: item.australium,
    festivized: item.festivized,
    craftable: item.craftable,
    tradable,
  };
}
