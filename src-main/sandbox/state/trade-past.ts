import type { PastEvent } from '../../core/history/past-fill.ts';
import type { PendingTrade } from '../../../src-shared/trades.ts';
import { intBetween, streamFor, type Random } from '../catalog/prng.ts';
import type { TradeBody, TradeContext, TradeRole } from './trade-factory.ts';
import { buyOrderTradeBody, initialStatus, marketTradeBody, RAW_STATUS, TRADE_STATUS } from './trade-factory.ts';

/**
 * The weeks before the simulator started, as a trading account lived them:
 * listings sold (market trades in which an own account sells), buy orders
 * filled (buy order trades in which it buys), a few sales into other
 * traders' buy orders and purchases of listings, busier in the evening and
 * at the weekend; about one trade in eight declined or expired; the balance
 * moving by what each completed trade paid in or out, with a deposit before
 * a purchase it could not pay and a withdrawal when sales piled up. Drawn from the seed alone (a stream of its own, so
 * the live schedule is the same with or without it), and ending at the
 * balance the simulator starts with. `events()` is what a desk polling the
 * trade lists every minute and the balance every five would have seen;
 * `record()` is the truth to compare it with.
 */

export interface PastTrade {
  readonly body: TradeBody<PendingTrade>;
  readonly side: 'sale' | 'purchase';
  readonly appearAt: number;
  /** When it left the lists: accepted (money moved then) or declined. */
  readonly goneAt: number;
  readonly completed: boolean;
  readonly phases: readonly { readonly at: number; readonly status: string; readonly raw_status: string }[];
  /** For sales: when the sold listing was made. */
  readonly listedAt: number | null;
}

/** One trade as the simulator knows it ended, and when a desk polling every minute saw it leave. */
export interface PastTradeRecord {
  readonly tradeType: 'market' | 'buy_order';
  readonly tradeId: string;
  readonly side: 'sale' | 'purchase';
  readonly total: number;
  readonly completed: boolean;
  readonly goneAt: number;
  readonly seenGoneAt: number;
  /** What changed hands, in the trade's order. */
  readonly items: readonly { readonly sku: string; readonly quantity: number; readonly price: number }[];
}

const PAST_STREAM = 9;
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
export const PAST_POLL_MS = MIN;
export const PAST_READING_MS = 5 * MIN;
/** Trades a day at the busiest hour's rate; the hours and days below scale it down. */
const PEAK_PER_DAY = 40;
/** Activity by local hour of the simulator's clock (UTC here): quiet nights, busy evenings. */
const HOURLY = [0.15, 0.1, 0.1, 0.1, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.6, 0.6, 0.65, 0.7, 0.8, 0.9, 1, 1, 0.9, 0.6, 0.3];
const DECLINED = 0.12;
/** A trade's total, cents: most stay under the first bound, a few reach the second. */
const TOTAL_MAX = 15_000;
const RARE_TOTAL_MAX = 250_000;
/** The balance never falls under this: a withdrawal is placed instead (sales went out of the desk). */
const BALANCE_FLOOR = 5_000;

export class TradePast {
  readonly from: number;
  readonly to: number;
  readonly trades: readonly PastTrade[];
  /** Deposits (+) and withdrawals (−): moves of the balance no trade explains. */
  readonly transfers: readonly { readonly at: number; readonly amount: number }[];
  /** The balance when the past begins. */
  readonly startBalance: number;

  constructor(seed: number, start: number, days: number, ctx: TradeContext, balanceAtStart: number) {
    this.to = start;
    this.from = start - days * DAY;
    const random = streamFor(seed, PAST_STREAM);
    this.trades = drawTrades(random, seed, this.from, this.to, ctx);
    const plan = planTransfers(this.trades, balanceAtStart, this.from, this.to);
    this.transfers = plan.transfers;
    this.startBalance = plan.startBalance;
  }

  /** The balance at `at` (moves at `at` included). */
  balanceAt(at: number): number {
    let balance = this.startBalance;
    for (const t of this.trades) if (t.completed && t.goneAt <= at) balance += effect(t);
    for (const w of this.transfers) if (w.at <= at) balance += w.amount;
    return balance;
  }

  /** What a desk watching from `from` would have seen, in time order. */
  *events(): Generator<PastEvent> {
    const byTime = new Map<number, { seen: PendingTrade[]; gone: { tradeType: string; tradeId: string }[]; listed: PastTrade[] }>();
    const at = (time: number) => {
      let slot = byTime.get(time);
      if (!slot) byTime.set(time, (slot = { seen: [], gone: [], listed: [] }));
      return slot;
    };
    for (const t of this.trades) {
      const polls = pollsDuring(this.from, t.appearAt, t.goneAt);
      const first = polls[0];
      if (first === undefined) continue;
      let shown = '';
      polls.forEach((p, i) => {
        const phase = phaseAt(t, p);
        // A load is recorded when it shows something new, and the last one that listed the trade.
        if (phase.status !== shown || i === polls.length - 1) {
          at(p).seen.push({ ...t.body, ...phase } as PendingTrade);
          shown = phase.status;
        }
      });
      if (t.listedAt !== null) at(first).listed.push(t);
      at(nextPoll(this.from, t.goneAt)).gone.push({ tradeType: t.body.trade_type, tradeId: t.body.trade_id });
    }
    let reading = this.from;
    const times = [...byTime.keys()].sort((a, b) => a - b);
    for (const time of times) {
      while (reading < time) {
        yield this.readingAt(reading);
        reading += PAST_READING_MS;
      }
      const slot = byTime.get(time);
      if (!slot) continue;
      if (slot.seen.length > 0) yield { kind: 'seen', at: time, trades: slot.seen };
      for (const t of slot.listed) yield { kind: 'listed', at: time, tradeType: t.body.trade_type, tradeId: t.body.trade_id, listedAt: t.listedAt ?? time };
      if (slot.gone.length > 0) yield { kind: 'gone', at: time, gone: slot.gone };
    }
    while (reading < this.to) {
      yield this.readingAt(reading);
      reading += PAST_READING_MS;
    }
  }

  /** Every trade with how it ended and when a desk polling each minute saw it leave; every reading's balance. */
  record(): { trades: PastTradeRecord[]; readings: { at: number; balance: number }[] } {
    const trades = this.trades.map((t) => ({
      tradeType: t.body.trade_type, tradeId: t.body.trade_id, side: t.side, total: t.body.total,
      completed: t.completed, goneAt: t.goneAt, seenGoneAt: nextPoll(this.from, t.goneAt),
      items: t.body.items.map((i) => ({ sku: i.sku, quantity: i.quantity, price: i.price })),
    }));
    const readings: { at: number; balance: number }[] = [];
    for (let at = this.from; at < this.to; at += PAST_READING_MS) readings.push({ at, balance: this.balanceAt(at) });
    return { trades, readings };
  }

  private readingAt(at: number): PastEvent {
    return { kind: 'balance', at, balance: this.balanceAt(at), pending_balance: 0 };
  }
}

const effect = (t: Pick<PastTrade, 'side' | 'body'>) => (t.side === 'sale' ? t.body.total : -t.body.total);
const nextPoll = (origin: number, at: number) => origin + Math.ceil((at - origin) / PAST_POLL_MS) * PAST_POLL_MS;

function pollsDuring(origin: number, from: number, to: number): number[] {
  const out: number[] = [];
  for (let p = nextPoll(origin, from); p < to; p += PAST_POLL_MS) out.push(p);
  return out;
}

function phaseAt(t: PastTrade, at: number): { status: string; raw_status: string } {
  let phase = t.phases[0] ?? { status: '', raw_status: '' };
  for (const p of t.phases) if (p.at <= at) phase = p;
  return { status: phase.status, raw_status: phase.raw_status };
}

/** Arrivals as a Poisson process thinned by the hour's and the day's activity. */
function drawTrades(random: Random, seed: number, from: number, to: number, ctx: TradeContext): PastTrade[] {
  const out: PastTrade[] = [];
  let at = from;
  for (;;) {
    at += Math.max(1_000, Math.round(-Math.log(1 - random()) * (DAY / PEAK_PER_DAY)));
    if (at >= to) break;
    const date = new Date(at);
    const weekend = date.getUTCDay() === 0 || date.getUTCDay() === 6 ? 1 : 0.75;
    if (random() > (HOURLY[date.getUTCHours()] ?? 0.5) * weekend) continue;
    const trade = drawTrade(streamFor(seed, PAST_STREAM, out.length + 1), out.length, at, ctx);
    if (trade.goneAt < to) out.push(trade);
  }
  return out;
}

function drawTrade(random: Random, index: number, appearAt: number, ctx: TradeContext): PastTrade {
  const tradeId = String(5_900_000_000 + index * 1_000 + intBetween(random, 0, 999));
  const roll = random();
  // Sales of listings, buy orders filled, selling into others' buy orders, buying listings.
  const [kind, role]: ['market' | 'buy_order', TradeRole] =
    roll < 0.5 ? ['market', 'seller'] : roll < 0.8 ? ['buy_order', 'buyer'] : roll < 0.9 ? ['buy_order', 'seller'] : ['market', 'buyer'];
  const timestamp = Math.floor(appearAt / 1000);
  const draw = () => kind === 'market'
    ? marketTradeBody(random, ctx, tradeId, timestamp, role)
    : buyOrderTradeBody(random, ctx, tradeId, timestamp, role);
  // A day's trading is mostly keys, metal, hats and weapons: the rare four-figure item comes up now and then.
  let body = draw();
  for (let i = 0; i < 30 && body.total > (random() < 0.03 ? RARE_TOTAL_MAX : TOTAL_MAX); i++) body = draw();
  const phases = [{ at: appearAt, ...initialStatus(kind, role) }];
  let at = appearAt;
  const step = () => (at += intBetween(random, 2, 25) * MIN);
  if (kind === 'market' && role === 'seller' && random() < 0.4) {
    phases.push({ at: step(), status: TRADE_STATUS.marketActionRequired, raw_status: RAW_STATUS.confirmationRequired });
  }
  if (kind === 'buy_order' && role === 'seller') {
    if (random() < 0.5) phases.push({ at: step(), status: TRADE_STATUS.buyOrderConfirmationRequired, raw_status: RAW_STATUS.confirmationRequired });
    phases.push({ at: step(), status: TRADE_STATUS.buyOrderWaitingForBuyer, raw_status: RAW_STATUS.sent });
  }
  const goneAt = step();
  const completed = random() >= DECLINED;
  const listedAt = kind === 'market' && role === 'seller' ? appearAt - intBetween(random, 20, 60 * 24 * 6) * MIN : null;
  return { body, side: role === 'seller' ? 'sale' : 'purchase', appearAt, goneAt, completed, phases, listedAt };
}

/**
 * Deposits and withdrawals that keep the balance believable: a deposit before
 * a purchase the balance could not pay, a withdrawal when sales piled up,
 * and one last move so the past ends at the balance the simulator starts
 * with. Each at a quiet moment (no trade completing within ten minutes, so a
 * reading never mixes a transfer with a trade).
 */
function planTransfers(trades: readonly PastTrade[], endBalance: number, from: number, to: number) {
  const moves = trades.filter((t) => t.completed).map((t) => ({ at: t.goneAt, amount: effect(t) })).sort((a, b) => a.at - b.at);
  const ceiling = Math.max(endBalance, BALANCE_FLOOR) * 3 + 200_000;
  const transfers: { at: number; amount: number }[] = [];
  const startBalance = Math.max(endBalance, BALANCE_FLOOR * 10);
  let balance = startBalance;
  let after = from;
  for (const m of moves) {
    if (balance + m.amount < BALANCE_FLOOR) {
      const at = quietMoment(moves, Math.max(after, m.at - 6 * HOUR), m.at);
      if (at !== null) {
        const amount = roundUp(BALANCE_FLOOR - balance - m.amount + 50_000);
        transfers.push({ at, amount });
        balance += amount;
        after = at;
      }
    }
    balance += m.amount;
    if (balance > ceiling) {
      const at = quietMoment(moves, m.at, Math.min(to, m.at + 12 * HOUR));
      if (at !== null) {
        const amount = -roundUp(balance - ceiling / 2);
        transfers.push({ at, amount });
        balance += amount;
        after = at;
      }
    }
  }
  if (balance !== endBalance) {
    const at = quietMoment(moves, Math.max(after, to - 2 * DAY), to - 10 * MIN);
    if (at !== null) transfers.push({ at, amount: endBalance - balance });
  }
  return { transfers: transfers.sort((a, b) => a.at - b.at), startBalance };
}

const roundUp = (cents: number) => Math.ceil(cents / 5_000) * 5_000;

/** The first moment in (lo, hi) at least ten minutes from any completion, on a ten-minute grid. */
function quietMoment(moves: readonly { at: number }[], lo: number, hi: number): number | null {
  for (let at = Math.ceil((lo + MIN) / (10 * MIN)) * 10 * MIN; at < hi; at += 10 * MIN) {
    if (moves.every((m) => Math.abs(m.at - at) > 10 * MIN)) return at;
  }
  return null;
}
