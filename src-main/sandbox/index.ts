import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../core/clock.ts';
import { systemClock } from '../core/clock.ts';
import type { SandboxAdmin } from './admin.ts';
import { createAdmin } from './admin.ts';
import type { SandboxFaults } from './fault-config.ts';
import { Faults } from './faults.ts';
import { streamFor } from './catalog/prng.ts';
import type { RateWindowMode } from './rate-limiter.ts';
import { RateLimiter } from './rate-limiter.ts';
import type { SandboxLog } from './request-log.ts';
import { RequestLog } from './request-log.ts';
import { createRequestListener } from './server.ts';
import { World } from './state/world.ts';
import type { PastEvent } from '../core/history/past-fill.ts';
import { createPricedbState, sandboxPricedb, type SandboxPricedb } from './prices/pricedb-sim.ts';

/**
 * The built-in simulator of the marketplace service: every endpoint, rule,
 * rate limit, header and error of the interface document, over real HTTP on
 * loopback, with seeded data that moves over time and knobs for faults. The
 * app's sandbox mode and every integration test and benchmark run against it.
 */

export type { InventoryAsset, SandboxAdmin } from './admin.ts';
export type {
  DelayFault, FaultConfig, FaultName, FaultScope, KeyEchoFault, ListingSalesFault, MalformedFault, RefusalStyle, SandboxFaults, ServerErrorFault,
  Storm429Fault, TradeKeyEchoFault,
} from './fault-config.ts';
export type {
  Inventory429Fault, InventoryDelayFault, InventoryEndlessFault, InventoryLyingTotalFault, InventoryMalformedFault, InventoryPrivateFault,
  InventoryServerErrorFault,
} from './inventory-faults.ts';
export type { KeySpelling, TradeEchoField } from './key-echo.ts';
export type { RateWindowMode } from './rate-limiter.ts';
export type { AppliedFault, RecordedRequest, SandboxCounters, SandboxLog } from './request-log.ts';
export type { InventoryRequestRecord } from './steam-inventory.ts';
export { STEAM_MAX_PAGE } from './steam-inventory.ts';
export type { Balance, KeyKind, KeyStatus, LinkedAccountProfile, UserAgentState } from './state/accounts.ts';
export type { SandboxBuyOrder } from './state/buy-orders.ts';
export type { ListingState, SandboxListing } from './state/listings.ts';
export type { Sale } from './state/sales.ts';
export type { TradeSeed } from './state/trades.ts';
export type { PastTradeRecord } from './state/trade-past.ts';
export { RAW_STATUS, TRADE_STATUS } from './state/trade-factory.ts';
export type { SandboxPricedb } from './prices/pricedb-sim.ts';

export interface SandboxOptions {
  /** Default 0: any free port. */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** All sandbox time (refresh_at, rate windows, trade schedule) reads this. Default: the system clock. */
  clock?: Clock;
  /** Deterministic data; default 1. */
  seed?: number;
  /** Unlisted assets in the main account's inventory; default 20 000. */
  inventorySize?: number;
  /** Trades appear and move, and buy orders fill, over time; default true. */
  tradeSchedule?: boolean;
  /** Default 'sliding'. */
  rateWindow?: RateWindowMode;
  /** Days of trading before the start that a desk's History is filled with on its first start; default 14, 0 for none. */
  pastDays?: number;
  /**
   * Trades that go through move the balance (sales in, purchases out), so a
   * desk's History tells them from declined ones. Default off: tests that
   * read the balance keep it still; the app's sandbox mode turns it on.
   */
  tradeMoney?: boolean;
}

export interface Sandbox {
  /** 'http://127.0.0.1:<port>' */
  readonly url: string;
  /** A valid key of the main account. */
  readonly apiKey: string;
  /** Keys that get 401 (revoked) and 403 (account not in good standing). */
  readonly keys: { readonly revoked: string; readonly forbidden: string };
  readonly accounts: { readonly main: string; readonly linked: readonly string[] };
  readonly faults: SandboxFaults;
  readonly log: SandboxLog;
  readonly admin: SandboxAdmin;
  /** The price source served beside it (pricedb.io's API, prices drifting over simulated time), with its knobs. */
  readonly pricedb: SandboxPricedb;
  /**
   * The weeks before the start as a desk watching them would have seen them
   * (loads, trades gone, balance readings), with the accounts they are of;
   * null when `pastDays` is 0.
   */
  past(): { readonly events: Iterable<PastEvent>; readonly ownIds: readonly string[] } | null;
  /** Stops listening, drops open connections, abandons delayed requests. Leaves nothing running. */
  close(): Promise<void>;
}

const FAULT_STREAM = 7;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const clock = options.clock ?? systemClock;
  const seed = options.seed ?? 1;
  const host = options.host ?? '127.0.0.1';
  const pastDays = options.pastDays ?? 14;
  const world = new World({
    seed,
    inventorySize: options.inventorySize ?? 20_000,
    tradeSchedule: options.tradeSchedule ?? true,
    start: clock.now(),
    pastDays,
    tradeMoney: options.tradeMoney ?? false,
  });
  const log = new RequestLog();
  const faults = new Faults(streamFor(seed, FAULT_STREAM), () => clock.now());
  const limiter = new RateLimiter(options.rateWindow ?? 'sliding');
  const closing = new AbortController();
  const pricedb = createPricedbState(seed, clock);
  const server = createServer(createRequestListener({ world, clock, limiter, faults, log, closing: closing.signal, pricedb }));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let closed: Promise<void> | null = null;

  return {
    url: `http://${urlHost}:${port}`,
    apiKey: world.accounts.apiKey,
    keys: { revoked: world.accounts.revokedKey, forbidden: world.accounts.forbiddenKey },
    accounts: { main: world.accounts.main, linked: [...world.accounts.linked] },
    faults,
    log,
    admin: createAdmin(world, clock, log.counters, faults),
    pricedb: sandboxPricedb(pricedb, `http://${urlHost}:${port}`),
    past() {
      if (pastDays === 0) return null;
      // Drawn only when iterated: a desk whose history was filled before never pays for it.
      const events = { [Symbol.iterator]: () => world.past()?.events() ?? [][Symbol.iterator]() };
      return { events, ownIds: world.accounts.all() };
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        closing.abort(new Error('sandbox closed'));
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
