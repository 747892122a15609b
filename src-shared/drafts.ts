import { z } from 'zod';
import {
  accountId, assetId, cents, DEFAULT_GAME, flag01, gameId, listingId, quantity, sku, skuLabel, storedSku, storedSkuLabel, storedUserNote, userNote,
} from './fields.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * The vocabulary of drafts, shared by main (which stores and applies them)
 * and the renderer (which asks for them): what a change is, what the trader
 * may ask for, the bulk formulas and the choices for a lost response.
 *
 * What a draft holds: changes to listings and buy orders, each a complete,
 * valid item of the request it will become (the shared field rules are the
 * schema), so a stored draft can never carry something the service would
 * refuse for a reason we can know.
 *
 * The stored forms read notes and SKUs with the rules they were stored
 * under (`stored…`), so a draft saved before a rule was tightened still
 * opens; `changeInput`, what the trader may add now, applies today's rules.
 */

const account = { account: accountId };

export const listingCreateChange = z.strictObject({
  kind: z.literal('listing.create'),
  ...account,
  asset_id: assetId,
  price: cents,
  promoted: flag01,
  game: gameId,
  user_note: storedUserNote.optional(),
  /** For display only (known from a CSV or the inventory); the service returns the real one. */
  sku: storedSkuLabel.optional(),
});

export const listingEditChange = lazySchema(() => z.strictObject({
  kind: z.literal('listing.edit'),
  ...account,
  asset_id: assetId,
  listing_id: listingId,
  price: cents,
  promoted: flag01,
  /** Absent: leave the note; empty string: remove it. */
  user_note: storedUserNote.optional(),
}));

export const listingDeleteChange = lazySchema(() => z.strictObject({
  kind: z.literal('listing.delete'),
  ...account,
  asset_id: assetId,
  /**
   * Set when the trader chose "delete by asset and create again" for a lost
   * create response: the listing may not exist, so a refusal counts as done.
   */
  if_exists: z.boolean().optional(),
}));

/** How many pending edits and deletes a delete-all replaced when it was drafted (they left the draft; the review says so). */
const replaced = lazySchema(() => z.number().int().nonnegative().optional());

export const listingDeleteAllChange = lazySchema(() => z.strictObject({
  kind: z.literal('listing.deleteAll'),
  active_only: z.boolean(),
  replaced,
}));

export const buyOrderCreateChange = z.strictObject({
  kind: z.literal('buyOrder.create'),
  ...account,
  sku: storedSku,
  price: cents,
  quantity,
  user_note: storedUserNote.optional(),
});

export const buyOrderEditChange = lazySchema(() => z.strictObject({
  kind: z.literal('buyOrder.edit'),
  ...account,
  sku: storedSku,
  price: cents,
  quantity,
  active: flag01,
  user_note: storedUserNote.optional(),
}));

export const buyOrderDeleteChange = lazySchema(() => z.strictObject({
  kind: z.literal('buyOrder.delete'),
  ...account,
  sku: storedSku,
  if_exists: z.boolean().optional(),
}));

export const buyOrderDeleteAllChange = z.strictObject({
  kind: z.literal('buyOrder.deleteAll'),
  replaced,
});

/** A change as stored in a draft. */
export const change = z.discriminatedUnion('kind', [
  listingCreateChange,
  listingEditChange,
  listingDeleteChange,
  listingDeleteAllChange,
  buyOrderCreateChange,
  buyOrderEditChange,
  buyOrderDeleteChange,
  buyOrderDeleteAllChange,
]);
export type Change = z.infer<typeof change>;
export type ChangeKind = Change['kind'];
export type ChangeOf<K extends ChangeKind> = Extract<Change, { kind: K }>;

/**
 * What the trader (or the IPC layer) asks for. Creates are complete; edits
 * name only the fields that change; `account` defaults to the main account.
 * A listing edit names the listing by `listing_id` or `asset_id`.
 */
export const changeInput = lazySchema(() => z.discriminatedUnion('kind', [
  listingCreateChange.extend({ account: accountId.optional(), game: gameId.default(DEFAULT_GAME), user_note: userNote.optional(), sku: skuLabel.optional() }),
  z.strictObject({
    kind: z.literal('listing.edit'),
    listing_id: listingId.optional(),
    asset_id: assetId.optional(),
    price: cents.optional(),
    promoted: flag01.optional(),
    user_note: userNote.optional(),
  }),
  z.strictObject({ kind: z.literal('listing.delete'), asset_id: assetId }),
  listingDeleteAllChange,
  buyOrderCreateChange.extend({ account: accountId.optional(), sku, user_note: userNote.optional() }),
  z.strictObject({
    kind: z.literal('buyOrder.edit'),
    sku,
    price: cents.optional(),
    quantity: quantity.optional(),
    active: flag01.optional(),
    user_note: userNote.optional(),
  }),
  // A delete names what exists, so an old SKU from before today's rules can still be removed.
  z.strictObject({ kind: z.literal('buyOrder.delete'), sku: storedSku }),
  buyOrderDeleteAllChange,
]));
export type ChangeInput = z.input<typeof changeInput>;
export type ParsedChangeInput = z.output<typeof changeInput>;

/**
 * Where a change is in its life. `queued`/`sent` belong to an apply in
 * progress; `unknown` waits for the trader to resolve a lost response;
 * `dropped` is a tombstone (the change was removed) kept only while an
 * unfolded bulk patch might otherwise bring it back.
 */
export const changeStatus = z.enum(['pending', 'queued', 'sent', 'done', 'failed', 'unknown', 'dropped']);
export type ChangeStatus = z.infer<typeof changeStatus>;


export const bulkDomain = z.enum(['listings', 'buyOrders']);
export type BulkDomain = z.infer<typeof bulkDomain>;

export const rounding = z.enum(['nearest', 'up', 'down']);
export type Rounding = z.infer<typeof rounding>;

/**
 * Prices on a grid: every result is `k * size + offset` cents. `{ size: 10,
 * offset: 9 }` gives prices ending in 9 cents (…0.09, …0.19); `{ size: 100,
 * offset: 99 }` gives x.99. Without a step the grid is every cent.
 */
export const priceStep = lazySchema(() => z
  .strictObject({ size: cents, offset: z.number().int().nonnegative() })
  .refine((s) => s.offset < s.size, { error: 'offset must be less than size', path: ['offset'] }));
export type PriceStep = z.infer<typeof priceStep>;

export const bulkOp = lazySchema(() => z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('setPrice'), cents }),
  /** Adds (or, negative, subtracts) cents. */
  z.strictObject({ op: z.literal('addCents'), cents: z.number().int().refine(Number.isSafeInteger) }),
  /** Multiplies by `percent` / 100 (95 = 5% off), then rounds to the grid. */
  z.strictObject({ op: z.literal('multiply'), percent: z.number().positive().max(10_000), rounding, step: priceStep.optional() }),
  z.strictObject({ op: z.literal('setPromoted'), value: flag01 }),
  z.strictObject({ op: z.literal('setNote'), note: userNote }),
  z.strictObject({ op: z.literal('clearNote') }),
  /** Pause (0) or resume (1) buy orders. */
  z.strictObject({ op: z.literal('setActive'), value: flag01 }),
  z.strictObject({ op: z.literal('setQuantity'), quantity }),
]));
export type BulkOp = z.infer<typeof bulkOp>;



/** What the trader may choose for a write whose outcome is unknown. */
export const resolutionChoice = z.enum(['recreate', 'mark_done', 'send_again', 'drop']);
export type ResolutionChoice = z.infer<typeof resolutionChoice>;
