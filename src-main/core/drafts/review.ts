import type { EndpointName } from '../api/endpoints.ts';
import { estimateDurationMs } from '../scheduler/estimate.ts';
import { deleteTargetsOf, isNoOpEdit, phaseOf, requestsPerEndpoint, PHASES } from '../apply/plan-batches.ts';
import type { BuyOrderRow } from '../store/buy-orders-repo.ts';
import type { ListingRow } from '../store/listings-repo.ts';
import { SENDABLE, type Change, type ChangeError, type ChangeKind, type ChangeStatus, type DraftEntry } from './change.ts';
import { removedByDeleteAll, type LedgerView } from './ledger-view.ts';
import type { WorkingSet } from './working-set.ts';

/**
 * The review of a draft before it is applied: what each change does (before →
 * after per field, against the ledger), how many requests it needs per
 * endpoint, and how long the rate limits make it take at the least.
 */
export interface FieldDiff {
  readonly field: string;
  readonly before: string | number | null;
  readonly after: string | number | null;
}

export interface ReviewRow {
  /** The change's target key (what removeChanges takes). */
  readonly changeId: string;
  readonly kind: ChangeKind;
  /** Asset ID, SKU, or "all" for a delete-all. */
  readonly target: string;
  /** The SKU the change is about, when known (a listing created without one has none). */
  readonly sku: string | null;
  readonly account: string | null;
  readonly status: ChangeStatus;
  readonly error: ChangeError | null;
  readonly fields: readonly FieldDiff[];
  /** Something the trader should know (a buy order's quantity may be cut; what a delete-all removes). */
  readonly note: string | null;
}

export interface DraftReview {
  readonly draftId: string;
  /** Open changes (still to send or resolve) by kind. */
  readonly openByKind: Readonly<Partial<Record<ChangeKind, number>>>;
  readonly byStatus: Readonly<Partial<Record<ChangeStatus, number>>>;
  /** Requests the next apply sends, per endpoint (no-op edits need none). */
  readonly requestsPerEndpoint: Partial<Record<EndpointName, number>>;
  /** Lower bound on the apply's duration under the rate limits, phases one after another. */
  readonly etaMs: number;
  /** What the delete-alls would remove, counted from the ledger. */
  readonly removes: { readonly listings: number; readonly buyOrders: number };
}

export const BUY_ORDER_CUT_NOTE = 'quantity requested; the service may cut it to floor(balance / price)';

/** Which changes a page of the review lists. */
export type ReviewShow = 'open' | 'failed' | 'unknown' | 'all';

/** Statuses whose change is still to send, in flight, or waits for the trader. */
const OPEN: ReadonlySet<ChangeStatus> = new Set(['pending', 'queued', 'sent', 'failed', 'unknown']);

/** The order the review lists kinds in: the order an apply runs them (delete-alls, deletes, creates, edits). */
const KIND_RANK: Readonly<Record<ChangeKind, number>> = {
  'listing.deleteAll': 0, 'buyOrder.deleteAll': 1, 'listing.delete': 2, 'buyOrder.delete': 3,
  'listing.create': 4, 'listing.edit': 5, 'buyOrder.create': 6, 'buyOrder.edit': 7,
};

export function reviewDraft(ws: WorkingSet, ledger: LedgerView, mainAccount: string): DraftReview {
  const byStatus: Partial<Record<ChangeStatus, number>> = {};
  const openByKind: Partial<Record<ChangeKind, number>> = {};
  const sendable: DraftEntry[] = [];
  for (const e of ws.entries.values()) {
    if (e.status === 'dropped') continue;
    byStatus[e.status] = (byStatus[e.status] ?? 0) + 1;
    if (OPEN.has(e.status)) openByKind[e.change.kind] = (openByKind[e.change.kind] ?? 0) + 1;
    if (SENDABLE.includes(e.status)) sendable.push(e);
  }
  return {
    draftId: ws.draftId,
    openByKind,
    byStatus,
    requestsPerEndpoint: requestsPerEndpoint(sendable, ledger, mainAccount),
    etaMs: phasedEta(sendable, ledger, mainAccount),
    removes: deleteAllRemoves(sendable, ledger),
  };
}

/** The changes a review page lists, in its order: by kind as the apply runs them, then as they were made. */
export function reviewOrder(ws: WorkingSet, show: ReviewShow, kind?: string): DraftEntry[] {
  const keep = (e: DraftEntry) =>
    e.status !== 'dropped' && (kind === undefined || e.change.kind === kind) &&
    (show === 'all' || (show === 'open' ? OPEN.has(e.status) : e.status === show));
  return [...ws.entries.values()].filter(keep).sort((a, b) => KIND_RANK[a.change.kind] - KIND_RANK[b.change.kind] || a.seq - b.seq);
}

/** The review's rows for these changes: before → after against the ledger. */
export function reviewRows(entries: readonly DraftEntry[], ledger: LedgerView): ReviewRow[] {
  return entries.map((e) => rowOf(e, ledger));
}

/** Phases run one after another; within one, endpoints run side by side. */
function phasedEta(entries: readonly DraftEntry[], ledger: LedgerView, mainAccount: string): number {
  const deletes = deleteTargetsOf(entries);
  let total = 0;
  for (const phase of PHASES) {
    const inPhase = entries.filter((e) => phaseOf(e.change, deletes) === phase);
    if (inPhase.length > 0) total += estimateDurationMs(requestsPerEndpoint(inPhase, ledger, mainAccount));
  }
  return total;
}

function deleteAllRemoves(entries: readonly DraftEntry[], ledger: LedgerView): { listings: number; buyOrders: number } {
  let listings = 0;
  let buyOrders = 0;
  for (const e of entries) {
    if (e.change.kind === 'listing.deleteAll') listings = countRemoved(ledger, e.change.active_only);
    if (e.change.kind === 'buyOrder.deleteAll') buyOrders = ledger.buyOrders.size;
  }
  return { listings, buyOrders };
}

function countRemoved(ledger: LedgerView, activeOnly: boolean): number {
  let n = 0;
  for (const row of ledger.listings.values()) if (removedByDeleteAll(row, activeOnly)) n += 1;
  return n;
}

const diff = (field: string, before: string | number | null | undefined, after: string | number | null | undefined): FieldDiff[] =>
  after === undefined || before === after ? [] : [{ field, before: before ?? null, after: after ?? null }];

function rowOf(e: DraftEntry, ledger: LedgerView): ReviewRow {
  const c = e.change;
  const base = { changeId: e.target, kind: c.kind, status: e.status, error: e.error };
  const account = 'account' in c ? c.account : null;
  switch (c.kind) {
    case 'listing.create':
    case 'listing.edit':
    case 'listing.delete': {
      const row = ledger.listings.get(c.asset_id);
      const noOp = c.kind === 'listing.edit' && isNoOpEdit(c, ledger);
      const sku = c.kind === 'listing.create' ? (c.sku ?? row?.sku ?? null) : (row?.sku ?? null);
      return { ...base, target: c.asset_id, sku: sku || null, account, fields: listingFields(c, row), note: noOp ? 'already so in the ledger: nothing to send' : null };
    }
    case 'buyOrder.create':
    case 'buyOrder.edit':
    case 'buyOrder.delete': {
      const row = ledger.buyOrders.get(c.sku);
      return { ...base, target: c.sku, sku: c.sku, account, fields: buyOrderFields(c, row), note: c.kind === 'buyOrder.create' ? BUY_ORDER_CUT_NOTE : null };
    }
    case 'listing.deleteAll': {
      const n = countRemoved(ledger, c.active_only);
      const what = c.active_only ? 'listings visible on the market' : 'listings, inactive ones and their history included';
      return { ...base, target: 'all', sku: null, account: null, fields: [{ field: 'listings', before: n, after: 0 }], note: `removes ${n} ${what} (counted from the ledger)${replacedNote(c.replaced)}; not undoable` };
    }
    case 'buyOrder.deleteAll': {
      const n = ledger.buyOrders.size;
      return { ...base, target: 'all', sku: null, account: null, fields: [{ field: 'buy orders', before: n, after: 0 }], note: `removes ${n} buy orders (their unfilled parts)${replacedNote(c.replaced)}; not undoable` };
    }
  }
}

/** What a delete-all replaced when it was drafted: those edits and deletes left the draft. */
function replacedNote(replaced: number | undefined): string {
  if (!replaced) return '';
  return `; it replaced ${replaced} pending ${replaced === 1 ? 'edit or delete' : 'edits and deletes'} of rows it removes, which left the draft`;
}

function listingFields(c: Extract<Change, { kind: `listing.${string}` }>, row: ListingRow | undefined): FieldDiff[] {
  if (c.kind === 'listing.delete') {
    return [{ field: 'listing', before: row?.listing_id ?? c.asset_id, after: null }, ...diff('price', row?.price, null)];
  }
  if (c.kind === 'listing.deleteAll') return [];
  const creating = c.kind === 'listing.create';
  // Listing an asset again after deleting it starts from nothing.
  const before = creating ? undefined : row;
  return [
    ...diff('price', before?.price, c.price),
    ...diff('promoted', before?.promoted, c.promoted),
    ...diff('user_note', before?.user_note, c.user_note),
    ...(creating ? [...diff('game', null, c.game), ...diff('account', null, c.account)] : []),
  ];
}

function buyOrderFields(c: Extract<Change, { kind: `buyOrder.${string}` }>, row: BuyOrderRow | undefined): FieldDiff[] {
  if (c.kind === 'buyOrder.delete') return [{ field: 'buy order', before: row ? `${row.quantity} × ${row.price}` : c.sku, after: null }];
  if (c.kind === 'buyOrder.deleteAll') return [];
  const before = c.kind === 'buyOrder.create' ? undefined : row;
  return [
    ...diff('price', before?.price, c.price),
    ...diff('quantity', before?.quantity, c.quantity),
    ...diff('active', before?.active, c.kind === 'buyOrder.edit' ? c.active : undefined),
    ...diff('user_note', before?.user_note, c.user_note),
    ...(c.kind === 'buyOrder.create' ? diff('account', null, c.account) : []),
  ];
}
