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
  /** Send `Retry-After` with this many seconds; Steam's own 429s carry none. */
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
