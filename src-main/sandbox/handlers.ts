import type { z } from 'zod';
import type { EndpointName, Endpoints } from '../core/api/endpoints.ts';
import type { SandboxCounters } from './request-log.ts';
import type { World } from './state/world.ts';

/**
 * What each endpoint does to the world, given an input its zod schema already
 * accepted. A handler either changes nothing and throws a `Refusal` (the whole
 * batch is refused), or applies every item and returns the wire response.
 */

export interface HandlerContext {
  readonly world: World;
  /** Sandbox ms. */
  readonly now: number;
  readonly counters: SandboxCounters;
  /** Knobs that change how the service answers (see faults.ts). */
  readonly rules: { readonly refuseDuplicateCreates: boolean; readonly endedListingsUnknown: boolean; readonly clockOffsetMs: number };
}

type Input<K extends EndpointName> = z.output<Endpoints[K]['request']>;
type Output<K extends EndpointName> = z.input<Endpoints[K]['response']>;
type Handlers = { readonly [K in EndpointName]: (ctx: HandlerContext, input: Input<K>) => Output<K> };

export const HANDLERS: Handlers = {
  create_listing({ world, now, counters, rules }, input) {
    const account = world.accounts.resolveProxy(input.multiaccount_proxy);
    const outcome = world.listings.create(account, input.items, now, rules.refuseDuplicateCreates);
    counters.listingsCreated += outcome.created.length;
    counters.duplicateCreates += outcome.duplicates;
    return { success: true, created_listings: outcome.created };
  },

  edit_listing({ world, now, counters, rules }, input) {
    counters.listingsEdited += world.listings.edit(input.items, now, rules.endedListingsUnknown);
    return { success: true };
  },

  delete_listing({ world, counters }, input) {
    counters.listingsDeleted += world.listings.deleteByAsset(input.items);
    return { success: true };
  },

  delete_all_listings({ world, counters }, input) {
    counters.listingsDeleted += world.listings.deleteAll(input.active_only);
    return { success: true };
  },

  create_buy_order({ world, now, counters, rules }, input) {
    const account = world.accounts.resolveProxy(input.multiaccount_proxy);
    const outcome = world.buyOrders.create(account, input.items, world.accounts.balance, now, rules.refuseDuplicateCreates);
    counters.buyOrdersCreated += outcome.created;
    counters.buyOrderQuantityCut += outcome.cut;
    counters.buyOrdersSkippedNoFunds += outcome.skippedNoFunds;
    counters.duplicateBuyOrderCreates += outcome.duplicates;
    return { success: true };
  },

  edit_buy_order({ world, now, counters }, input) {
    counters.buyOrdersEdited += world.buyOrders.edit(world.accounts.all(), input.items, world.accounts.balance, now);
    return { success: true };
  },

  delete_buy_order({ world, counters }, input) {
    counters.buyOrdersDeleted += world.buyOrders.delete(world.accounts.all(), input.items);
    return { success: true };
  },

  delete_all_buy_orders({ world, counters }) {
    const deleted = world.buyOrders.deleteAll(world.accounts.all());
    counters.buyOrdersDeleted += deleted;
    return { success: true, deleted_count: deleted };
  },

  load_pending({ world, now }) {
    return world.trades.market(now);
  },

  load_pending_buy_orders({ world, now }) {
    return world.trades.buyOrder(now);
  },

  set_trade_url({ world }, input) {
    const account = world.accounts.resolveProxy(input.multiaccount_proxy);
    world.accounts.setTradeUrl(account, input.trade_url);
    return { success: true };
  },

  get_linked_trade_urls({ world }) {
    const { accounts } = world;
    return {
      main_account: { id64: accounts.main, trade_url: accounts.tradeUrl(accounts.main) },
      linked_accounts: accounts.linked.map((id64) => ({ id64, trade_url: accounts.tradeUrl(id64) })),
    };
  },

  get_balance({ world }) {
    const { balance, pending_balance } = world.accounts.balance;
    return { balance, pending_balance };
  },

  set_user_agent({ world, now, rules }, input) {
    // The mark lasts 600 s of real time; only the service's own clock, which writes refresh_at, may be off.
    const refreshAt = world.accounts.setUserAgent(now, input.multiaccounts ?? []);
    return { refresh_at: refreshAt + Math.round(rules.clockOffsetMs / 1000) };
  },
};

/** Runs the handler of `endpoint`; the input must have passed that endpoint's schema. */
export function handle(endpoint: EndpointName, ctx: HandlerContext, input: unknown): unknown {
  const handler = HANDLERS[endpoint] as (ctx: HandlerContext, input: unknown) => unknown;
  return handler(ctx, input);
}
