import type { SandboxCounters } from './state/world.ts';
import type { EndpointName } from '../core/api/endpoints.ts';
import type { KeyKind } from './state/accounts.ts';
import type { InventoryRequestRecord } from './steam-inventory.ts';

/**
 * What the sandbox received, for tests and benchmarks to assert on: one record
 * per request and running counters. The API key itself is never recorded,
 * only how it was judged.
 */

/** Which fault knob shaped the response, if any. */
export type AppliedFault = 'delay' | 'drop' | 'resetMidBody' | 'serverError' | 'serverErrorAfterProcess' | 'malformed' | 'storm429' | 'silent' | 'echoKey' | 'echoKeyEncoded'
  | 'echoKeyInError' | 'echoKeyInHeader' | 'echoKeyInTrades' | 'hostileItemName' | 'balanceMove' | 'lateAnswer'
  | 'relistCompleted' | 'hostileTradeNumber' | 'negativeTradeTotal' | 'tradeFlood';

export interface RecordedRequest {
  /** Sandbox clock ms when the request arrived. */
  readonly at: number;
  readonly endpoint: EndpointName | null;
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  /** Status sent, or would have been sent for a dropped connection; 0 when the sandbox stayed silent. */
  readonly status: number;
  /** Elements of `items` in the body (0 when none or unreadable). */
  readonly itemCount: number;
  readonly keyKind: KeyKind;
  readonly faults: readonly AppliedFault[];
  /** The request was handled and then its connection dropped: the client cannot know the outcome. */
  readonly dropped: boolean;
}


export interface SandboxLog {
  readonly requests: readonly RecordedRequest[];
  /** Requests to Steam's community inventory (kept apart: they are not the service's), once answered. */
  readonly inventoryRequests: readonly InventoryRequestRecord[];
  /** Inventory requests received and not answered yet (a late answer knob holds them). */
  readonly inventoryPending: number;
  readonly counters: Readonly<SandboxCounters>;
  /** Forgets the records and zeroes the counters (state is kept). */
  reset(): void;
}

function zeroCounters(): SandboxCounters {
  return {
    requests: 0,
    duplicateCreates: 0,
    listingsCreated: 0,
    listingsEdited: 0,
    listingsDeleted: 0,
    buyOrdersCreated: 0,
    buyOrderQuantityCut: 0,
    buyOrdersSkippedNoFunds: 0,
    duplicateBuyOrderCreates: 0,
    buyOrdersEdited: 0,
    buyOrdersDeleted: 0,
    buyOrderUnitsFilled: 0,
    listingsSold: 0,
    count429: 0,
    countStorm429: 0,
    count400: 0,
    count401: 0,
    count403: 0,
    count404: 0,
    count5xx: 0,
    dropped: 0,
    malformed: 0,
    delayed: 0,
    failedAfterProcess: 0,
    silent: 0,
  };
}

export class RequestLog implements SandboxLog {
  readonly requests: RecordedRequest[] = [];
  readonly inventoryRequests: InventoryRequestRecord[] = [];
  inventoryPending = 0;
  readonly counters: SandboxCounters = zeroCounters();

  recordInventory(entry: InventoryRequestRecord): void {
    this.inventoryRequests.push(entry);
  }

  record(entry: RecordedRequest): void {
    this.requests.push(entry);
    const c = this.counters;
    c.requests++;
    if (entry.status === 429) c.count429++;
    if (entry.status === 429 && entry.faults.includes('storm429')) c.countStorm429++;
    if (entry.status === 400) c.count400++;
    if (entry.status === 401) c.count401++;
    if (entry.status === 403) c.count403++;
    if (entry.status === 404) c.count404++;
    if (entry.status >= 500) c.count5xx++;
    if (entry.dropped) c.dropped++;
    if (entry.faults.includes('malformed')) c.malformed++;
    if (entry.faults.includes('delay')) c.delayed++;
    if (entry.faults.includes('serverErrorAfterProcess')) c.failedAfterProcess++;
    if (entry.faults.includes('silent')) c.silent++;
  }

  reset(): void {
    this.requests.length = 0;
    this.inventoryRequests.length = 0;
    Object.assign(this.counters, zeroCounters());
  }
}

export type { SandboxCounters };
