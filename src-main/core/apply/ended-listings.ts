import type { EndpointName } from '../api/endpoints.ts';
import type { SerializedApiError } from '../api/errors.ts';
import type { Change, DraftEntry } from '../drafts/change.ts';
import type { Repos } from '../store/index.ts';
import type { BatchRow } from '../store/journal-repo.ts';
import { isEnded, type ListingRow } from '../store/listings-repo.ts';
import { recordInLedger } from './ledger-effects.ts';
import { endpointOf, isToEndedListing, repoLookup, type LedgerLookup } from './plan-batches.ts';
import { saysGone } from './refused-items.ts';

/**
 * Changes to listings the service no longer holds (sold, or gone from it)
 * are never sent: an edit would be refused at every apply. An edit fails at
 * once saying why; a delete is done (what it wanted, off the market, is
 * true), except while the sale's trade is pending. A batch planned before a
 * sale is checked again just before it goes, so what was sold meanwhile
 * leaves it then. And a refusal of an edit or delete that says the listing
 * is gone puts that in the ledger, so the next plan leaves it out.
 */

/** The endpoints whose items name listings that can be sold away while an apply runs. */
export const LISTING_ENDPOINTS: ReadonlySet<EndpointName> = new Set(['edit_listing', 'delete_listing']);

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

/**
 * Just before a planned batch of listing edits or deletes is sent: its items
 * whose listing the ledger now shows ended (sold since the batch was planned,
 * or said gone by a refusal) are settled as `endedListingVerdict` says and
 * leave the batch. Returns the targets settled, counted in `settled`.
 */
export function settleEndedBeforeSend(
  repos: Repos, draftId: string, batch: Pick<BatchRow, 'batch_id' | 'endpoint' | 'targets'>, settled: { done: number; failed: number },
): Set<string> {
  const gone = new Set<string>();
  if (!LISTING_ENDPOINTS.has(batch.endpoint)) return gone;
  const lookup = repoLookup(repos);
  const inBatch = new Set(batch.targets);
  for (const e of repos.drafts.entriesOfBatch(batch.batch_id)) {
    if (!inBatch.has(e.target)) continue;
    const verdict = endedListingVerdict(e.change, lookup);
    if (verdict === null) continue;
    settleOutOfBatch(repos, draftId, e, verdict);
    if (verdict.status === 'done') settled.done += 1;
    else settled.failed += 1;
    gone.add(e.target);
  }
  return gone;
}

/** Settles an entry that leaves its batch unsent (its batch no longer names it). */
function settleOutOfBatch(repos: Repos, draftId: string, e: DraftEntry, verdict: EndedVerdict): void {
  if (verdict.status === 'done') recordInLedger(repos, e.change);
  repos.drafts.setStatus(draftId, [e.target], verdict.status, verdict.status === 'failed' ? verdict.error : null, null);
}

/**
 * A refusal of this change that says its listing is gone: the ledger says so
 * (see noteRefusedListing). True when the listing now shows ended, so the
 * change can stay in the batch sent again, where the check before sending
 * settles it by the ended-listing rules (after the trades were read, a sale
 * then names its trade); false when the ledger has nothing to mark.
 */
export function noteGoneAndKeep(repos: Pick<Repos, 'listings'>, change: Change, refusal: SerializedApiError): boolean {
  if (change.kind !== 'listing.edit' && change.kind !== 'listing.delete') return false;
  if (refusal.kind !== 'rejected' || !saysGone(refusal.message)) return false;
  noteRefusedListing(repos, change, refusal);
  const row = repos.listings.get(change.asset_id);
  return row !== null && isEnded(row.state);
}
