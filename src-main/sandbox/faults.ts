import type { EndpointName } from '../core/api/endpoints.ts';
import type {
  Inventory429Fault, InventoryDelayFault, InventoryEndlessFault, InventoryEndlessKind, InventoryLyingTotalFault, InventoryMalformedFault,
  InventoryPrivateFault, InventoryServerErrorFault,
} from './inventory-faults.ts';
import type { KeySpelling, TradeEchoField } from './key-echo.ts';
import type { Random } from './prng.ts';
import {
  TRADE_LISTS, type HostileTradeField, type HostileTradeNumberFault, type NegativeTradeTotalFault, type RelistCompletedFault, type TradeFloodFault,
} from './trade-faults.ts';

export type {
  Inventory429Fault, InventoryDelayFault, InventoryEndlessFault, InventoryLyingTotalFault, InventoryMalformedFault, InventoryPrivateFault,
  InventoryServerErrorFault,
};
export type { KeySpelling, TradeEchoField };
export type { HostileTradeNumberFault, NegativeTradeTotalFault, RelistCompletedFault, TradeFloodFault };

/**
 * Knobs that make the sandbox misbehave the ways a real service and network do,
 * so the client's and scheduler's handling of each can be tested. Every
 * per-request knob can be limited to some endpoints, to the next `count`
 * matching requests, and/or to a `probability` per request (rolled on the
 * sandbox's seeded RNG); the others (clock offset, header and refusal styles
 * and wordings, sales) hold until turned off.
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

export interface ListingSalesFault {
  /** Mean sandbox ms between two sales (a Poisson process over the account's active listings). */
  readonly meanGapMs: number;
  /** How long each sale's market trade stays pending before it completes; default 5 minutes. */
  readonly tradeMs?: number;
  /** Sell at most this many listings while the knob is on; unlimited when absent. */
  readonly limit?: number;
  /** Only these listings (by listing_id) may sell, e.g. those an apply has not reached yet; any active one when absent. */
  readonly among?: readonly string[];
}

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

interface Armed {
  scope: FaultScope;
  remaining: number;
  params: Record<string, unknown>;
  /** Sandbox ms when the knob was set. */
  setAt: number;
}

export class Faults implements SandboxFaults {
  private readonly armed = new Map<FaultName, Armed>();
  private readonly random: Random;
  private readonly now: () => number;

  /** @param now the sandbox clock: knobs that act over time (sales) start when they are set. */
  constructor(random: Random, now: () => number = () => 0) {
    this.random = random;
    this.now = now;
  }

  set(faults: { readonly [K in FaultName]?: FaultConfig[K] | false | undefined }): void {
    for (const name of Object.keys(faults) as FaultName[]) {
      const value = faults[name];
      if (value === undefined || value === false) {
        this.armed.delete(name);
        continue;
      }
      this.armed.set(name, normalize(name, value, this.now()));
    }
  }

  clear(): void {
    this.armed.clear();
  }

  delay(endpoint: EndpointName, now: number): number | null {
    const hit = this.roll('delayMs', endpoint, now);
    return hit ? Number(hit.ms) : null;
  }

  lateAnswer(endpoint: EndpointName, now: number): number | null {
    const hit = this.roll('lateAnswerMs', endpoint, now);
    return hit ? Number(hit.ms) : null;
  }

  drop(endpoint: EndpointName, now: number): boolean {
    return this.roll('dropAfterProcess', endpoint, now) !== null;
  }

  /** Sandbox ms to wait after half the body before the reset, or null when the knob does not fire. */
  resetMidBody(endpoint: EndpointName, now: number): number | null {
    const hit = this.roll('resetMidBody', endpoint, now);
    return hit ? Number(hit.afterMs ?? 0) : null;
  }

  /** The item name to serve instead of the real ones, or null. */
  hostileItemName(endpoint: EndpointName, now: number): string | null {
    if (endpoint !== 'load_pending' && endpoint !== 'load_pending_buy_orders') return null;
    const hit = this.roll('hostileItemName', endpoint, now);
    if (!hit) return null;
    const name = typeof hit.name === 'string' ? hit.name : DEFAULT_HOSTILE_NAME;
    const length = Number(hit.length ?? 0);
    return length > name.length ? name + 'x'.repeat(length - name.length) : name;
  }

  /** How far back trades that went through are listed again (ms), or null. */
  relistCompleted(endpoint: EndpointName, now: number): number | null {
    const hit = this.rollTradeList('relistCompleted', endpoint, now);
    return hit ? Number(hit.withinMs ?? 10 * 60_000) : null;
  }

  hostileTradeNumber(endpoint: EndpointName, now: number): { field: HostileTradeField; value: number; tradeIds?: readonly string[] } | null {
    const hit = this.rollTradeList('hostileTradeNumber', endpoint, now);
    if (!hit) return null;
    return { field: (hit.field as HostileTradeField | undefined) ?? 'total', value: Number(hit.value ?? Number.MAX_SAFE_INTEGER), ...tradeIds(hit) };
  }

  negativeTradeTotal(endpoint: EndpointName, now: number): { cents?: number; tradeIds?: readonly string[] } | null {
    const hit = this.rollTradeList('negativeTradeTotal', endpoint, now);
    if (!hit) return null;
    return { ...(hit.cents === undefined ? {} : { cents: Number(hit.cents) }), ...tradeIds(hit) };
  }

  /** How many trades the flood adds to this answer, and when it was set (sandbox ms: its trades are made then). */
  tradeFlood(endpoint: EndpointName, now: number): { count: number; since: number } | null {
    const since = this.armed.get('tradeFlood')?.setAt ?? 0;
    const hit = this.rollTradeList('tradeFlood', endpoint, now);
    return hit ? { count: Math.max(0, Math.floor(Number(hit.count))), since } : null;
  }

  serverError(endpoint: EndpointName, now: number): number | null {
    const hit = this.roll('serverError', endpoint, now);
    return hit ? Number(hit.status ?? 500) : null;
  }

  malformed(endpoint: EndpointName, now: number): 'invalid_json' | 'missing_field' | null {
    const hit = this.roll('malformed', endpoint, now);
    if (!hit) return null;
    return hit.kind === 'missing_field' ? 'missing_field' : 'invalid_json';
  }

  echoKey(endpoint: EndpointName, now: number): boolean {
    return this.roll('echoKey', endpoint, now) !== null;
  }

  echoKeyEncoded(endpoint: EndpointName, now: number): boolean {
    return this.roll('echoKeyEncoded', endpoint, now) !== null;
  }

  /** The spelling to quote the key in, in an error reply or a header, or null. */
  keyEcho(name: 'echoKeyInError' | 'echoKeyInHeader', endpoint: EndpointName, now: number): KeySpelling | null {
    const hit = this.roll(name, endpoint, now);
    return hit ? ((hit.spelling as KeySpelling | undefined) ?? 'raw') : null;
  }

  /** The spelling and the fields to quote the key in, in the pending trades answered, or null. */
  keyEchoInTrades(endpoint: EndpointName, now: number): { spelling: KeySpelling; fields: readonly TradeEchoField[] } | null {
    if (endpoint !== 'load_pending' && endpoint !== 'load_pending_buy_orders') return null;
    const hit = this.roll('echoKeyInTrades', endpoint, now);
    if (!hit) return null;
    return { spelling: (hit.spelling as KeySpelling | undefined) ?? 'raw', fields: (hit.fields as readonly TradeEchoField[] | undefined) ?? ['name'] };
  }

  storm(endpoint: EndpointName, now: number): number | null {
    const hit = this.roll('storm429', endpoint, now);
    return hit ? Math.max(1, Math.ceil(Number(hit.retryAfterSec))) : null;
  }

  serverErrorAfterProcess(endpoint: EndpointName, now: number): number | null {
    const hit = this.roll('serverErrorAfterProcess', endpoint, now);
    return hit ? Number(hit.status ?? 502) : null;
  }

  silent(endpoint: EndpointName, now: number): boolean {
    return this.roll('silent', endpoint, now) !== null;
  }

  /** Cents the balance moves by after this request is processed, or null. */
  balanceMove(endpoint: EndpointName, now: number): number | null {
    const hit = this.roll('balanceMove', endpoint, now);
    return hit ? Number(hit.deltaCents) : null;
  }

  /** Service clock minus sandbox clock, ms (0 unless the knob is set). */
  clockOffsetMs(): number {
    return Number(this.armed.get('clockOffsetMs')?.params.ms ?? 0);
  }

  globalRateHeaders(): boolean {
    return this.armed.has('globalRateHeaders');
  }

  refusalStyle(): RefusalStyle {
    return (this.armed.get('refusalStyle')?.params.style as RefusalStyle | undefined) ?? 'path';
  }

  refuseDuplicateCreates(): boolean {
    return this.armed.has('refuseDuplicateCreates');
  }

  endedListingsUnknown(): boolean {
    return this.armed.has('endedListingsUnknown');
  }

  /** The sales knob, with when it was set (sandbox ms): sales start from then. */
  listingSales(): (ListingSalesFault & { readonly since: number }) | null {
    const armed = this.armed.get('listingSales');
    if (!armed) return null;
    const { params } = armed;
    return {
      meanGapMs: Number(params.meanGapMs),
      since: armed.setAt,
      ...(params.tradeMs === undefined ? {} : { tradeMs: Number(params.tradeMs) }),
      ...(params.limit === undefined ? {} : { limit: Number(params.limit) }),
      ...(Array.isArray(params.among) ? { among: params.among.map(String) } : {}),
    };
  }

  /** Whether Steam answers this account's inventory as private. */
  inventoryPrivate(account: string): boolean {
    const armed = this.armed.get('inventoryPrivate');
    if (!armed) return false;
    const accounts = armed.params.accounts as readonly string[] | undefined;
    return accounts === undefined || accounts.includes(account);
  }

  /** A 429 for this inventory request: `retryAfterSec` is null when no `Retry-After` is sent. */
  inventory429(now: number): { retryAfterSec: number | null } | null {
    const hit = this.roll('inventory429', null, now);
    if (!hit) return null;
    return { retryAfterSec: hit.retryAfterSec === undefined ? null : Math.max(0, Math.ceil(Number(hit.retryAfterSec))) };
  }

  inventoryMalformed(now: number): 'invalid_json' | 'missing_field' | 'wrong_type' | null {
    const hit = this.roll('inventoryMalformed', null, now);
    if (!hit) return null;
    return hit.kind === 'missing_field' || hit.kind === 'wrong_type' ? hit.kind : 'invalid_json';
  }

  inventoryServerError(now: number): number | null {
    const hit = this.roll('inventoryServerError', null, now);
    return hit ? Number(hit.status ?? 502) : null;
  }

  inventoryDelay(now: number): number | null {
    const hit = this.roll('inventoryDelayMs', null, now);
    return hit ? Number(hit.ms) : null;
  }

  /** How this inventory answer goes on past its last page, or null when it ends there. */
  inventoryEndless(now: number): { kind: InventoryEndlessKind; perPage: number | null } | null {
    const hit = this.roll('inventoryEndless', null, now);
    if (!hit) return null;
    const kind = hit.kind === 'empty' || hit.kind === 'new_ids' || hit.kind === 'same_start' ? hit.kind : 'same';
    return { kind, perPage: hit.perPage === undefined ? null : Math.max(1, Math.floor(Number(hit.perPage))) };
  }

  /** The `total_inventory_count` this answer says instead of the real one, or null. */
  inventoryLyingTotal(now: number): number | null {
    const hit = this.roll('inventoryLyingTotal', null, now);
    return hit ? Math.max(0, Math.floor(Number(hit.total))) : null;
  }

  /** A knob of the trade lists alone: other requests neither fire it nor spend its `count`. */
  private rollTradeList(name: FaultName, endpoint: EndpointName, now: number): Record<string, unknown> | null {
    return TRADE_LISTS.includes(endpoint) ? this.roll(name, endpoint, now) : null;
  }

  /** Whether the fault fires for this request; spends one of its `count` when it does. */
  private roll(name: FaultName, endpoint: EndpointName | null, now: number): Record<string, unknown> | null {
    const armed = this.armed.get(name);
    if (!armed) return null;
    const { scope } = armed;
    if (scope.endpoints && (endpoint === null || !scope.endpoints.includes(endpoint))) return null;
    if (name === 'storm429' && now >= Number(armed.params.untilMs)) {
      this.armed.delete(name);
      return null;
    }
    if (armed.remaining <= 0) return null;
    if (scope.probability !== undefined && this.random() >= scope.probability) return null;
    armed.remaining--;
    if (armed.remaining <= 0) this.armed.delete(name);
    return armed.params;
  }
}

function normalize(name: FaultName, value: FaultConfig[FaultName], setAt: number): Armed {
  let params: Record<string, unknown>;
  if (value === true) params = {};
  else if (typeof value === 'number') params = name === 'delayMs' || name === 'lateAnswerMs' || name === 'clockOffsetMs' || name === 'inventoryDelayMs' ? { ms: value } : { status: value };
  else if (typeof value === 'string') params = { style: value };
  else params = { ...value };
  const scope: FaultScope = {
    ...(params.endpoints === undefined ? {} : { endpoints: params.endpoints as readonly EndpointName[] }),
    ...(params.probability === undefined ? {} : { probability: Number(params.probability) }),
  };
  const count = params.count === undefined ? Infinity : Number(params.count);
  return { scope, remaining: count, params, setAt };
}

const tradeIds = (params: Record<string, unknown>): { tradeIds?: readonly string[] } =>
  (Array.isArray(params.tradeIds) ? { tradeIds: params.tradeIds.map(String) } : {});
