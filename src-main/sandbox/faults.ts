import type { EndpointName } from '../core/api/endpoints.ts';
import type { FaultConfig, FaultName, FaultScope, ListingSalesFault, RefusalStyle, SandboxFaults } from './fault-config.ts';
import { DEFAULT_HOSTILE_NAME } from './fault-config.ts';
import type { InventoryEndlessKind } from './inventory-faults.ts';
import type { KeySpelling, TradeEchoField } from './key-echo.ts';
import type { Random } from './catalog/prng.ts';
import { TRADE_LISTS, type HostileTradeField } from './trade-faults.ts';

/** A knob as set: where it fires, how many more times, and its parameters. */
interface Armed {
  scope: FaultScope;
  remaining: number;
  params: Record<string, unknown>;
  /** Sandbox ms when the knob was set. */
  setAt: number;
}

/**
 * The fault knobs as set (fault-config.ts says what each does), and whether
 * each fires for a request: a per-request knob spends one of its `count` and
 * rolls its `probability` on the sandbox's seeded RNG when it does.
 */
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
