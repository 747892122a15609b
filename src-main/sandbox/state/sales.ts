import type { MarketTrade } from '../../../src-shared/trades.ts';
import { describeSku } from '../catalog/catalog.ts';
import type { SoldItem } from './trade-factory.ts';
import { soldItems } from './trade-factory.ts';
import { streamFor } from '../catalog/prng.ts';
import type { Listings } from './listings.ts';
import { TRADE_STATUS } from './trade-factory.ts';
import type { Trades } from './trades.ts';

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

/**
 * Buyers taking listings: when the `listingSales` knob is on, at seeded
 * Poisson times a random active listing is sold (it stops standing, its asset
 * leaves the inventory) and a market trade appears in which the seller is the
 * listing's account, naming its SKU and price; it waits for the seller, then
 * completes and leaves the pending list. A scheduled market trade in which an
 * own account sells takes one of its listings the same way. The desk cannot
 * list listings, so these trades are all it can learn of a sale from.
 */

const SALES_STREAM = 8;
const DEFAULT_TRADE_MS = 5 * 60_000;

/** One sale, for tests to compare with the desk's ledger. */
export interface Sale {
  readonly listingId: string;
  readonly assetId: string;
  readonly tradeId: string;
  readonly at: number;
}

export class Sales {
  private readonly seed: number;
  private readonly listings: Listings;
  private readonly trades: Trades;
  private nextAt: number | null = null;
  /** Sales made since the knob was (last) set, for its `limit`. */
  private soldSince: { since: number; count: number } | null = null;
  readonly made: Sale[] = [];

  constructor(seed: number, listings: Listings, trades: Trades) {
    this.seed = seed;
    this.listings = listings;
    this.trades = trades;
  }

  /**
   * Makes the sales due up to `now` under `config` (none when off; from
   * `since` when it was turned on, at most `limit` of them); returns how many.
   */
  advance(now: number, config: (ListingSalesFault & { readonly since: number }) | null): number {
    if (config === null || !(config.meanGapMs > 0)) {
      this.nextAt = null;
      this.soldSince = null;
      return 0;
    }
    if (this.soldSince?.since !== config.since) this.soldSince = { since: config.since, count: 0 };
    const counted = this.soldSince;
    this.nextAt ??= config.since + this.gap(config);
    let sold = 0;
    while (this.nextAt <= now && counted.count < (config.limit ?? Infinity)) {
      if (this.sellOne(this.nextAt, config)) {
        sold++;
        counted.count++;
      }
      this.nextAt += this.gap(config);
    }
    return sold;
  }

  private sellOne(at: number, config: ListingSalesFault): boolean {
    const random = streamFor(this.seed, SALES_STREAM, this.made.length, 1);
    const among = config.among ? new Set(config.among) : null;
    const candidates = this.listings.active().filter((l) => among === null || among.has(l.listing_id));
    const listing = candidates[Math.floor(random() * candidates.length)];
    if (!listing) return false;
    this.listings.setState(listing.listing_id, 'sold');
    const seed = {
      trade_type: 'market',
      role: 'seller',
      supplier_id: listing.account,
      status: TRADE_STATUS.marketActionRequired,
      timestamp: Math.floor(at / 1000),
      total: listing.price,
      items: soldItems(describeSold(listing)),
    } satisfies Partial<MarketTrade> & { trade_type: 'market'; role: 'seller' };
    const trade = this.trades.add(seed, at, at + (config.tradeMs ?? DEFAULT_TRADE_MS));
    this.made.push({ listingId: listing.listing_id, assetId: listing.asset_id, tradeId: trade.trade_id, at });
    return true;
  }

  /**
   * A scheduled market trade in which `account` sells: a buyer took one of
   * its active listings, listed by `at` (the schedule calls this for trades
   * appearing after the start). Null when it has none.
   */
  sellFor(account: string, at: number, tradeId: string): SoldItem | null {
    const random = streamFor(this.seed, SALES_STREAM, this.made.length, 3);
    const candidates = this.listings.active().filter((l) => l.account === account && l.createdAt <= at);
    const listing = candidates[Math.floor(random() * candidates.length)];
    if (!listing) return null;
    this.listings.setState(listing.listing_id, 'sold');
    this.made.push({ listingId: listing.listing_id, assetId: listing.asset_id, tradeId, at });
    return describeSold(listing);
  }

  private gap(config: ListingSalesFault): number {
    const random = streamFor(this.seed, SALES_STREAM, this.made.length, 2);
    return Math.max(1_000, Math.round(-Math.log(1 - random()) * config.meanGapMs));
  }
}

function describeSold(listing: { sku: string; price: number }): SoldItem {
  const item = describeSku(listing.sku);
  return { sku: listing.sku, price: listing.price, name: item.name, quality: item.quality, classId: item.classId };
}
