import { createMarketplaceClient } from '../../../src-main/core/api/client.ts';
import type { ClientOptions, MarketplaceClient, RateLimitInfo } from '../../../src-main/core/api/client.ts';
import type { EndpointName, RequestOf } from '../../../src-main/core/api/endpoints.ts';
import type { Clock } from '../../../src-main/core/clock.ts';
import { scaledClock } from '../../../src-main/core/clock.ts';
import { startSandbox } from '../../../src-main/sandbox/index.ts';
import type { Sandbox, SandboxOptions } from '../../../src-main/sandbox/index.ts';

/**
 * The client against the sandbox over real HTTP, with the sandbox's minute
 * shrunk so rate windows pass in a fraction of a second.
 */

/** A sandbox minute lasts 200 ms. */
export const TIME_SCALE = 300;

export interface ContractEnv {
  readonly sandbox: Sandbox;
  readonly clock: Clock;
  /** Every onRateLimit report of every client made by `client()`. */
  readonly rate: RateLimitInfo[];
  /** A client of the sandbox; the main valid key unless another is given. */
  client(key?: string, options?: Partial<ClientOptions>): MarketplaceClient;
  close(): Promise<void>;
}

export async function startContractEnv(options: SandboxOptions = {}): Promise<ContractEnv> {
  const clock = scaledClock(TIME_SCALE);
  const sandbox = await startSandbox({ clock, seed: 3, inventorySize: 400, tradeSchedule: false, ...options });
  const rate: RateLimitInfo[] = [];
  const clients: MarketplaceClient[] = [];
  return {
    sandbox,
    clock,
    rate,
    client(key = sandbox.apiKey, extra = {}) {
      const client = createMarketplaceClient({
        baseUrl: sandbox.url,
        apiKey: async () => key,
        clock,
        onRateLimit: (info) => rate.push(info),
        ...extra,
      });
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await sandbox.close();
    },
  };
}

export const tradeUrl = (i: number) => `https://steamcommunity.com/tradeoffer/new/?partner=${1000 + i}&token=tok${String(i).padStart(5, '0')}`;

/** A SKU no seeded order uses, one per `i`. */
export const freshSku = (i: number) => `${9000 + i};6`;

type InputsOf<K extends EndpointName> = (env: ContractEnv) => Promise<(i: number) => RequestOf<K>>;

/**
 * For each endpoint: prepares the sandbox (with the admin where it can, so no
 * rate budget is spent), then gives the i-th valid input, each one accepted
 * by the service on its own (distinct assets, listings, orders).
 */
export const VALID_INPUTS: { readonly [K in EndpointName]: InputsOf<K> } = {
  async create_listing({ sandbox }) {
    const assets = sandbox.admin.inventory();
    return (i) => {
      const asset = assets[i]!;
      return { items: [{ asset_id: asset.asset_id, price: 250 + i, promoted: 0, game: asset.game }] };
    };
  },
  async edit_listing({ sandbox }) {
    const listings = sandbox.admin.seedListings(10);
    return (i) => ({ items: [{ listing_id: listings[i]!.listing_id, price: 300 + i, promoted: 1 }] });
  },
  async delete_listing({ sandbox }) {
    const listings = sandbox.admin.seedListings(10);
    return (i) => ({ items: [{ asset_id: listings[i]!.asset_id }] });
  },
  async delete_all_listings() {
    return () => ({ active_only: true });
  },
  async create_buy_order() {
    return (i) => ({ items: [{ sku: freshSku(i), price: 100, quantity: 2 }] });
  },
  async edit_buy_order(env) {
    await createBuyOrders(env, 10);
    return (i) => ({ items: [{ sku: freshSku(i), price: 120, quantity: 3, active: 0 }] });
  },
  async delete_buy_order(env) {
    await createBuyOrders(env, 10);
    return (i) => ({ items: [{ sku: freshSku(i) }] });
  },
  async delete_all_buy_orders() {
    return () => ({});
  },
  async load_pending() {
    return () => ({});
  },
  async load_pending_buy_orders() {
    return () => ({});
  },
  async set_trade_url() {
    return (i) => ({ trade_url: tradeUrl(i) });
  },
  async get_linked_trade_urls() {
    return () => ({});
  },
  async get_balance() {
    return () => ({});
  },
  async set_user_agent({ sandbox }) {
    return () => ({ multiaccounts: [...sandbox.accounts.linked] });
  },
};

/** Buy orders for `freshSku(0..count-1)`, made in one request (the service has no other way). */
export async function createBuyOrders(env: ContractEnv, count: number): Promise<void> {
  const items = Array.from({ length: count }, (_, i) => ({ sku: freshSku(i), price: 100, quantity: 2 }));
  await env.client().call('create_buy_order', { items });
}

/** A typed call of `endpoint` with its i-th valid input. */
export async function inputsFor<K extends EndpointName>(env: ContractEnv, endpoint: K): Promise<(i: number) => RequestOf<K>> {
  const make = VALID_INPUTS[endpoint] as InputsOf<K>;
  return make(env);
}

/** What a request could have changed, to show a refused one changed nothing. */
export function snapshot(sandbox: Sandbox): string {
  const { admin } = sandbox;
  return JSON.stringify({
    listings: admin.listings().map(({ automated: _a, ...l }) => l),
    buyOrders: admin.buyOrders(),
    tradeUrls: [...admin.tradeUrls()],
    userAgent: [sandbox.accounts.main, ...sandbox.accounts.linked].map((a) => admin.userAgent(a).refreshAt),
  });
}
