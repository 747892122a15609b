import type { ChangeInput } from '../../../src-preload/contract.ts';
import type { BuyOrderDisplay, BuyOrderPending, ListingDisplay, ListingPending } from '../lib/draft-overlay.ts';
import { useDraftsStore } from '../stores/drafts.ts';
import { useNoticesStore } from '../stores/notices.ts';

/**
 * Turns a trader's edits on ledger rows into draft changes. A row created in
 * this draft is edited by restating its create (latest wins); a row from the
 * ledger gets an edit or a delete. Nothing here reaches the service.
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
        notices.push('error', `${result.errors.length} of ${changes.length} not added: ${first?.field ?? ''} ${first?.message ?? ''}`);
      } else if (changes.length > 1) {
        notices.success(`${what}: ${result.added.toLocaleString()} changes in the draft.`);
      }
      return true;
    } catch (err) {
      notices.error(err);
      return false;
    }
  }

  function editListing(d: ListingDisplay, patch: ListingPending): Promise<boolean> {
    const r = d.row;
    if (d.change === 'create') {
      const next = { ...r, ...patch };
      return send([{
        kind: 'listing.create', asset_id: r.asset_id, price: next.price, promoted: next.promoted, game: r.game,
        ...(next.user_note === '' ? {} : { user_note: next.user_note }),
        account: r.account,
      }], 'Edited');
    }
    if (r.listing_id === null) {
      notices.push('error', `Listing of asset ${r.asset_id} has no known listing ID, so it cannot be edited; delete and create it again.`);
      return Promise.resolve(false);
    }
    return send([{ kind: 'listing.edit', listing_id: r.listing_id, ...(d.pending ?? {}), ...patch }], 'Edited');
  }

  /** Ledger rows get a delete; rows created in this draft simply leave it. */
  async function deleteListings(rows: readonly ListingDisplay[]): Promise<void> {
    await drafts.removeChanges(rows.filter((d) => d.change === 'create' && d.changeId !== null).map((d) => d.changeId as string));
    await send(
      rows.filter((d) => d.change !== 'create' && d.change !== 'delete').map((d) => ({ kind: 'listing.delete', asset_id: d.row.asset_id })),
      'Marked for deletion',
    );
  }

  function editBuyOrder(d: BuyOrderDisplay, patch: BuyOrderPending): Promise<boolean> {
    const r = d.row;
    if (d.change === 'create') {
      const next = { ...r, ...patch };
      return send([{
        kind: 'buyOrder.create', sku: r.sku, price: next.price, quantity: next.quantity,
        ...(next.user_note === '' ? {} : { user_note: next.user_note }),
        account: r.account,
      }], 'Edited');
    }
    return send([{ kind: 'buyOrder.edit', sku: r.sku, ...(d.pending ?? {}), ...patch }], 'Edited');
  }

  async function deleteBuyOrders(rows: readonly BuyOrderDisplay[]): Promise<void> {
    await drafts.removeChanges(rows.filter((d) => d.change === 'create' && d.changeId !== null).map((d) => d.changeId as string));
    await send(
      rows.filter((d) => d.change !== 'create' && d.change !== 'delete').map((d) => ({ kind: 'buyOrder.delete', sku: d.row.sku })),
      'Marked for deletion',
    );
  }

  /** Takes the rows' changes out of the draft: they show the ledger's values again. */
  async function revert(rows: ReadonlyArray<{ changeId: string | null }>): Promise<void> {
    try {
      await drafts.removeChanges(rows.map((d) => d.changeId).filter((id): id is string => id !== null));
    } catch (err) {
      notices.error(err);
    }
  }

  return { editListing, deleteListings, editBuyOrder, deleteBuyOrders, revert, send };
}
