/**
 * The drafts' vocabulary under one name: the shared schemas of a change and
 * of what the trader may ask for (src-shared/drafts.ts), and a change as the
 * store keeps it, with its target key and its apply status
 * (store/draft-entry.ts).
 */

export {
  buyOrderCreateChange, buyOrderDeleteAllChange, buyOrderDeleteChange, buyOrderEditChange, change, changeInput, changeStatus,
  listingCreateChange, listingDeleteAllChange, listingDeleteChange, listingEditChange,
} from '../../../src-shared/drafts.ts';
export type { Change, ChangeInput, ChangeKind, ChangeOf, ChangeStatus, ParsedChangeInput } from '../../../src-shared/drafts.ts';
export {
  BUY_ORDERS_DELETE_ALL, buyOrderDeleteKey, buyOrderKey, changeError, isLockedEntry, isLockedStatus, isSettled, LISTINGS_DELETE_ALL,
  listingDeleteKey, listingKey, LOCKED_REASON, LOCKED_SQL, targetOf, type ChangeError, type DraftEntry,
} from '../store/draft-entry.ts';
