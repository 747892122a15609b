import { z } from 'zod';
import {
  DISPLAY_NAME_MAX_LENGTH, ITEM_NAME_MAX_LENGTH, SERVICE_WORD_MAX_LENGTH, serviceText, SKU_MAX_LENGTH, URL_MAX_LENGTH,
} from './fields.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * The pending trades as the service reports them (interface sections 2.3–2.5):
 * parsed by the client, watched by main, shown by the renderer. Lenient where
 * the interface says "not shown" (extra fields dropped, cosmetic ones may be
 * missing), strict where the app decides from the value (IDs, statuses,
 * money, timestamps). Every string has a length bound (fields.ts says why).
 */

const unixSeconds = lazySchema(() => z.number().int().nonnegative());
const moneyCents = z.number().int();

const word = serviceText(SERVICE_WORD_MAX_LENGTH);
const url = serviceText(URL_MAX_LENGTH);

export const marketTradeItem = z.object({
  name: serviceText(ITEM_NAME_MAX_LENGTH),
  sku: serviceText(SKU_MAX_LENGTH),
  quantity: z.number().int(),
  price: moneyCents,
  quality: word.default(''),
  image_url: url.default(''),
  particle_url: url.nullable().default(''),
  wear: word.optional(),
});

export const buyOrderTradeItem = marketTradeItem.extend({
  particle_url: url.nullable().default(null),
});

export const linkedAccount = lazySchema(() => z.object({
  id64: word,
  name: serviceText(DISPLAY_NAME_MAX_LENGTH).default(''),
  image_url: url.default(''),
}));

const tradeCommon = {
  user_id: word,
  trade_id: word.min(1),
  timestamp: unixSeconds,
  /** Human-readable; unknown values are kept, not rejected (transitions are not shown). */
  status: word,
  total: moneyCents,
  raw_status: word,
  buyer_id: word,
  supplier_id: word,
  buyer_steam_creation_time: unixSeconds,
  supplier_steam_creation_time: unixSeconds,
  partner_steam_creation_time: unixSeconds,
  verification_code: word.nullable().optional(),
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
