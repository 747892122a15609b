import type { BuyOrderTrade, MarketTrade, PendingTrade } from '../../../src-shared/trades.ts';
import { streamFor } from '../catalog/prng.ts';
import type { TradeContext, TradeRole } from './trade-factory.ts';
import { buyOrderTradeBody, initialStatus, marketTradeBody, RAW_STATUS, TRADE_STATUS } from './trade-factory.ts';
import { TradeSchedule } from './trade-schedule.ts';

/**
 * The pending trade lists: the seeded schedule (when enabled) plus trades a
 * test injected, with status overrides and removals applied on top.
 */

/**
 * What a test passes to `addTrade`: the kind, optionally the caller's role
 * (default: inferred from `status`, else seller), and any fields to force.
 */
export type TradeSeed =
  | ({ trade_type: 'market'; role?: TradeRole } & Partial<Omit<MarketTrade, 'trade_type'>>)
  | ({ trade_type: 'buy_order'; role?: TradeRole } & Partial<Omit<BuyOrderTrade, 'trade_type'>>);

const MANUAL_STREAM = 4;
/** The trades of a flood (the `tradeFlood` knob): a stream of their own, so they change nothing else. */
const FLOOD_STREAM = 11;
/** Whether a scheduled trade went through: a stream of its own, so the schedule draws the same trades with or without money moving. */
const OUTCOME_STREAM = 10;
/** Scheduled trades declined or expired instead of going through. */
const DECLINED = 0.12;

export class Trades {
  private readonly schedule: TradeSchedule | null;
  private readonly manual: PendingTrade[] = [];
  /** When an injected trade leaves the pending lists on its own (completed); absent: it stays until removed. */
  private readonly goneAt = new Map<string, number>();
  private readonly overrides = new Map<string, { status: string; raw_status: string }>();
  private readonly removed = new Set<string>();
  private readonly ctx: TradeContext;
  private readonly seed: number;
  /** Trades that went through, as they were listed while pending (for the `relistCompleted` knob), oldest first. */
  private readonly completed: Array<{ readonly at: number; readonly trade: PendingTrade }> = [];
  private readonly flooded = new Map<PendingTrade['trade_type'], { readonly key: string; readonly trades: PendingTrade[] }>();

  constructor(seed: number, start: number, ctx: TradeContext, scheduled: boolean) {
    this.seed = seed;
    this.ctx = ctx;
    this.schedule = scheduled ? new TradeSchedule(seed, start, ctx) : null;
  }

  /** Every pending trade at `now`, both kinds, oldest first. */
  pending(now: number): PendingTrade[] {
    const out: PendingTrade[] = [];
    for (const { trade, phase } of this.schedule?.pendingAt(now) ?? []) {
      const id = trade.body.trade_id;
      if (this.removed.has(id)) continue;
      const status = this.overrides.get(id) ?? { status: phase.status, raw_status: phase.raw_status };
      out.push(structuredClone({ ...trade.body, ...status }) as PendingTrade);
    }
    for (const trade of this.manual) {
      if (this.removed.has(trade.trade_id)) continue;
      if ((this.goneAt.get(trade.trade_id) ?? Infinity) <= now) continue;
      out.push(structuredClone({ ...trade, ...this.overrides.get(trade.trade_id) }));
    }
    return out;
  }

  market(now: number): MarketTrade[] {
    return this.pending(now).filter((t): t is MarketTrade => t.trade_type === 'market');
  }

  buyOrder(now: number): BuyOrderTrade[] {
    return this.pending(now).filter((t): t is BuyOrderTrade => t.trade_type === 'buy_order');
  }

  /**
   * Injects a trade: generated like a scheduled one, then `seed`'s fields
   * forced. With `goneAt` (sandbox ms) it leaves the pending lists then.
   */
  add(seed: TradeSeed, now: number, goneAt?: number): PendingTrade {
    const index = this.manual.length;
    const random = streamFor(this.seed, MANUAL_STREAM, index);
    const role = seed.role ?? roleFromStatus(seed.status);
    const tradeId = seed.trade_id ?? String(9_000_000_000 + index);
    const timestamp = seed.timestamp ?? Math.floor(now / 1000);
    const { role: _role, ...fields } = seed;
    const status = seed.status === undefined
      ? initialStatus(seed.trade_type, role)
      : { status: seed.status, raw_status: rawStatusFor(seed.status) };
    let trade: PendingTrade;
    if (fields.trade_type === 'market') {
      trade = { ...marketTradeBody(random, this.ctx, tradeId, timestamp, role), ...status, ...fields };
    } else {
      trade = { ...buyOrderTradeBody(random, this.ctx, tradeId, timestamp, role), ...status, ...fields };
    }
    this.removed.delete(trade.trade_id);
    if (goneAt !== undefined) this.goneAt.set(trade.trade_id, goneAt);
    this.manual.push(trade);
    return structuredClone(trade);
  }

  /**
   * Moves the balance by what the trades that left the lists in (from, to]
   * paid: a sale in (the caller was the seller), a purchase out (skipped, as
   * declined, when the balance cannot pay it). A scheduled trade goes
   * through seven times in eight; an injected one with a time to leave
   * (a buyer took a listing) always; one a test removed never.
   */
  settle(from: number, to: number, balance: { balance: number }, soldListing: (tradeId: string) => boolean = () => false): number {
    let settled = 0;
    const pay = (trade: PendingTrade, at: number) => {
      const sale = this.ctx.accounts.all().includes(trade.supplier_id);
      if (!sale && balance.balance < trade.total) return;
      const amount = sale ? trade.total : -trade.total;
      balance.balance += amount;
      this.settled.push({ tradeType: trade.trade_type, tradeId: trade.trade_id, amount, at });
      this.completed.push({ at, trade });
      settled += 1;
    };
    for (const { trade, index } of this.schedule?.endedBetween(from, to) ?? []) {
      const id = trade.body.trade_id;
      if (this.removed.has(id)) continue;
      // A trade that took a listing went through: the listing is sold already.
      if (!soldListing(id) && streamFor(this.seed, OUTCOME_STREAM, index)() < DECLINED) continue;
      const last = trade.phases.at(-1);
      pay({ ...trade.body, status: last?.status ?? '', raw_status: last?.raw_status ?? '', ...this.overrides.get(id) } as PendingTrade, trade.goneAt);
    }
    for (const trade of this.manual) {
      const goneAt = this.goneAt.get(trade.trade_id);
      if (goneAt === undefined || goneAt <= from || goneAt > to || this.removed.has(trade.trade_id)) continue;
      pay({ ...trade, ...this.overrides.get(trade.trade_id) }, goneAt);
    }
    return settled;
  }

  /** The trades `settle` let through, with what each moved the balance by and when, oldest first. */
  readonly settled: Array<{ readonly tradeType: string; readonly tradeId: string; readonly amount: number; readonly at: number }> = [];

  /** Trades of this kind that went through at `since` or later, as they were listed while pending. */
  completedSince(type: PendingTrade['trade_type'], since: number): PendingTrade[] {
    return this.completed.filter((c) => c.at >= since && c.trade.trade_type === type).map((c) => structuredClone(c.trade));
  }

  /**
   * `count` trades of this kind made at `since` (the `tradeFlood` knob): the
   * same ones for as long as the knob holds, their IDs apart from any other.
   */
  flood(type: PendingTrade['trade_type'], count: number, since: number): PendingTrade[] {
    const key = `${count}:${since}`;
    const made = this.flooded.get(type);
    if (made?.key === key) return made.trades;
    const timestamp = Math.floor(since / 1000);
    const trades = Array.from({ length: count }, (_, i): PendingTrade => {
      const random = streamFor(this.seed, FLOOD_STREAM, i);
      const role: TradeRole = random() < 0.5 ? 'seller' : 'buyer';
      const tradeId = `${timestamp}${String(i).padStart(6, '0')}`;
      return type === 'market'
        ? { ...marketTradeBody(random, this.ctx, tradeId, timestamp, role), ...initialStatus(type, role) }
        : { ...buyOrderTradeBody(random, this.ctx, tradeId, timestamp, role), ...initialStatus(type, role) };
    });
    this.flooded.set(type, { key, trades });
    return trades;
  }

  /** Forces a trade's status from now on (scheduled or injected); `raw_status` follows the status when omitted. */
  setStatus(tradeId: string, status: string, rawStatus?: string): void {
    this.overrides.set(tradeId, { status, raw_status: rawStatus ?? rawStatusFor(status) });
  }

  /** Takes a trade off the pending lists (accepted, declined or expired). */
  remove(tradeId: string): void {
    this.removed.add(tradeId);
  }
}

/** A status that waits for the seller means the caller bought; every other documented status has the caller selling. */
function roleFromStatus(status: string | undefined): TradeRole {
  return status === TRADE_STATUS.marketWaitingForSeller ? 'buyer' : 'seller';
}

function rawStatusFor(status: string): string {
  return status === TRADE_STATUS.buyOrderConfirmationRequired ? RAW_STATUS.confirmationRequired : RAW_STATUS.sent;
}
