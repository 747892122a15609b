import type { EndpointName } from '../core/api/endpoints.ts';
import type { FaultScope } from './fault-config.ts';
import type { Faults } from './faults.ts';
import type { AppliedFault } from './request-log.ts';
import type { World } from './state/world.ts';

/**
 * The knobs of the pending trade lists (load_pending,
 * load_pending_buy_orders): answers a service may give that no trader
 * made, so the desk's History can be tested against each. Set through
 * `SandboxFaults.set` like the other knobs; each fires per answer (with
 * `count`, `probability` and `endpoints` as any per-request knob).
 */

export interface RelistCompletedFault extends FaultScope {
  /** Trades that went through this long ago at most are listed again; default 10 minutes. */
  readonly withinMs?: number;
}

/** The fields a hostile number can take the place of: the trade's, or its first item's. */
export type HostileTradeField = 'total' | 'timestamp' | 'price' | 'quantity';

export interface HostileTradeNumberFault extends FaultScope {
  /** Default `total`. */
  readonly field?: HostileTradeField;
  /** Default 2^53 − 1, the largest whole number a double holds. */
  readonly value?: number;
  /** Only these trades; every trade of the answer when absent. */
  readonly tradeIds?: readonly string[];
}

export interface NegativeTradeTotalFault extends FaultScope {
  /** The total answered is minus this many cents; minus the trade's own total when absent. */
  readonly cents?: number;
  readonly tradeIds?: readonly string[];
}

export interface TradeFloodFault extends FaultScope {
  /** Trades each matching answer carries on top of its own, all made when the knob was set. */
  readonly count: number;
}

export const TRADE_LISTS: readonly EndpointName[] = ['load_pending', 'load_pending_buy_orders'];

type WireTrade = Record<string, unknown> & { trade_id?: unknown; items?: unknown };

/**
 * The answer of a trade list with the knobs that fire applied, in the order
 * a service would err: more trades (a flood, trades listed again), then
 * numbers no trade has. Other endpoints' answers pass untouched.
 */
export function applyTradeListFaults(faults: Faults, world: World, endpoint: EndpointName, now: number, body: unknown): { body: unknown; applied: AppliedFault[] } {
  const applied: AppliedFault[] = [];
  if (!TRADE_LISTS.includes(endpoint) || !Array.isArray(body)) return { body, applied };
  const type = endpoint === 'load_pending' ? 'market' : 'buy_order';
  let trades = body as WireTrade[];
  const flood = faults.tradeFlood(endpoint, now);
  if (flood) {
    applied.push('tradeFlood');
    trades = [...trades, ...world.trades.flood(type, flood.count, flood.since)];
  }
  const relistMs = faults.relistCompleted(endpoint, now);
  if (relistMs !== null) {
    applied.push('relistCompleted');
    const listed = new Set(trades.map((t) => t.trade_id));
    trades = [...trades, ...world.trades.completedSince(type, now - relistMs).filter((t) => !listed.has(t.trade_id))];
  }
  const hostile = faults.hostileTradeNumber(endpoint, now);
  if (hostile) {
    applied.push('hostileTradeNumber');
    trades = trades.map((t) => (aimed(t, hostile.tradeIds) ? withNumber(t, hostile.field, hostile.value) : t));
  }
  const negative = faults.negativeTradeTotal(endpoint, now);
  if (negative) {
    applied.push('negativeTradeTotal');
    trades = trades.map((t) => (aimed(t, negative.tradeIds) ? { ...t, total: -(negative.cents ?? Math.abs(Number(t.total))) } : t));
  }
  return { body: trades, applied };
}

const aimed = (trade: WireTrade, ids: readonly string[] | undefined) => ids === undefined || ids.includes(String(trade.trade_id));

function withNumber(trade: WireTrade, field: HostileTradeField, value: number): WireTrade {
  if (field === 'total' || field === 'timestamp') return { ...trade, [field]: value };
  const [first, ...rest] = Array.isArray(trade.items) ? (trade.items as Record<string, unknown>[]) : [];
  return first ? { ...trade, items: [{ ...first, [field]: value }, ...rest] } : trade;
}
