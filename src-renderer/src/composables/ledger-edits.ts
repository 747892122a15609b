import type { ChangeInput } from '../../../src-shared/contract.ts';
import type { BuyOrderDisplay, BuyOrderPending, ListingDisplay, ListingPending } from '../lib/draft-overlay.ts';
import { useDraftsStore } from '../stores/drafts.ts';
import { useNoticesStore } from '../stores/notices.ts';

/**
 * Turns a trader's edits on ledger rows into draft changes, named by asset ID
 * (listings) or SKU (buy orders). The draft's merge rules do the rest: an
 * edit of a row created in the draft folds into its create, a delete of one
 * drops it, and edits of the same row merge. Nothing here reaches the service.
 */
export function useLedgerEdits() {
  const drafts = useDraftsStore();
  const notices = useNoticesStore();

  async function send(changes: ChangeInput[], what: string): Promise<boolean> {
    if (changes.length === 0) return false;
    try {
      const result = await drafts.addChanges(changes);
      if (result.errors.length > 0) {
        const first = result.errors[0];
        const more = result.errors.length > 1 ? ` (and ${result.errors.length - 1} more)` : '';
        notices.push('error', `Not added: ${first?.target ? `${first.target} — ` : ''}${first?.message ?? ''}${more}`);
      } else if (changes.length > 1) {
        notices.success(`${what}: ${result.added.toLocaleString()} changes in the draft.`);
      }
      return result.errors.length === 0;
    } catch (err) {
      notices.error(err);
      return false;
    }
  }

  const editListing = (d: ListingDisplay, patch: ListingPending) =>
    send([{ kind: 'listing.edit', asset_id: d.row.asset_id, ...patch }], 'Edited');

  /** Marks rows for deletion; a row created in this draft simply leaves it. */
  const deleteListings = (rows: readonly ListingDisplay[]) =>
    send(rows.filter((d) => d.change !== 'delete').map((d) => ({ kind: 'listing.delete', asset_id: d.row.asset_id })), 'Marked for deletion');

  const editBuyOrder = (d: BuyOrderDisplay, patch: BuyOrderPending) =>
    send([{ kind: 'buyOrder.edit', sku: d.row.sku, ...patch }], 'Edited');

  const deleteBuyOrders = (rows: readonly BuyOrderDisplay[]) =>
    send(rows.filter((d) => d.change !== 'delete').map((d) => ({ kind: 'buyOrder.delete', sku: d.row.sku })), 'Marked for deletion');

  /** Takes the rows' changes out of the draft: they show the ledger's values again. */
  async function revert(rows: ReadonlyArray<{ changeId: string | null }>): Promise<void> {
    try {
      // A bulk edit shown before main stored it has no id yet ('').
      await drafts.removeChanges(rows.map((d) => d.changeId).filter((id): id is string => id !== null && id !== ''));
    } catch (err) {
      notices.error(err);
    }
  }

  return { editListing, deleteListings, editBuyOrder, deleteBuyOrders, revert, send };
}
