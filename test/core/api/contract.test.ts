import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { splitIntoRequests } from '../../../src-main/core/api/client.ts';
import type { MarketplaceClient } from '../../../src-main/core/api/client.ts';
import { USER_AGENT_TTL_SECONDS } from '../../../src-main/core/api/endpoints.ts';
import { buyOrderTrade, marketTrade } from '../../../src-shared/trades.ts';
import { createBuyOrders, freshSku, startContractEnv, tradeUrl } from './contract-fixtures.ts';
import type { ContractEnv } from './contract-fixtures.ts';

/**
 * The success side of the contract: every endpoint of the interface document,
 * called by the client against the sandbox over real HTTP, with its response
 * shape and its effect on the service's state. The error side is in
 * contract-errors.test.ts.
 */

let env: ContractEnv;
let client: MarketplaceClient;

beforeEach(async () => {
  env = await startContractEnv();
  client = env.client();
});

afterEach(async () => {
  await env.close();
});

describe('listings', () => {
  it('create_listing returns a listing_id, sku and asset_id for each created listing', async () => {
    const assets = env.sandbox.admin.inventory().slice(0, 3);
    const items = assets.map((a, i) => ({ asset_id: a.asset_id, price: 100 + i, promoted: 0 as const, game: a.game }));
    const response = await client.call('create_listing', { items });
    expect(response.success).toBe(true);
    expect(response.created_listings.map((l) => [l.asset_id, l.sku])).toEqual(assets.map((a) => [a.asset_id, a.sku]));
    const stored = env.sandbox.admin.listings();
    for (const created of response.created_listings) {
      expect(created.listing_id).not.toBe('');
      expect(stored.find((l) => l.listing_id === created.listing_id)?.state).toBe('active');
    }
  });

  it('edit_listing changes price, promotion and note', async () => {
    const [listing] = env.sandbox.admin.seedListings(1);
    const response = await client.call('edit_listing', {
      items: [{ listing_id: listing!.listing_id, price: 4321, promoted: 1, user_note: 'fast trade' }],
    });
    expect(response).toEqual({ success: true });
    expect(env.sandbox.admin.listings().find((l) => l.listing_id === listing!.listing_id)).toMatchObject({
      price: 4321,
      promoted: 1,
      user_note: 'fast trade',
    });
  });

  it('delete_listing removes the listing of each asset', async () => {
    const [gone, kept] = env.sandbox.admin.seedListings(2);
    await expect(client.call('delete_listing', { items: [{ asset_id: gone!.asset_id }] })).resolves.toEqual({
      success: true,
    });
    expect(env.sandbox.admin.listings().map((l) => l.listing_id)).toEqual([kept!.listing_id]);
  });

  it('delete_all_listings with active_only keeps sold, cancelled and inactive listings', async () => {
    const [active, inactive, sold] = env.sandbox.admin.seedListings(3);
    env.sandbox.admin.setListingState(inactive!.listing_id, 'inactive');
    env.sandbox.admin.setListingState(sold!.listing_id, 'sold');
    await expect(client.call('delete_all_listings', { active_only: true })).resolves.toEqual({ success: true });
    const left = env.sandbox.admin.listings().map((l) => l.listing_id);
    expect(left).not.toContain(active!.listing_id);
    expect(left.sort()).toEqual([inactive!.listing_id, sold!.listing_id].sort());
  });

  it('delete_all_listings without active_only removes every listing, history included', async () => {
    const [, inactive] = env.sandbox.admin.seedListings(2);
    env.sandbox.admin.setListingState(inactive!.listing_id, 'inactive');
    await client.call('delete_all_listings', { active_only: false });
    expect(env.sandbox.admin.listings()).toEqual([]);
  });

  it('more than 100 items go out as several requests of at most 100, every item applied', async () => {
    const assets = env.sandbox.admin.inventory().slice(0, 250);
    const items = assets.map((a) => ({ asset_id: a.asset_id, price: 500, promoted: 0 as const, game: a.game }));
    const requests = splitIntoRequests('create_listing', items);
    const created = [];
    for (const request of requests) {
      created.push(...(await client.call('create_listing', request)).created_listings);
    }
    const sent = env.sandbox.log.requests.filter((r) => r.endpoint === 'create_listing');
    expect(sent.map((r) => [r.status, r.itemCount])).toEqual([
      [200, 100],
      [200, 100],
      [200, 50],
    ]);
    expect(created.map((l) => l.asset_id)).toEqual(assets.map((a) => a.asset_id));
    expect(env.sandbox.admin.listings()).toHaveLength(250);
    expect(env.sandbox.log.counters.duplicateCreates).toBe(0);
  });
});

describe('buy orders', () => {
  it('create_buy_order cuts the quantity to floor(balance / price)', async () => {
    env.sandbox.admin.setBalance(1_000);
    const response = await client.call('create_buy_order', {
      items: [
        { sku: freshSku(1), price: 300, quantity: 10 },
        { sku: freshSku(2), price: 100, quantity: 5 },
      ],
    });
    expect(response).toEqual({ success: true });
    const orders = new Map(env.sandbox.admin.buyOrders().map((o) => [o.sku, o]));
    expect(orders.get(freshSku(1))).toMatchObject({ price: 300, quantity: 3, active: 1 });
    expect(orders.get(freshSku(2))).toMatchObject({ price: 100, quantity: 5 });
    // No funds are reserved at creation.
    expect(env.sandbox.admin.balance().balance).toBe(1_000);
  });

  it('edit_buy_order changes price, quantity and pauses the order', async () => {
    await createBuyOrders(env, 1);
    await expect(
      client.call('edit_buy_order', { items: [{ sku: freshSku(0), price: 150, quantity: 4, active: 0 }] }),
    ).resolves.toEqual({ success: true });
    expect(env.sandbox.admin.buyOrders()[0]).toMatchObject({ sku: freshSku(0), price: 150, quantity: 4, active: 0 });
  });

  it('delete_buy_order removes the named orders only', async () => {
    await createBuyOrders(env, 2);
    await client.call('delete_buy_order', { items: [{ sku: freshSku(0) }] });
    expect(env.sandbox.admin.buyOrders().map((o) => o.sku)).toEqual([freshSku(1)]);
  });

  it('delete_all_buy_orders reports deleted_count', async () => {
    await createBuyOrders(env, 3);
    await expect(client.call('delete_all_buy_orders', {})).resolves.toEqual({ success: true, deleted_count: 3 });
    expect(env.sandbox.admin.buyOrders()).toEqual([]);
  });
});

describe('trades', () => {
  it('load_pending returns the market trades, parsed', async () => {
    const injected = env.sandbox.admin.addTrade({ trade_type: 'market', role: 'seller' });
    const trades = await client.call('load_pending', {});
    expect(trades.map((t) => t.trade_id)).toEqual([injected.trade_id]);
    expect(trades[0]).toEqual(marketTrade.parse(injected));
  });

  it('load_pending_buy_orders returns the buy order trades, parsed', async () => {
    const injected = env.sandbox.admin.addTrade({ trade_type: 'buy_order' });
    const trades = await client.call('load_pending_buy_orders', {});
    expect(trades.map((t) => t.trade_id)).toEqual([injected.trade_id]);
    expect(trades[0]).toEqual(buyOrderTrade.parse(injected));
  });

  it('the scheduled trades of a seeded sandbox pass the response schemas', async () => {
    await env.close();
    env = await startContractEnv({ tradeSchedule: true });
    client = env.client();
    // Trades arrive over time: let sandbox minutes pass until some are pending.
    for (let i = 0; i < 30 && env.sandbox.admin.trades().length === 0; i += 1) await env.clock.sleep(60_000);
    const market = await client.call('load_pending', {});
    const buyOrders = await client.call('load_pending_buy_orders', {});
    expect(market.length + buyOrders.length).toBeGreaterThan(0);
    expect(market.every((t) => t.trade_type === 'market')).toBe(true);
    expect(buyOrders.every((t) => t.trade_type === 'buy_order')).toBe(true);
  });
});

describe('accounts', () => {
  it('set_trade_url sets the main account’s URL, and a linked one’s through multiaccount_proxy', async () => {
    const [linked] = env.sandbox.accounts.linked;
    await expect(client.call('set_trade_url', { trade_url: tradeUrl(1) })).resolves.toEqual({ success: true });
    expect(env.sandbox.admin.tradeUrls().get(env.sandbox.accounts.main)).toBe(tradeUrl(1));
    await env.clock.sleep(60_000); // 1/min: wait out the sandbox minute
    await client.call('set_trade_url', { trade_url: tradeUrl(2), multiaccount_proxy: linked! });
    expect(env.sandbox.admin.tradeUrls().get(linked!)).toBe(tradeUrl(2));
  });

  it('get_linked_trade_urls names the main and every linked account', async () => {
    const response = await client.call('get_linked_trade_urls', {});
    expect(response.main_account.id64).toBe(env.sandbox.accounts.main);
    expect(response.linked_accounts.map((a) => a.id64)).toEqual(env.sandbox.accounts.linked);
    const urls = env.sandbox.admin.tradeUrls();
    expect(response.main_account.trade_url).toBe(urls.get(env.sandbox.accounts.main));
  });

  it('get_balance returns both balances in cents', async () => {
    env.sandbox.admin.setBalance({ balance: 12_345, pending_balance: 67 });
    await expect(client.call('get_balance', {})).resolves.toEqual({ balance: 12_345, pending_balance: 67 });
  });

  it('set_user_agent marks the main and the named linked accounts automated for 600 s', async () => {
    const [first, second] = env.sandbox.accounts.linked;
    const before = Math.floor(env.clock.now() / 1000);
    const { refresh_at } = await client.call('set_user_agent', { multiaccounts: [first!] });
    const after = Math.floor(env.clock.now() / 1000);
    expect(refresh_at).toBeGreaterThanOrEqual(before + USER_AGENT_TTL_SECONDS);
    expect(refresh_at).toBeLessThanOrEqual(after + USER_AGENT_TTL_SECONDS);
    expect(env.sandbox.admin.userAgent().automated).toBe(true);
    expect(env.sandbox.admin.userAgent(first!).automated).toBe(true);
    expect(env.sandbox.admin.userAgent(second!).automated).toBe(false);
  });
});

it('every response’s rate-limit headers reach onRateLimit, the reset as a duration from the answer', async () => {
  await client.call('get_balance', {});
  const [info] = env.rate;
  expect(info).toMatchObject({ endpoint: 'get_balance', status: 200, limit: 2, remaining: 1 });
  expect(info!.resetInMs).toBeGreaterThan(0);
  expect(info!.resetInMs).toBeLessThanOrEqual(61_000);
});
