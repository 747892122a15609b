import type { EndpointName } from '../api/endpoints.ts';
import { estimateDurationMs } from '../scheduler/estimate.ts';
import { endpointOf, PHASES, type Phase } from '../apply/plan-batches.ts';
import type { BuyOrderRow } from '../store/buy-orders-repo.ts';
import type { ListingRow } from '../store/listings-repo.ts';
import type { Store } from '../store/db.ts';
import { ENTRY_COLUMNS, entryOf, type EntryRecord, type Slot } from '../store/draft-columns.ts';
import type { Change, ChangeError, ChangeKind, ChangeStatus, DraftEntry } from './change.ts';
import type { LedgerLookup } from './merge.ts';
import type { Turn } from '../turn.ts';
import { guardTally, type PriceGuard } from './guard-tally.ts';
import { priceConcern, type DraftGuard } from '../../../src-shared/price-guard.ts';

/**
 * The review of a draft before it is applied: what each change does (before →
 * after per field, against the ledger), how many requests it needs per
 * endpoint, and how long the rate limits make it take at the least. Counted
 * and paged by SQL over the draft's rows: a 47,000-change draft is never read
 * whole to review it.
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
  /** What the price guard says of the change's new price against the ledger's (null: nothing unusual, or no price change). */
  readonly concern: 'drop' | 'floor' | 'rise' | null;
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
  /** Price changes the next apply sends that the price guard marks, per table. */
  readonly guard: DraftGuard;
}

export const BUY_ORDER_CUT_NOTE = 'quantity requested; the service may cut it to floor(balance / price)';

/** Which changes a page of the review lists. */
export type ReviewShow = 'open' | 'failed' | 'unknown' | 'all';

/** Rows of the draft counted in one step of a review. */
const PART = 4_000;

const OPEN_SQL = "('pending', 'queued', 'sent', 'failed', 'unknown')";
const SENDABLE_SQL = "('pending', 'failed')";

/** The order the review lists kinds in: the order an apply runs them (delete-alls, deletes, creates, edits). */
export const KIND_ORDER: readonly ChangeKind[] = [
  'listing.deleteAll', 'buyOrder.deleteAll', 'listing.delete', 'buyOrder.delete', 'listing.create', 'listing.edit', 'buyOrder.create', 'buyOrder.edit',
];

/**
 * The sendable rows an apply will send (no-op edits and changes to listings
 * the service no longer holds need no request), with the request group each
 * goes in: endpoint (its kind), proxy (a create for a linked account) and
 * phase (a create waits for a delete of the same asset or SKU sent with it).
 */
const SENT_ROWS = `
  SELECT e.kind AS kind, e.slot AS slot, e.key AS key, e.price AS price,
    CASE WHEN e.kind IN ('listing.create', 'buyOrder.create') AND e.account != :main THEN e.account ELSE '' END AS proxy,
    CASE WHEN e.kind IN ('listing.deleteAll', 'buyOrder.deleteAll') THEN 0
      WHEN e.kind IN ('listing.create', 'buyOrder.create') AND EXISTS (SELECT 1 FROM draft_entries d WHERE d.draft_id = e.draft_id
        AND d.slot = CASE e.slot WHEN 'L' THEN 'LD' ELSE 'BD' END AND d.key = e.key AND d.status IN ${SENDABLE_SQL}) THEN 2
      ELSE 1 END AS phase,
    coalesce(l.price, b.price) AS ledger_price
  FROM draft_entries e
  LEFT JOIN listings l ON e.slot IN ('L', 'LD') AND l.asset_id = e.key
  LEFT JOIN buy_orders b ON e.slot IN ('B', 'BD') AND b.sku = e.key
  WHERE e.draft_id = :draft AND e.status IN ${SENDABLE_SQL}
    AND (e.slot, e.key) > (:from_slot, :from_key) AND (:to_slot IS NULL OR (e.slot, e.key) <= (:to_slot, :to_key))
    AND NOT (e.kind = 'listing.edit' AND l.asset_id IS NOT NULL AND l.listing_id IS e.listing_id AND l.price = e.price
      AND l.promoted = e.promoted AND (e.user_note IS NULL OR e.user_note = l.user_note))
    AND NOT (e.kind = 'buyOrder.edit' AND b.sku IS NOT NULL AND b.quantity_may_be_cut = 0 AND b.price = e.price
      AND b.quantity = e.quantity AND b.active = e.active AND (e.user_note IS NULL OR e.user_note = b.user_note))
    AND NOT (e.kind IN ('listing.edit', 'listing.delete') AND l.state IN ('sold_in_trade', 'sold', 'not_on_service'))`;

export interface DraftReviewer {
  /** Counted a part of the draft at a time, giving the event loop back (`turn`) between parts. */
  review(draftId: string, mainAccount: string, guard: PriceGuard, turn: Turn): Promise<DraftReview>;
  /** What the price guard marks among the price changes the next apply sends (in parts too). */
  guard(draftId: string, mainAccount: string, guard: PriceGuard, turn: Turn): Promise<DraftGuard>;
  /** The same in one step, for a check that cannot wait (an apply asked without a review of this version). */
  guardNow(draftId: string, mainAccount: string, guard: PriceGuard): DraftGuard;
  /** A page of the review's rows, in the order the apply runs them; `version` names the draft's state (for paging on from the last page). */
  page(draftId: string, version: string, query: { show: ReviewShow; kind?: string; offset: number; limit: number }, guard: PriceGuard): { total: number; rows: ReviewRow[] };
}

export function createReviewer(store: Pick<Store, 'db'>, ledger: LedgerLookup): DraftReviewer {
  const { db } = store;
  const cols = ENTRY_COLUMNS.join(', ');
  const byStatus = db.prepare("SELECT status, count(*) AS n FROM draft_entries WHERE draft_id = ? AND status != 'dropped' GROUP BY status");
  const openByKind = db.prepare(`SELECT kind, count(*) AS n FROM draft_entries WHERE draft_id = ? AND status IN ${OPEN_SQL} GROUP BY kind`);
  const groups = db.prepare(`SELECT kind, proxy, phase, count(*) AS n FROM (${SENT_ROWS}) GROUP BY kind, proxy, phase`);
  // Where the next part of a draft ends: PART rows on, in key order (null: the draft ends sooner).
  const partEnd = db.prepare(`SELECT slot, key FROM draft_entries WHERE draft_id = ? AND (slot, key) > (?, ?) ORDER BY slot, key LIMIT 1 OFFSET ${PART - 1}`);
  const priced = db.prepare(`SELECT kind, key, ledger_price, price FROM (${SENT_ROWS}) WHERE kind IN ('listing.edit', 'buyOrder.edit') AND ledger_price IS NOT NULL AND price != ledger_price`);
  const deleteAlls = db.prepare(`SELECT kind, active_only FROM draft_entries WHERE draft_id = ? AND slot IN ('LA', 'BA') AND status IN ${SENDABLE_SQL}`);
  const countListings = db.prepare("SELECT count(*) AS n FROM listings WHERE ? = 0 OR state = 'active'");
  const countBuyOrders = db.prepare('SELECT count(*) AS n FROM buy_orders');
  const ledgerCount = (kind: string, activeOnly: boolean) => (kind === 'listing.deleteAll' ? (countListings.get(activeOnly ? 1 : 0) as { n: number }).n : (countBuyOrders.get() as { n: number }).n);

  function statusFilter(show: ReviewShow): string {
    if (show === 'all') return "status != 'dropped'";
    return show === 'open' ? `status IN ${OPEN_SQL}` : `status = '${show === 'failed' ? 'failed' : 'unknown'}'`;
  }

  /** The draft's rows in parts of PART keys, as the bounds SENT_ROWS takes. */
  function* parts(draftId: string, mainAccount: string) {
    let from: { slot: string; key: string } = { slot: '', key: '' };
    for (;;) {
      const to = partEnd.get(draftId, from.slot, from.key) as { slot: string; key: string } | undefined;
      yield { draft: draftId, main: mainAccount, from_slot: from.slot, from_key: from.key, to_slot: to?.slot ?? null, to_key: to?.key ?? null };
      if (!to) return;
      from = to;
    }
  }

  /** Tallies the guard's findings part by part, with `between` run after each part. */
  function guardParts(draftId: string, mainAccount: string, guard: PriceGuard) {
    const listings = guardTally(guard);
    const buyOrders = guardTally(guard);
    return {
      parts: parts(draftId, mainAccount),
      add(bounds: ReturnType<typeof parts> extends Generator<infer B> ? B : never) {
        for (const r of priced.iterate(bounds) as Iterable<{ kind: string; key: string; ledger_price: number; price: number }>) {
          (r.kind === 'listing.edit' ? listings : buyOrders).add(r.key, r.ledger_price, r.price);
        }
      },
      result: (): DraftGuard => ({ listings: listings.result(), buyOrders: buyOrders.result() }),
    };
  }

  async function guardOf(draftId: string, mainAccount: string, guard: PriceGuard, turn: Turn): Promise<DraftGuard> {
    const tally = guardParts(draftId, mainAccount, guard);
    for (const bounds of tally.parts) {
      tally.add(bounds);
      await turn();
    }
    return tally.result();
  }

  let lastCounts: { id: string; counts: number[] } | null = null;
  /** Where the last page ended, to page on from it. */
  let last: { id: string; offset: number; kind: ChangeKind; after: { seq: number; slot: Slot; key: string } } | null = null;

  return {
    guard: guardOf,
    guardNow(draftId, mainAccount, guard) {
      const tally = guardParts(draftId, mainAccount, guard);
      for (const bounds of tally.parts) tally.add(bounds);
      return tally.result();
    },
    async review(draftId, mainAccount, guard, turn) {
      const statuses: Partial<Record<ChangeStatus, number>> = {};
      for (const r of byStatus.all(draftId) as { status: ChangeStatus; n: number }[]) statuses[r.status] = r.n;
      const kinds: Partial<Record<ChangeKind, number>> = {};
      for (const r of openByKind.all(draftId) as { kind: ChangeKind; n: number }[]) kinds[r.kind] = r.n;
      const perEndpoint: Partial<Record<EndpointName, number>> = {};
      const perPhase = new Map<Phase, Partial<Record<EndpointName, number>>>();
      const counted = new Map<string, { kind: ChangeKind; phase: Phase; n: number }>();
      for (const bounds of parts(draftId, mainAccount)) {
        await turn();
        for (const g of groups.all(bounds) as { kind: ChangeKind; proxy: string; phase: Phase; n: number }[]) {
          const key = `${g.kind}|${g.proxy}|${g.phase}`;
          counted.set(key, { kind: g.kind, phase: g.phase, n: (counted.get(key)?.n ?? 0) + g.n });
        }
      }
      for (const g of counted.values()) {
        const endpoint = endpointOf({ kind: g.kind } as Change);
        // One request per 100 items of a group; a delete-all is one request each.
        const requests = g.kind.endsWith('deleteAll') ? g.n : Math.ceil(g.n / 100);
        perEndpoint[endpoint] = (perEndpoint[endpoint] ?? 0) + requests;
        const phase = perPhase.get(g.phase) ?? {};
        phase[endpoint] = (phase[endpoint] ?? 0) + requests;
        perPhase.set(g.phase, phase);
      }
      let etaMs = 0;
      for (const phase of PHASES) {
        const requests = perPhase.get(phase);
        if (requests) etaMs += estimateDurationMs(requests);
      }
      const removes = { listings: 0, buyOrders: 0 };
      for (const r of deleteAlls.all(draftId) as { kind: string; active_only: number | null }[]) {
        if (r.kind === 'listing.deleteAll') removes.listings = ledgerCount(r.kind, r.active_only === 1);
        else removes.buyOrders = ledgerCount(r.kind, false);
      }
      await turn();
      return { draftId, openByKind: kinds, byStatus: statuses, requestsPerEndpoint: perEndpoint, etaMs, removes, guard: await guardOf(draftId, mainAccount, guard, turn) };
    },
    page(draftId, version, query, guard) {
      const kinds = query.kind === undefined ? KIND_ORDER : KIND_ORDER.filter((k) => k === query.kind);
      const where = statusFilter(query.show);
      const id = JSON.stringify([draftId, version, query.show, query.kind ?? null]);
      // Counted once per state of the draft: a scroll asks page after page of the same.
      const counts = lastCounts?.id === id ? lastCounts.counts
        : kinds.map((kind) => (db.prepare(`SELECT count(*) AS n FROM draft_entries WHERE draft_id = ? AND kind = ? AND ${where}`).get(draftId, kind) as { n: number }).n);
      lastCounts = { id, counts };
      const total = counts.reduce((a, b) => a + b, 0);
      const rows: DraftEntry[] = [];
      let skip = query.offset;
      for (let i = 0; i < kinds.length && rows.length < query.limit; i++) {
        const kind = kinds[i] as ChangeKind;
        const n = counts[i] as number;
        if (skip >= n) {
          skip -= n;
          continue;
        }
        const want = query.limit - rows.length;
        // The next page of a scroll starts after the last row served instead of counting down to it.
        const after = last !== null && last.id === id && last.offset === query.offset && last.kind === kind && rows.length === 0 ? last.after : null;
        const sql = `SELECT ${cols} FROM draft_entries WHERE draft_id = ? AND kind = ? AND ${where}
          ${after ? 'AND (seq, slot, key) > (?, ?, ?)' : ''} ORDER BY seq, slot, key LIMIT ? ${after ? '' : 'OFFSET ?'}`;
        const args = after ? [draftId, kind, after.seq, after.slot, after.key, want] : [draftId, kind, want, skip];
        const records = db.prepare(sql).all(...args) as unknown as EntryRecord[];
        skip = 0;
        for (const r of records) rows.push(entryOf(r));
        const end = records.at(-1);
        if (end) last = { id, offset: query.offset + rows.length, kind, after: { seq: end.seq, slot: end.slot, key: end.key } };
      }
      return { total, rows: rows.map((e) => rowOf(e, ledger, ledgerCount, guard)) };
    },
  };
}

const diff = (field: string, before: string | number | null | undefined, after: string | number | null | undefined): FieldDiff[] =>
  after === undefined || before === after ? [] : [{ field, before: before ?? null, after: after ?? null }];

/** An edit that would set what the ledger already holds: nothing to send. */
function isNoOp(c: Change, row: ListingRow | BuyOrderRow | null): boolean {
  if (c.kind !== 'listing.edit' || row === null || !('listing_id' in row)) return false;
  return row.listing_id === c.listing_id && row.price === c.price && row.promoted === c.promoted && (c.user_note === undefined || c.user_note === row.user_note);
}

function rowOf(e: DraftEntry, ledger: LedgerLookup, removed: (kind: string, activeOnly: boolean) => number, guard: PriceGuard): ReviewRow {
  const c = e.change;
  const before = c.kind === 'listing.edit' ? ledger.listing(c.asset_id)?.price : c.kind === 'buyOrder.edit' ? ledger.buyOrder(c.sku)?.price : undefined;
  const concern = before !== undefined && 'price' in c && c.price !== before ? priceConcern(before, c.price, guard) : null;
  const base = { changeId: e.target, kind: c.kind, status: e.status, error: e.error, concern };
  const account = 'account' in c ? c.account : null;
  switch (c.kind) {
    case 'listing.create':
    case 'listing.edit':
    case 'listing.delete': {
      const row = ledger.listing(c.asset_id);
      const sku = c.kind === 'listing.create' ? (c.sku ?? row?.sku ?? null) : (row?.sku ?? null);
      const note = isNoOp(c, row) ? 'already so in the ledger: nothing to send' : null;
      return { ...base, target: c.asset_id, sku: sku || null, account, fields: listingFields(c, row ?? undefined), note };
    }
    case 'buyOrder.create':
    case 'buyOrder.edit':
    case 'buyOrder.delete': {
      const row = ledger.buyOrder(c.sku);
      return { ...base, target: c.sku, sku: c.sku, account, fields: buyOrderFields(c, row ?? undefined), note: c.kind === 'buyOrder.create' ? BUY_ORDER_CUT_NOTE : null };
    }
    case 'listing.deleteAll': {
      const n = removed(c.kind, c.active_only);
      const what = c.active_only ? 'listings visible on the market' : 'listings, inactive ones and their history included';
      return { ...base, target: 'all', sku: null, account: null, fields: [{ field: 'listings', before: n, after: 0 }], note: `removes ${n} ${what} (counted from the ledger)${replacedNote(c.replaced)}; not undoable` };
    }
    case 'buyOrder.deleteAll': {
      const n = removed(c.kind, false);
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
