import { z } from 'zod';
import { accountId, assetId, cents, DEFAULT_GAME, flag01, gameId, listingId, quantity, sku, userNote } from '../api/fields.ts';
import { serializedApiErrorSchema } from '../api/errors.ts';

/**
 * What a draft holds: changes to listings and buy orders, each a complete,
 * valid item of the request it will become (the shared field rules are the
 * schema), so a stored draft can never carry something the service would
 * refuse for a reason we can know.
 *
 * Each change has a target key. One row per target: changes to the same
 * target merge (see merge.ts). A delete has its own key, so "delete this
 * asset, then list it again" is two changes, run in that order.
 */

const account = { account: accountId };

export const listingCreateChange = z.strictObject({
  kind: z.literal('listing.create'),
  ...account,
  asset_id: assetId,
  price: cents,
  promoted: flag01,
  game: gameId,
  user_note: userNote.optional(),
  /** For display only (known from a CSV or the inventory); the service returns the real one. */
  sku: z.string().max(200).optional(),
});

export const listingEditChange = z.strictObject({
  kind: z.literal('listing.edit'),
  ...account,
  asset_id: assetId,
  listing_id: listingId,
  price: cents,
  promoted: flag01,
  /** Absent: leave the note; empty string: remove it. */
  user_note: userNote.optional(),
});

export const listingDeleteChange = z.strictObject({
  kind: z.literal('listing.delete'),
  ...account,
  asset_id: assetId,
  /**
   * Set when the trader chose "delete by asset and create again" for a lost
   * create response: the listing may not exist, so a refusal counts as done.
   */
  if_exists: z.boolean().optional(),
});

export const listingDeleteAllChange = z.strictObject({
  kind: z.literal('listing.deleteAll'),
  active_only: z.boolean(),
});

export const buyOrderCreateChange = z.strictObject({
  kind: z.literal('buyOrder.create'),
  ...account,
  sku,
  price: cents,
  quantity,
  user_note: userNote.optional(),
});

export const buyOrderEditChange = z.strictObject({
  kind: z.literal('buyOrder.edit'),
  ...account,
  sku,
  price: cents,
  quantity,
  active: flag01,
  user_note: userNote.optional(),
});

export const buyOrderDeleteChange = z.strictObject({
  kind: z.literal('buyOrder.delete'),
  ...account,
  sku,
  if_exists: z.boolean().optional(),
});

export const buyOrderDeleteAllChange = z.strictObject({
  kind: z.literal('buyOrder.deleteAll'),
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
export const changeInput = z.discriminatedUnion('kind', [
  listingCreateChange.extend({ account: accountId.optional(), game: gameId.default(DEFAULT_GAME) }),
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
  buyOrderCreateChange.extend({ account: accountId.optional() }),
  z.strictObject({
    kind: z.literal('buyOrder.edit'),
    sku,
    price: cents.optional(),
    quantity: quantity.optional(),
    active: flag01.optional(),
    user_note: userNote.optional(),
  }),
  z.strictObject({ kind: z.literal('buyOrder.delete'), sku }),
  buyOrderDeleteAllChange,
]);
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

/** Statuses whose change is still to be sent by the next apply. */
export const SENDABLE: readonly ChangeStatus[] = ['pending', 'failed'];
/** Statuses that lock a change: an apply owns it or the trader must resolve it first. */
export const LOCKED: readonly ChangeStatus[] = ['queued', 'sent', 'unknown'];
/** `LOCKED.includes(status)`, spelt out: it runs for every row of a bulk operation. */
export const isLockedStatus = (s: ChangeStatus): boolean => s === 'queued' || s === 'sent' || s === 'unknown';
/** Whether an entry exists and is locked. */
export const isLockedEntry = (e: DraftEntry | undefined): boolean => e !== undefined && isLockedStatus(e.status);

export const changeError = serializedApiErrorSchema;
export type ChangeError = z.infer<typeof changeError>;

/** One change of a draft with its apply state. */
export interface DraftEntry {
  readonly target: string;
  readonly seq: number;
  readonly change: Change;
  readonly status: ChangeStatus;
  readonly error: ChangeError | null;
  readonly batchId: string | null;
  readonly updatedAt: number;
}

export const LISTINGS_DELETE_ALL = 'LA';
export const BUY_ORDERS_DELETE_ALL = 'BA';

/** The target key of a change: one row per key in a draft. */
export function targetOf(c: Change): string {
  switch (c.kind) {
    case 'listing.create':
    case 'listing.edit':
      return listingKey(c.asset_id);
    case 'listing.delete':
      return listingDeleteKey(c.asset_id);
    case 'listing.deleteAll':
      return LISTINGS_DELETE_ALL;
    case 'buyOrder.create':
    case 'buyOrder.edit':
      return buyOrderKey(c.sku);
    case 'buyOrder.delete':
      return buyOrderDeleteKey(c.sku);
    case 'buyOrder.deleteAll':
      return BUY_ORDERS_DELETE_ALL;
  }
}

export const listingKey = (assetIdValue: string) => `L:${assetIdValue}`;
export const listingDeleteKey = (assetIdValue: string) => `LD:${assetIdValue}`;
export const buyOrderKey = (skuValue: string) => `B:${skuValue}`;
export const buyOrderDeleteKey = (skuValue: string) => `BD:${skuValue}`;

/** Whether a status counts as "no change here" when merging a new edit. */
export const isSettled = (status: ChangeStatus): boolean => status === 'done' || status === 'dropped';
