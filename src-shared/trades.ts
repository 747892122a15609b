import { z } from 'zod';

/**
 * The pending trades as the service reports them (interface sections 2.3–2.5):
 * parsed by the client, watched by main, shown by the renderer. Lenient where
 * the interface says "not shown" (extra fields dropped, cosmetic ones may be
 * missing), strict where the app decides from the value (IDs, statuses,
 * money, timestamps).
 */

const unixSeconds = z.number().int().nonnegative();
const moneyCents = z.number().int();

export const marketTradeItem = z.object({
  name: z.string(),
  sku: z.string(),
  quantity: z.number().int(),
  price: moneyCents,
  quality: z.string().default(''),
  image_url: z.string().default(''),
  particle_url: z.string().nullable().default(''),
  wear: z.string().optional(),
});

export const buyOrderTradeItem = marketTradeItem.extend({
  particle_url: z.string().nullable().default(null),
});

export const linkedAccount = z.object({
  id64: z.string(),
  name: z.string().default(''),
  image_url: z.string().default(''),
});

const tradeCommon = {
  user_id: z.string(),
  trade_id: z.string().min(1),
  timestamp: unixSeconds,
  /** Human-readable; unknown values are kept, not rejected (transitions are not shown). */
  status: z.string(),
  total: moneyCents,
  raw_status: z.string(),
  buyer_id: z.string(),
  supplier_id: z.string(),
  buyer_steam_creation_time: unixSeconds,
  supplier_steam_creation_time: unixSeconds,
  partner_steam_creation_time: unixSeconds,
  verification_code: z.string().nullable().optional(),
};

export const marketTrade = z.object({
  ...tradeCommon,
  trade_type: z.literal('market'),
  items: z.array(marketTradeItem),
  name_tax_reduction: z.boolean().default(false),
});

export const buyOrderTrade = z.object({
  ...tradeCommon,
  trade_type: z.literal('buy_order'),
  items: z.array(buyOrderTradeItem),
  supplier_linked_account: linkedAccount.nullable().default(null),
});

export type MarketTrade = z.infer<typeof marketTrade>;
export type BuyOrderTrade = z.infer<typeof buyOrderTrade>;
export type PendingTrade = MarketTrade | BuyOrderTrade;
export type TradeItem = z.infer<typeof marketTradeItem> | z.infer<typeof buyOrderTradeItem>;
