import type { ListingSalesFault } from './state/sales.ts';
import type { EndpointName } from '../core/api/endpoints.ts';
import type {
  Inventory429Fault, InventoryDelayFault, InventoryEndlessFault, InventoryLyingTotalFault, InventoryMalformedFault, InventoryPrivateFault,
  InventoryServerErrorFault,
} from './inventory-faults.ts';
import type { KeySpelling, TradeEchoField } from './key-echo.ts';
import type {
  HostileTradeNumberFault, NegativeTradeTotalFault, RelistCompletedFault, TradeFloodFault,
} from './trade-faults.ts';

/**
 * Knobs that make the sandbox misbehave the ways a real service and network do,
 * so the client's and scheduler's handling of each can be tested. Every
 * per-request knob can be limited to some endpoints, to the next `count`
 * matching requests, and/or to a `probability` per request (rolled on the
 * sandbox's seeded RNG); the others (clock offset, header and refusal styles
 * and wordings, sales) hold until turned off. The knobs of Steam's
 * inventory and of the trade lists are described in their own files
 * (inventory-faults.ts, trade-faults.ts); `FaultConfig` names them all.
 */

export interface FaultScope {
  /** Only these endpoints; all endpoints when absent. */
  readonly endpoints?: readonly EndpointName[];
  /** Fire for this many matching requests, then stop. Unlimited when absent. */
  readonly count?: number;
  /** Chance per matching request, 0..1. Always when absent. */
  readonly probability?: number;
}

export interface DelayFault extends FaultScope {
  /** Sandbox-clock ms to wait before handling the request. */
  readonly ms: number;
}

export interface ResetMidBodyFault extends FaultScope {
  /** Sandbox-clock ms between the first half of the body and the reset (default 0). */
  readonly afterMs?: number;
}

export interface HostileNameFault extends FaultScope {
  /** The item name served; default markup, a right-to-left override and a bidi isolate around plain words. */
  readonly name?: string;
  /** Pads the name with "x" to this many characters (a 10 MB name: 10_000_000). */
  readonly length?: number;
}

export interface ServerErrorFault extends FaultScope {
  /** Default 500. */
  readonly status?: number;
}

export interface MalformedFault extends FaultScope {
  /** `invalid_json` (default): a 200 whose body is not JSON; `missing_field`: valid JSON lacking a required field. */
  readonly kind?: 'invalid_json' | 'missing_field';
}

export interface KeyEchoFault extends FaultScope {
  /** How the key is spelled back (see key-echo.ts); default `raw`. */
  readonly spelling?: KeySpelling;
}

export interface TradeKeyEchoFault extends KeyEchoFault {
  /** Which fields carry it: every item's `name` (the default), the trade's `status`, its `verification_code`. */
  readonly fields?: readonly TradeEchoField[];
}

/** How a refusal names the item it refuses; the interface does not say, so the client must cope with each. */
export type RefusalStyle = 'path' | 'bracket' | 'message';


export interface BalanceMoveFault extends FaultScope {
  /** Cents added to the balance (negative: taken, never below zero). */
  readonly deltaCents: number;
}

export interface Storm429Fault extends FaultScope {
  /** `retry_after` of each 429, seconds. */
  readonly retryAfterSec: number;
  /** Sandbox-clock epoch ms until which every matching request gets a 429. */
  readonly untilMs: number;
}

/**
 * One field per fault. Shorthands: a number for `delayMs` (ms, everywhere),
 * `true` for "always, everywhere", a number for `serverError` (its status).
 * `false`/`undefined` in `set` turns that fault off.
 */
export interface FaultConfig {
  /** Wait before handling: the slow-service case. */
  delayMs: number | DelayFault;
  /**
   * Handle at once, answer this much later: the answer describes the
   * service as it was when asked, and arrives after answers to requests
   * made since (a slow network, a loaded client).
   */
  lateAnswerMs: number | DelayFault;
  /** Handle the request (state changes) then destroy the socket with no response. */
  dropAfterProcess: boolean | FaultScope;
  /**
   * Handle the request (state changes), send the status, the headers and
   * half the body, then reset the connection (TCP RST) `afterMs` later: the
   * answer was on its way when the connection was cut.
   */
  resetMidBody: boolean | ResetMidBodyFault;
  /**
   * Every item of the pending trades answered (load_pending,
   * load_pending_buy_orders) carries this name instead of its own: markup and
   * text direction controls, or a name of any length.
   */
  hostileItemName: boolean | HostileNameFault;
  /** A 5xx with nothing processed. */
  serverError: boolean | number | ServerErrorFault;
  /** Handle the request, then answer 200 with a broken body. */
  malformed: boolean | MalformedFault;
  /** 429 to every matching request until `untilMs`; nothing processed, nothing counted. */
  storm429: Storm429Fault;
  /**
   * Error replies quote the API key the request carried, as careless
   * gateways do: raw, inside a JSON error quoted as a string (escaped twice),
   * and URL-encoded. What the client keeps of them must not hold it.
   */
  echoKey: boolean | FaultScope;
  /**
   * Error replies quote the key encoded, as a gateway that logs its auth
   * header does: base64 of `user:key` (standard, padded), URL-safe base64
   * without padding, upper-case hex, and base64 wrapped over lines.
   */
  echoKeyEncoded: boolean | FaultScope;
  /** Error replies quote the key the request carried in the message, spelled as asked (any case, escaped, cut, encoded). */
  echoKeyInError: boolean | KeyEchoFault;
  /** Replies (successes too) carry the key the request carried in a debug header, spelled as asked. */
  echoKeyInHeader: boolean | KeyEchoFault;
  /**
   * The pending trades answered (load_pending, load_pending_buy_orders)
   * carry the key the request carried, spelled as asked, in the fields
   * asked: a successful answer whose data holds the key.
   */
  echoKeyInTrades: boolean | TradeKeyEchoFault;
  /** Handle the request (state changes), then answer a 5xx anyway: the "502 after commit" case. */
  serverErrorAfterProcess: boolean | number | ServerErrorFault;
  /** Accept the request and never answer (nothing processed): the connection stays open until the client gives up. */
  silent: boolean | FaultScope;
  /**
   * The service's clock runs this many ms ahead of the sandbox clock (behind
   * when negative): the `Date` header, `refresh_at` and `X-RateLimit-Reset`
   * show it; the service's own rules (automation, rate windows) are unchanged.
   */
  clockOffsetMs: number;
  /** `X-RateLimit-*` always describe the global limit, whichever limit refused (as some services send them). */
  globalRateHeaders: boolean;
  /**
   * How a refusal names the bad item: `path` "items.3.asset_id: …" (the
   * default), `bracket` "items[3].asset_id: …", `message` only the item's
   * identifier in the words ("asset 123 has left the inventory").
   */
  refusalStyle: RefusalStyle;
  /** A create naming an asset (or SKU) that already stands is refused ("… is already listed") instead of skipped. */
  refuseDuplicateCreates: boolean;
  /**
   * The strict service: it keeps nothing of a listing that stopped standing
   * (sold, cancelled), so an edit naming one is refused as naming an unknown
   * listing ("items.3.listing_id: unknown listing lst_…"), not as sold.
   */
  endedListingsUnknown: boolean;
  /** Buyers take active listings over time; each sale's market trade names the seller, SKU and price. */
  listingSales: ListingSalesFault;
  /**
   * Right after a matching request is processed, the balance moves by
   * `deltaCents`, as a fill paid or a sale credited meanwhile would move it:
   * two balance readings around a batch of buy order creates then disagree.
   */
  balanceMove: BalanceMoveFault;
  /**
   * The trade lists answer again, as they were while pending, trades that
   * went through in the last `withinMs` (with `tradeMoney`, which settles
   * them): a completed trade listed again.
   */
  relistCompleted: boolean | RelistCompletedFault;
  /** A trade's total, timestamp, or first item's price or quantity is answered as 2^53 − 1 (or `value`). */
  hostileTradeNumber: boolean | HostileTradeNumberFault;
  /** Trades are answered with a total below zero. */
  negativeTradeTotal: boolean | NegativeTradeTotalFault;
  /** Each trade list answer carries `count` more trades at once, made when the knob was set; they leave when it is turned off. */
  tradeFlood: TradeFloodFault;
  /** Steam's community inventory (not the service): the inventory is private. */
  inventoryPrivate: boolean | InventoryPrivateFault;
  /** Steam's community inventory: 429 Too Many Requests. */
  inventory429: boolean | Inventory429Fault;
  /** Steam's community inventory: a 200 whose body a careful client must reject. */
  inventoryMalformed: boolean | InventoryMalformedFault;
  /** Steam's community inventory: a 5xx with a `null` body (Steam is down or busy). */
  inventoryServerError: boolean | number | InventoryServerErrorFault;
  /** Steam's community inventory answers late (ms, or with a count). */
  inventoryDelayMs: number | InventoryDelayFault;
  /** Steam's community inventory never ends: `more_items` past the last page. */
  inventoryEndless: boolean | InventoryEndlessFault;
  /** Steam's community inventory counts wrong: `total_inventory_count` is another number. */
  inventoryLyingTotal: InventoryLyingTotalFault;
}

export type FaultName = keyof FaultConfig;

/** Markup a toast might render, a right-to-left override that makes "exe.gnp" read "png.exe", an isolate. */
export const DEFAULT_HOSTILE_NAME = '<b>Free</b> <a href="https://evil.invalid">key</a> \u202Eexe.gnp\u202C \u2066Team\u2069 Captain';

export interface SandboxFaults {
  set(faults: { readonly [K in FaultName]?: FaultConfig[K] | false | undefined }): void;
  clear(): void;
}

export type { ListingSalesFault };
