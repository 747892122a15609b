import { z } from 'zod';
import { serializedApiErrorSchema } from '../api/errors.ts';
import { change, changeStatus, type Change, type ChangeKind, type ChangeStatus } from '../../../src-shared/drafts.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * A draft's change as the store keeps it: the change (the shared schema,
 * src-shared/drafts.ts), its target key, its apply status and the error the
 * service gave it. One row per target key: changes to the same target merge
 * (core/drafts/merge.ts). A delete has its own key, so "delete this asset,
 * then list it again" is two changes, run in that order.
 */

/** Every kind of change, in the order an apply runs them: delete-alls, deletes, creates, edits. */
export const CHANGE_KINDS = [
  'listing.deleteAll', 'buyOrder.deleteAll', 'listing.delete', 'buyOrder.delete', 'listing.create', 'listing.edit', 'buyOrder.create', 'buyOrder.edit',
] as const satisfies readonly ChangeKind[];
// A kind missing from the list above is named here by the type checker.
const _everyKind: Exclude<ChangeKind, (typeof CHANGE_KINDS)[number]> extends never ? true : never = true;
export const changeKind = z.enum(CHANGE_KINDS);

export const changeError = serializedApiErrorSchema;
export type ChangeError = z.infer<typeof changeError>;

/** One change of a draft with its apply state (the schema reads one kept as JSON, see scratch-tables.ts). */
export const draftEntry = lazySchema(() => z.object({
  target: z.string(),
  seq: z.number().int(),
  change,
  status: changeStatus,
  error: changeError.nullable(),
  batchId: z.string().nullable(),
  updatedAt: z.number(),
}));
export type DraftEntry = Readonly<z.output<typeof draftEntry>>;

/**
 * Statuses that lock a change: an apply owns it or the trader must resolve it
 * first. Every check of a locked change or row reads this list (SQL through
 * LOCKED_SQL) and says why in LOCKED_REASON's words.
 */
const LOCKED_STATUSES: ReadonlySet<ChangeStatus> = new Set(['queued', 'sent', 'unknown']);
export const isLockedStatus = (s: ChangeStatus): boolean => LOCKED_STATUSES.has(s);
/** The locked statuses as a SQL list: `status IN ${LOCKED_SQL}`. */
export const LOCKED_SQL = `(${[...LOCKED_STATUSES].map((s) => `'${s}'`).join(', ')})`;
export const LOCKED_REASON = 'being applied, or its outcome is unknown';
/** Whether an entry exists and is locked. */
export const isLockedEntry = (e: DraftEntry | undefined): boolean => e !== undefined && isLockedStatus(e.status);

/** Whether a status counts as "no change here" when merging a new edit. */
export const isSettled = (status: ChangeStatus): boolean => status === 'done' || status === 'dropped';

export const LISTINGS_DELETE_ALL = 'LA';
export const BUY_ORDERS_DELETE_ALL = 'BA';

export const listingKey = (assetIdValue: string) => `L:${assetIdValue}`;
export const listingDeleteKey = (assetIdValue: string) => `LD:${assetIdValue}`;
export const buyOrderKey = (skuValue: string) => `B:${skuValue}`;
export const buyOrderDeleteKey = (skuValue: string) => `BD:${skuValue}`;

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
