import type { z } from 'zod';
import { serializedApiErrorSchema } from '../api/errors.ts';
import type { Change, ChangeStatus } from '../../../src-shared/drafts.ts';

/**
 * A draft's changes as main keeps them: each change's target key (one row per
 * key; changes to the same target merge, see merge.ts), its apply status and
 * the helpers the merge, bulk and apply code share. The schemas themselves
 * are the shared vocabulary (src-shared/drafts.ts).
 */

export {
  buyOrderCreateChange, buyOrderDeleteAllChange, buyOrderDeleteChange, buyOrderEditChange, change, changeInput, changeStatus,
  listingCreateChange, listingDeleteAllChange, listingDeleteChange, listingEditChange,
} from '../../../src-shared/drafts.ts';
export type { Change, ChangeInput, ChangeKind, ChangeOf, ChangeStatus, ParsedChangeInput } from '../../../src-shared/drafts.ts';

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
