import type { BuyOrderTrade, MarketTrade } from '../../../src-shared/trades.ts';
import { deriveSeed, intBetween, streamFor } from '../catalog/prng.ts';
import type { TradeBody, TradeContext, TradeRole } from './trade-factory.ts';
import { buyOrderTradeBody, initialStatus, marketTradeBody, RAW_STATUS, soldItems, TRADE_STATUS } from './trade-factory.ts';

/**
 * The seeded life of pending trades: when each appears, how its status moves,
 * when it leaves the pending lists. Computed lazily from the clock on each read
 * (never with timers), so scaled and fake time both work and the same seed and
 * start time always give the same trades at the same moments.
 */

export interface TradePhase {
  /** Sandbox ms from which this status holds. */
  readonly at: number;
  readonly status: string;
  readonly raw_status: string;
}

export interface ScheduledTrade {
  readonly body: TradeBody<MarketTrade> | TradeBody<BuyOrderTrade>;
  readonly appearAt: number;
  /** Sandbox ms at which the trade is accepted, declined or expires and leaves the list. */
  readonly goneAt: number;
  readonly phases: readonly TradePhase[];
}

const SCHEDULE_STREAM = 3;
const MIN = 60_000;
/** Mean gap between two new trades, sandbox ms. */
const MEAN_GAP_MS = 2 * MIN;
/** No trade stays pending longer than this; bounds the scan on each read. */
export const MAX_TRADE_LIFETIME_MS = 60 * MIN;
/** The first trades appear before the start, so the lists are not empty at first. */
const HEAD_START_MS = MAX_TRADE_LIFETIME_MS;

export class TradeSchedule {
  private readonly seed: number;
  private readonly ctx: TradeContext;
  private readonly generated: ScheduledTrade[] = [];
  private nextAppearAt: number;
  private readonly start: number;

  constructor(seed: number, start: number, ctx: TradeContext) {
    this.seed = seed;
    this.ctx = ctx;
    this.start = start;
    this.nextAppearAt = start - HEAD_START_MS;
  }

  /** Trades pending at `now`, with their status at that moment, oldest first. */
  pendingAt(now: number): Array<{ trade: ScheduledTrade; phase: TradePhase }> {
    while (this.nextAppearAt <= now) this.generateNext();
    const out: Array<{ trade: ScheduledTrade; phase: TradePhase }> = [];
    for (let i = this.firstCandidate(now - MAX_TRADE_LIFETIME_MS); i < this.generated.length; i++) {
      const trade = this.generated[i];
      if (!trade || trade.appearAt > now) break;
      if (trade.goneAt <= now) continue;
      let phase = trade.phases[0];
      for (const p of trade.phases) if (p.at <= now) phase = p;
      if (phase) out.push({ trade, phase });
    }
    return out;
  }

  /** Trades that left the lists in (from, to], in the order they appeared, each with its index in the schedule. */
  endedBetween(from: number, to: number): Array<{ trade: ScheduledTrade; index: number }> {
    while (this.nextAppearAt <= to) this.generateNext();
    const out: Array<{ trade: ScheduledTrade; index: number }> = [];
    for (let i = this.firstCandidate(from - MAX_TRADE_LIFETIME_MS); i < this.generated.length; i++) {
      const trade = this.generated[i];
      if (!trade || trade.appearAt > to) break;
      if (trade.goneAt > from && trade.goneAt <= to) out.push({ trade, index: i });
    }
    return out;
  }

  /** Index of the first trade that appeared after `from` (binary search: appearances are sorted). */
  private firstCandidate(from: number): number {
    let lo = 0;
    let hi = this.generated.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.generated[mid]?.appearAt ?? Infinity) <= from) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private generateNext(): void {
    const index = this.generated.length;
    const random = streamFor(this.seed, SCHEDULE_STREAM, index);
    const appearAt = this.nextAppearAt;
    const timestamp = Math.floor(appearAt / 1000);
    // From when it appears (trades appear seconds apart): a sandbox started again later never gives an ID to another trade.
    const tradeId = `${timestamp}${String(deriveSeed(this.seed, SCHEDULE_STREAM, index) % 1_000).padStart(3, '0')}`;
    const kind = random() < 0.5 ? 'market' : 'buy_order';
    const role: TradeRole = random() < 0.55 ? 'seller' : 'buyer';
    let body = kind === 'market'
      ? marketTradeBody(random, this.ctx, tradeId, timestamp, role)
      : buyOrderTradeBody(random, this.ctx, tradeId, timestamp, role);
    if (body.trade_type === 'market' && role === 'seller' && appearAt >= this.start) {
      // The caller sells in a market trade only when a buyer took one of its listings: that one, if it has any.
      const sold = this.ctx.sellListing?.(body.supplier_id, appearAt, tradeId);
      if (sold) body = { ...body, items: soldItems(sold), total: sold.price };
    }
    const phases: TradePhase[] = [{ at: appearAt, ...initialStatus(kind, role) }];
    let at = appearAt;
    const step = () => (at += intBetween(random, 2, 15) * MIN);
    if (kind === 'market' && role === 'seller' && random() < 0.4) {
      // Accepted on the site, now waiting for the mobile confirmation.
      phases.push({ at: step(), status: TRADE_STATUS.marketActionRequired, raw_status: RAW_STATUS.confirmationRequired });
    }
    if (kind === 'buy_order' && role === 'seller') {
      if (random() < 0.5) {
        phases.push({ at: step(), status: TRADE_STATUS.buyOrderConfirmationRequired, raw_status: RAW_STATUS.confirmationRequired });
      }
      phases.push({ at: step(), status: TRADE_STATUS.buyOrderWaitingForBuyer, raw_status: RAW_STATUS.sent });
    }
    const goneAt = Math.min(step(), appearAt + MAX_TRADE_LIFETIME_MS);
    this.generated.push({ body, appearAt, goneAt, phases });
    // Exponential gaps: arrivals form a Poisson process.
    const gap = Math.max(5_000, Math.round(-Math.log(1 - random()) * MEAN_GAP_MS));
    this.nextAppearAt = appearAt + gap;
  }
}
