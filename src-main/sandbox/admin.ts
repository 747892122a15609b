import type { PendingTrade } from '../../src-shared/trades.ts';
import type { Clock } from '../core/clock.ts';
import type { Faults } from './faults.ts';
import type { SandboxCounters } from './request-log.ts';
import type { Balance, KeyStatus, UserAgentState } from './state/accounts.ts';
import type { SandboxBuyOrder } from './state/buy-orders.ts';
import type { ListingState, SandboxListing } from './state/listings.ts';
import type { Sale } from './state/sales.ts';
import type { TradeSeed } from './state/trades.ts';
import type { World } from './state/world.ts';
import type { TradePast } from './state/trade-past.ts';

/**
 * In-process access to the sandbox's state for tests, benchmarks and the
 * sandbox mode of the app: inspect and seed without HTTP and without spending
 * rate budget. Every call first brings the world up to the clock. Values
 * returned are copies: changing them changes nothing.
 */

export interface InventoryAsset {
  readonly asset_id: string;
  readonly sku: string;
  readonly game: string;
}

export interface SandboxAdmin {
  /** Every listing record (all states), with whether its account is automated now. */
  listings(): ReadonlyArray<Readonly<SandboxListing> & { readonly automated: boolean }>;
  /** Open buy orders (those with an unfilled part). */
  buyOrders(): ReadonlyArray<Readonly<SandboxBuyOrder>>;
  /** Owned assets with no standing listing; the main account's when `account` is omitted. */
  inventory(account?: string): readonly InventoryAsset[];
  /** Lists the first `count` free assets of `account` (default main) at plausible prices; no budget spent, no counters moved. */
  seedListings(count: number, account?: string, state?: ListingState): ReadonlyArray<Readonly<SandboxListing>>;
  /**
   * Lists the free assets `pick` chooses (in inventory order, at most `count`) of `account` (default main), each at
   * `price` cents: a ledger of one kind of item at one price, as a trader who priced them alike has. Like
   * `seedListings`, no budget spent; throws when fewer than `count` assets match.
   */
  seedListingsOf(count: number, pick: (asset: InventoryAsset) => boolean, price: number, account?: string): ReadonlyArray<Readonly<SandboxListing>>;
  /** Moves a listing to another state (e.g. 'sold', 'cancelled', 'inactive') to test delete-all. */
  setListingState(listingId: string, state: ListingState): Readonly<SandboxListing>;
  /** Deletes a listing the way the trader does on the website: the desk is not told. */
  removeListing(listingId: string): void;
  /** The asset leaves the account (traded away on the platform): it can no longer be listed. */
  takeAsset(assetId: string): void;
  /** Every sale the `listingSales` knob made so far, oldest first. */
  sales(): readonly Sale[];
  /** A seller fills `units` of the order for `sku` now (paid from the balance); returns units filled. */
  fillBuyOrder(sku: string, units: number, account?: string): number;
  /** Pending trades of both kinds as the service would return them now. */
  trades(): readonly PendingTrade[];
  /** Injects a pending trade; unspecified fields are generated. */
  addTrade(seed: TradeSeed): PendingTrade;
  /** Forces a trade's status; `rawStatus` defaults from the status. */
  setTradeStatus(tradeId: string, status: string, rawStatus?: string): void;
  /** Takes a trade off the pending lists. */
  removeTrade(tradeId: string): void;
  /** Automation state of an account (main by default); `refreshAt` in sandbox epoch ms. */
  userAgent(account?: string): UserAgentState;
  /** Sets the balance: a number sets `balance`; an object sets either field. */
  setBalance(value: number | Partial<Balance>): void;
  balance(): Balance;
  /** Current trade URL of each own account (null when unset). */
  tradeUrls(): ReadonlyMap<string, string | null>;
  /** Revokes or suspends the main key (or restores it) to test 401/403 mid-run. */
  setKeyStatus(status: KeyStatus): void;
  /** The sandbox clock, ms. */
  now(): number;
  /** Trades that went through since the start and moved the balance (with `tradeMoney`), oldest first. */
  settledTrades(): ReadonlyArray<{ readonly tradeType: string; readonly tradeId: string; readonly amount: number; readonly at: number }>;
  /** The simulator's own record of the weeks before its start: every trade and how it ended, every balance reading; null without a past. */
  pastRecord(): ReturnType<TradePast['record']> | null;
}

export function createAdmin(world: World, clock: Clock, counters: SandboxCounters, faults: Faults): SandboxAdmin {
  const now = () => {
    const t = clock.now();
    world.advance(t, counters, faults.listingSales());
    return t;
  };
  const { accounts, listings, buyOrders, inventory, trades } = world;
  const free = (account: string) => inventory.owned(account).filter((a) => !listings.liveFor(a.asset_id));
  const accountOrMain = (account?: string) => {
    if (account !== undefined && account !== accounts.main && !accounts.isLinked(account)) {
      throw new RangeError(`${account} is not an account of this sandbox`);
    }
    return account ?? accounts.main;
  };

  return {
    listings() {
      const t = now();
      return listings.all().map((l) => ({ ...l, automated: accounts.userAgent(l.account, t).automated }));
    },
    buyOrders() {
      now();
      return buyOrders.all().map((o) => ({ ...o }));
    },
    inventory(account) {
      now();
      return free(accountOrMain(account)).map(({ asset_id, sku, game }) => ({ asset_id, sku, game }));
    },
    seedListings(count, account, state = 'active') {
      const t = now();
      const owner = accountOrMain(account);
      const assets = free(owner).slice(0, count);
      if (assets.length < count) throw new RangeError(`account ${owner} has only ${assets.length} free assets`);
      return assets.map((a) => ({
        ...listings.insert(owner, { asset_id: a.asset_id, price: a.suggestedPrice, promoted: 0, game: a.game }, state, t),
      }));
    },
    seedListingsOf(count, pick, price, account) {
      const t = now();
      const owner = accountOrMain(account);
      const assets = free(owner).filter((a) => pick({ asset_id: a.asset_id, sku: a.sku, game: a.game })).slice(0, count);
      if (assets.length < count) throw new RangeError(`account ${owner} has only ${assets.length} free assets of that kind`);
      return assets.map((a) => ({ ...listings.insert(owner, { asset_id: a.asset_id, price, promoted: 0, game: a.game }, 'active', t) }));
    },
    setListingState(listingId, state) {
      now();
      return { ...listings.setState(listingId, state) };
    },
    removeListing(listingId) {
      now();
      listings.removeById(listingId);
    },
    takeAsset(assetId) {
      now();
      if (!inventory.get(assetId)) throw new RangeError(`no asset ${assetId}`);
      inventory.markGone(assetId);
    },
    sales() {
      now();
      return world.sales.made.map((s) => ({ ...s }));
    },
    fillBuyOrder(sku, units, account) {
      now();
      const order = buyOrders.find([accountOrMain(account)], sku);
      if (!order) throw new RangeError(`no open buy order for ${sku}`);
      const filled = buyOrders.fill(order, units, accounts.balance);
      counters.buyOrderUnitsFilled += filled;
      return filled;
    },
    trades: () => trades.pending(now()),
    addTrade: (seed) => trades.add(seed, now()),
    setTradeStatus: (tradeId, status, rawStatus) => trades.setStatus(tradeId, status, rawStatus),
    removeTrade: (tradeId) => trades.remove(tradeId),
    userAgent: (account) => accounts.userAgent(accountOrMain(account), now()),
    setBalance(value) {
      now();
      const next = typeof value === 'number' ? { balance: value } : value;
      for (const amount of Object.values(next)) {
        if (!Number.isSafeInteger(amount)) throw new RangeError('balances are integer cents');
      }
      Object.assign(accounts.balance, next);
    },
    balance: () => {
      now();
      return { ...accounts.balance };
    },
    tradeUrls: () => new Map(accounts.all().map((id) => [id, accounts.tradeUrl(id)])),
    setKeyStatus(status) {
      accounts.keyStatus = status;
    },
    now: () => clock.now(),
    pastRecord: () => world.past()?.record() ?? null,
    settledTrades() {
      now();
      return world.trades.settled.map((s) => ({ ...s }));
    },
  };
}
