/**
 * The knobs of Steam's community inventory as the sandbox serves it (see
 * steam-inventory.ts): the ways Steam refuses or fails a reader, so the
 * desk's handling of each can be tested. Set through `SandboxFaults.set`
 * like the service's own knobs.
 */

/** Which inventories Steam answers as private (403 with a `null` body); every account's when absent. */
export interface InventoryPrivateFault {
  readonly accounts?: readonly string[];
}

export interface Inventory429Fault {
  /** Answer this many inventory requests with a 429, then stop. Unlimited when absent. */
  readonly count?: number;
  /**
   * Send `Retry-After` with this many seconds, however many (9,999,999,999:
   * the wait a broken proxy asks for); Steam's own 429s carry none.
   */
  readonly retryAfterSec?: number;
}

export interface InventoryMalformedFault {
  readonly count?: number;
  /**
   * `invalid_json` (default): the body is cut off; `missing_field`: the first
   * asset has no `classid`; `wrong_type`: `total_inventory_count` is text.
   */
  readonly kind?: 'invalid_json' | 'missing_field' | 'wrong_type';
}

export interface InventoryServerErrorFault {
  readonly count?: number;
  /** Default 502. */
  readonly status?: number;
}

export interface InventoryDelayFault {
  /** Sandbox-clock ms to wait before answering an inventory request. */
  readonly ms: number;
  readonly count?: number;
}

/**
 * An inventory whose answer never ends: past its last page Steam keeps saying
 * `more_items`. `same`: the page of its oldest items again, with the same
 * `last_assetid`; `empty`: pages with no assets, each naming a new
 * `last_assetid`; `new_ids`: pages of assets never sent before, new IDs each
 * time; `same_start`: such a page whose `last_assetid` is the
 * `start_assetid` asked (Steam points back to the page just read). The pages
 * before the end are the real ones.
 */
export type InventoryEndlessKind = 'same' | 'empty' | 'new_ids' | 'same_start';

export interface InventoryEndlessFault {
  /** Default `same`. */
  readonly kind?: InventoryEndlessKind;
  /** Assets a `new_ids` or `same_start` page carries; as many as asked when absent. */
  readonly perPage?: number;
  readonly count?: number;
}

/** Every page's `total_inventory_count` says this many items, whatever the inventory holds. */
export interface InventoryLyingTotalFault {
  readonly total: number;
  readonly count?: number;
}
