import type { SerializedApiError } from '../api/errors.ts';
import type { Change } from '../drafts/change.ts';
import type { Repos } from '../store/index.ts';
import { isEnded, type ListingRow } from '../store/listings-repo.ts';
import { endpointOf, isToEndedListing, type LedgerLookup } from './plan-batches.ts';
import { saysGone } from './refused-items.ts';

/**
 * Changes to listings the service no longer holds (sold, or gone from it)
 * are never sent: an edit would be refused at every apply. An edit fails at
 * once saying why; a delete is done (what it wanted, off the market, is
 * true), except while the sale's trade is pending. And a refusal of an edit
 * or delete that says the listing is gone puts that in the ledger, so the
 * next plan leaves it out.
 */

export type EndedVerdict = { status: 'done' } | { status: 'failed'; error: SerializedApiError };

/** What to do without a request with a change to an ended listing; null when the change is to be sent. */
export function endedListingVerdict(change: Change, ledger: LedgerLookup): EndedVerdict | null {
  if (!isToEndedListing(change, ledger) || (change.kind !== 'listing.edit' && change.kind !== 'listing.delete')) return null;
  const row = ledger.listings.get(change.asset_id);
  if (row === undefined) return null;
  if (change.kind === 'listing.delete' && row.state !== 'sold_in_trade') return { status: 'done' };
  return { status: 'failed', error: { kind: 'rejected', endpoint: endpointOf(change), message: `not sent: ${describeEnded(row)}` } };
}

/** Why a listing is no longer on the market, in the trader's words. */
export function describeEnded(row: Pick<ListingRow, 'state' | 'state_reason' | 'trade_id'>): string {
  if (row.state === 'sold_in_trade') return `the listing was sold in trade ${row.trade_id ?? '?'}, which is still pending`;
  if (row.state === 'sold') return `the listing was sold${row.trade_id ? ` in trade ${row.trade_id}` : ''}`;
  return `the listing is not on the service (${row.state_reason ?? 'unknown to it'}); clear it, or list the asset again`;
}

/** After a refusal of this one change: when it says the listing is gone, the ledger row says so too. */
export function noteRefusedListing(repos: Pick<Repos, 'listings'>, change: Change, refusal: SerializedApiError): void {
  if (change.kind !== 'listing.edit' && change.kind !== 'listing.delete') return;
  if (refusal.kind !== 'rejected' || !saysGone(refusal.message)) return;
  const row = repos.listings.get(change.asset_id);
  if (row === null || isEnded(row.state)) return;
  const sold = /\bsold\b/i.test(refusal.message);
  repos.listings.markEnded([change.asset_id], sold ? 'sold' : 'not_on_service', { reason: refusal.message });
}
