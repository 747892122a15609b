import type { SteamAsset, SteamPage } from './steam-answer.ts';

/**
 * Where a read of one inventory stops, and how long it waits, whatever
 * Steam's answer says. A TF2 backpack holds at most 3,000 items today, read
 * in pages of up to 2,000: an answer that goes on past the bounds below, or
 * whose pages add nothing new, or that points back to a page already read,
 * is not an inventory still being read but an answer that never ends. The
 * desk's own count is the one shown: Steam's `total_inventory_count` can say
 * anything.
 */

/** Items one read takes at most (a TF2 backpack holds 3,000). */
export const MAX_INVENTORY_ITEMS = 5_000;
/** Pages one read asks for at most (3,000 items are two full pages). */
export const MAX_INVENTORY_PAGES = 20;
/** The longest wait a 429 gets, whatever its Retry-After asks: the wait is said on screen and no timer overflows. */
export const MAX_RETRY_AFTER_MS = 15 * 60_000;

/** Why a read stopped although Steam said there were more items. */
export type ReadStop = 'nothing_new' | 'repeated_start' | 'items' | 'pages';

/** What a read has seen so far, for the bounds. */
export interface ReadSoFar {
  /** Items written. */
  readonly position: number;
  /** Pages answered, this one included. */
  readonly pages: number;
  /** Every asset read in this pass. */
  readonly assets: ReadonlySet<string>;
  /** Every start_assetid asked for in this pass. */
  readonly starts: ReadonlySet<string>;
}

/** The page's assets not read before in this pass, up to the item bound; `cut` when the bound left some out. */
export function freshAssets(read: ReadSoFar, page: SteamPage): { fresh: SteamAsset[]; cut: boolean } {
  const fresh: SteamAsset[] = [];
  const ids = new Set<string>();
  for (const asset of page.assets ?? []) {
    if (read.assets.has(asset.assetid) || ids.has(asset.assetid)) continue;
    if (read.position + fresh.length >= MAX_INVENTORY_ITEMS) return { fresh, cut: true };
    ids.add(asset.assetid);
    fresh.push(asset);
  }
  return { fresh, cut: false };
}

/**
 * Why the read stops after this page (its `fresh` assets written), or null:
 * it reads on when Steam says there are more, it ends when Steam says not.
 */
export function stopAfter(read: ReadSoFar, page: SteamPage, fresh: number, cut: boolean): ReadStop | null {
  if (cut) return 'items';
  if (!saysMore(page)) return null;
  if (fresh === 0) return 'nothing_new';
  if (read.position >= MAX_INVENTORY_ITEMS) return 'items';
  if (page.last_assetid !== undefined && read.starts.has(page.last_assetid)) return 'repeated_start';
  if (read.pages >= MAX_INVENTORY_PAGES) return 'pages';
  return null;
}

/** Steam says the inventory goes on past this page. */
export function saysMore(page: SteamPage): boolean {
  return page.more_items === 1 || page.more_items === true;
}

/** Steam's count of the inventory, when it can be true: no fewer than the desk has read, and within the bound. */
export function plausibleTotal(total: number, read: number): number | null {
  return total >= read && total <= MAX_INVENTORY_ITEMS ? total : null;
}

/** How long to wait after a 429: what Steam asks, up to the cap, or the desk's own backoff when it asks nothing. */
export function retryWaitMs(askedMs: number | undefined, backoffMs: () => number): number {
  return askedMs === undefined ? backoffMs() : Math.min(Math.max(0, askedMs), MAX_RETRY_AFTER_MS);
}
