import { z } from 'zod';
import {
  accountId,
  assetId,
  cents,
  flag01,
  gameId,
  listingId,
  quantity,
  SERVICE_WORD_MAX_LENGTH,
  serviceText,
  sku,
  SKU_MAX_LENGTH,
  storedSku,
  tradeUrl,
  URL_MAX_LENGTH,
  userNote,
} from '../../../src-shared/fields.ts';
import { buyOrderTrade, marketTrade } from '../../../src-shared/trades.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * One zod schema per request and per response of the interface document
 * (`marketplace-api.md`). Types are inferred from these, never written twice.
 *
 * Requests are strict: they are what we send, and a draft or the client must
 * refuse what the service would refuse for a reason we can know. Responses are
 * parsed leniently where the interface says "not shown" (extra fields are
 * dropped, cosmetic fields may be missing) and strictly where the app makes a
 * decision from the value (IDs, statuses, money, timestamps).
 */

/** Documented maximum of `items` elements in one request. */
export const MAX_ITEMS_PER_REQUEST = 100;

const itemsOf = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .min(1, { error: 'must hold at least one item' })
    .max(MAX_ITEMS_PER_REQUEST, { error: `must hold at most ${MAX_ITEMS_PER_REQUEST} items` });

// ---- Requests -------------------------------------------------------------

export const createListingItem = z.strictObject({
  asset_id: assetId,
  price: cents,
  promoted: flag01,
  game: gameId,
  user_note: userNote.optional(),
});
export const createListingRequest = lazySchema(() => z.strictObject({
  items: itemsOf(createListingItem),
  multiaccount_proxy: accountId.optional(),
}));

export const editListingItem = z.strictObject({
  listing_id: listingId,
  price: cents,
  promoted: flag01,
  user_note: userNote.optional(),
});
export const editListingRequest = z.strictObject({ items: itemsOf(editListingItem) });

export const deleteListingItem = z.strictObject({ asset_id: assetId });
export const deleteListingRequest = z.strictObject({ items: itemsOf(deleteListingItem) });

export const deleteAllListingsRequest = z.strictObject({ active_only: z.boolean() });

export const createBuyOrderItem = z.strictObject({
  sku,
  price: cents,
  quantity,
  user_note: userNote.optional(),
});
export const createBuyOrderRequest = lazySchema(() => z.strictObject({
  items: itemsOf(createBuyOrderItem),
  multiaccount_proxy: accountId.optional(),
}));

export const editBuyOrderItem = z.strictObject({
  sku,
  price: cents,
  quantity,
  active: flag01,
  user_note: userNote.optional(),
});
export const editBuyOrderRequest = z.strictObject({ items: itemsOf(editBuyOrderItem) });

// A delete names what exists: a SKU stored before the hidden-character rule can still be removed.
export const deleteBuyOrderItem = z.strictObject({ sku: storedSku });
export const deleteBuyOrderRequest = z.strictObject({ items: itemsOf(deleteBuyOrderItem) });

/** Endpoints without parameters take an empty input. */
export const noInput = z.strictObject({});

export const setTradeUrlRequest = z.strictObject({
  trade_url: tradeUrl,
  multiaccount_proxy: accountId.optional(),
});

/** Sent as the comma-separated query parameter `multiaccounts`. */
export const setUserAgentRequest = lazySchema(() => z.strictObject({
  multiaccounts: z.array(accountId).optional(),
}));

// ---- Responses ------------------------------------------------------------

const unixSeconds = lazySchema(() => z.number().int().nonnegative());
const moneyCents = z.number().int();

export const successResponse = z.object({ success: z.boolean() });

/** IDs and words the service sends back: bounded like every string from it (see trades.ts). */
const word = serviceText(SERVICE_WORD_MAX_LENGTH);

export const createdListing = lazySchema(() => z.object({
  listing_id: word.min(1),
  sku: serviceText(SKU_MAX_LENGTH),
  asset_id: word.min(1),
}));
export const createListingResponse = lazySchema(() => z.object({
  success: z.boolean(),
  // Absent on a refused batch is tolerated: nothing was created then.
  created_listings: z.array(createdListing).default([]),
}));

export const deleteAllBuyOrdersResponse = lazySchema(() => z.object({
  success: z.boolean(),
  deleted_count: z.number().int().nonnegative(),
}));

export const loadPendingResponse = z.array(marketTrade);
export const loadPendingBuyOrdersResponse = z.array(buyOrderTrade);

export const tradeUrlEntry = lazySchema(() => z.object({
  id64: word,
  trade_url: serviceText(URL_MAX_LENGTH).nullable(),
}));
export const linkedTradeUrlsResponse = z.object({
  main_account: tradeUrlEntry,
  linked_accounts: z.array(tradeUrlEntry),
});

export const balanceResponse = z.object({
  balance: moneyCents,
  pending_balance: moneyCents,
});

export const setUserAgentResponse = z.object({ refresh_at: unixSeconds });

/** The documented 429 body. `retry_after` is in seconds. */
export const rateLimitedBody = lazySchema(() => z.object({
  error: z.string().optional(),
  retry_after: z.number().nonnegative(),
}));

// ---- Inferred types ---------------------------------------------------------

export type CreateListingItem = z.infer<typeof createListingItem>;
export type EditListingItem = z.infer<typeof editListingItem>;
export type DeleteListingItem = z.infer<typeof deleteListingItem>;
export type CreateBuyOrderItem = z.infer<typeof createBuyOrderItem>;
export type EditBuyOrderItem = z.infer<typeof editBuyOrderItem>;
export type DeleteBuyOrderItem = z.infer<typeof deleteBuyOrderItem>;
export type CreatedListing = z.infer<typeof createdListing>;
export type Balance = z.infer<typeof balanceResponse>;
export type LinkedTradeUrls = z.infer<typeof linkedTradeUrlsResponse>;
export type TradeUrlEntry = z.infer<typeof tradeUrlEntry>;
