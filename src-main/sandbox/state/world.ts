import type { ListingSalesFault } from './sales.ts';
import { streamFor } from '../catalog/prng.ts';
import { Accounts } from './accounts.ts';
import { BuyOrders } from './buy-orders.ts';
import { Inventory } from './inventory.ts';
import { Listings } from './listings.ts';
import { Sales } from './sales.ts';
import { Trades } from './trades.ts';
import { TradePast } from './trade-past.ts';

export interface SandboxCounters {
  /** Requests received, any outcome. */
  requests: number;
  /** Create items naming an asset that already had a live listing (not created again). */
  duplicateCreates: number;
  listingsCreated: number;
  listingsEdited: number;
  listingsDeleted: number;
  buyOrdersCreated: number;
  /** Create items whose quantity was cut to floor(balance / price). */
  buyOrderQuantityCut: number;
  /** Create items skipped: the balance covers not even one unit. */
  buyOrdersSkippedNoFunds: number;
  /** Create items naming a SKU that already had an open order on that account. */
  duplicateBuyOrderCreates: number;
  buyOrdersEdited: number;
  buyOrdersDeleted: number;
  /** Units filled by simulated sellers. */
  buyOrderUnitsFilled: number;
  /** Listings bought by simulated buyers (the `listingSales` knob). */
  listingsSold: number;
  /** Every 429 sent (rate limits and storms). */
  count429: number;
  /** 429s caused by the storm fault alone. */
  countStorm429: number;
  count400: number;
  count401: number;
  count403: number;
  count404: number;
  count5xx: number;
  dropped: number;
  malformed: number;
  delayed: number;
  /** Requests answered with a 5xx after they were processed. */
  failedAfterProcess: number;
  /** Requests never answered. */
  silent: number;
}

/**
 * Everything the simulated service knows, built from one seed. Each request
 * (and each admin call) first brings the world up to the clock with
 * `advance`, so time-driven changes need no timers.
 */

export interface WorldOptions {
  readonly seed: number;
  /** Unlisted assets of the main account; each linked account gets a tenth (at least 100). */
  readonly inventorySize: number;
  /** Trades appear and move, buy orders fill, over time. */
  readonly tradeSchedule: boolean;
  /** Sandbox ms when the world starts; the trade schedule is relative to it. */
  readonly start: number;
  /** Days of trading before the start (0: none), drawn when first asked for. */
  readonly pastDays: number;
  /** Trades that go through move the balance (sales in, purchases out). */
  readonly tradeMoney?: boolean;
}

const ACCOUNTS_STREAM = 5;
const LISTING_ID_STREAM = 6;
const DAY_S = 86_400;

export class World {
  readonly accounts: Accounts;
  readonly inventory: Inventory;
  readonly listings: Listings;
  readonly buyOrders: BuyOrders;
  readonly trades: Trades;
  readonly sales: Sales;
  private readonly pastOf: () => TradePast | null;
  private readonly tradeMoney: boolean;
  private settledTo: number;

  constructor(options: WorldOptions) {
    const { seed } = options;
    const random = streamFor(seed, ACCOUNTS_STREAM);
    this.accounts = new Accounts(random);
    const linkedSize = Math.max(100, Math.floor(options.inventorySize / 10));
    this.inventory = new Inventory(seed, [
      [this.accounts.main, options.inventorySize],
      ...this.accounts.linked.map((id) => [id, linkedSize] as const),
    ]);
    this.listings = new Listings(this.inventory, streamFor(seed, LISTING_ID_STREAM));
    this.buyOrders = new BuyOrders(seed, options.tradeSchedule);
    const startSec = Math.floor(options.start / 1000);
    const ownCreation = new Map(this.accounts.all().map((id, i) => [id, startSec - (2_000 + i * 97) * DAY_S]));
    // A scheduled market trade in which an own account sells takes one of its listings (sales exist by then).
    const sellListing = (account: string, at: number, tradeId: string) => this.sales.sellFor(account, at, tradeId);
    this.trades = new Trades(seed, options.start, { accounts: this.accounts, ownCreation, sellListing }, options.tradeSchedule);
    this.sales = new Sales(seed, this.listings, this.trades);
    this.tradeMoney = options.tradeMoney ?? false;
    this.settledTo = options.start;
    const ctx = { accounts: this.accounts, ownCreation };
    const balanceAtStart = this.accounts.balance.balance;
    let past: TradePast | null | undefined;
    this.pastOf = () => (past ??= options.pastDays > 0 ? new TradePast(seed, options.start, options.pastDays, ctx, balanceAtStart) : null);
  }

  /** The weeks of trading before the start, or null when the world has none. */
  past(): TradePast | null {
    return this.pastOf();
  }

  /** Applies what happened between the last call and `now`: seeded buy order fills, and sales when `sales` is on. */
  advance(now: number, counters: SandboxCounters, sales: (ListingSalesFault & { readonly since: number }) | null = null): void {
    counters.buyOrderUnitsFilled += this.buyOrders.advance(now, this.accounts.balance);
    counters.listingsSold += this.sales.advance(now, sales);
    if (this.tradeMoney && now > this.settledTo) {
      const sold = new Set(this.sales.made.map((sale) => sale.tradeId));
      this.trades.settle(this.settledTo, now, this.accounts.balance, (id) => sold.has(id));
      this.settledTo = now;
    }
  }
}
