import type { EndpointName } from '../api/endpoints.ts';
import type { DraftGuard, PriceGuard } from '../../../src-shared/price-guard.ts';
import { createKeptItems } from '../store/kept-items.ts';
import { createReferenceReads } from '../store/reference-reads.ts';
import { GLOBAL_LIMIT_PER_MINUTE } from '../api/endpoints.ts';
import { estimateDurationMs, finishOffsetMs } from '../scheduler/estimate.ts';
import { LANE_GLOBAL_HEADROOM } from '../scheduler/rate-budget.ts';
import type { RateScope } from '../scheduler/types.ts';
import { splitTarget, type Slot } from '../store/draft-columns.ts';
import type { DraftReads } from '../store/draft-reads.ts';
import { CHANGE_KINDS } from '../store/draft-entry.ts';
import { createReviewReads, type PartBounds, type ReviewShow } from '../store/review-reads.ts';
import type { Turn } from '../turn.ts';
import type { ChangeKind, ChangeStatus, DraftEntry } from './change.ts';
import { endpointOf, PHASES, type Phase } from './change-endpoints.ts';
import { guardTally, undercutTally } from './guard-tally.ts';
import type { LedgerLookup } from './merge.ts';
import { NO_REFERENCES, type PriceReferences } from './price-references.ts';
import { rowOf, type CreateFacts, type ReviewRow } from './review-rows.ts';
import type { Store } from '../store/db.ts';

export { BUY_ORDER_CUT_NOTE, type FieldDiff, type ReviewRow } from './review-rows.ts';
export type { ReviewShow };

/**
 * The review of a draft before it is applied: what each change does (before →
 * after per field, against the ledger), how many requests it needs per
 * endpoint, and how long the rate limits make it take at the least. Counted
 * and paged by SQL over the draft's rows: a 47,000-change draft is never read
 * whole to review it.
 */
export interface DraftReview {
  readonly draftId: string;
  /** Open changes (still to send or resolve) by kind. */
  readonly openByKind: Readonly<Partial<Record<ChangeKind, number>>>;
  readonly byStatus: Readonly<Partial<Record<ChangeStatus, number>>>;
  /** Requests the next apply sends, per endpoint (no-op edits need none). */
  readonly requestsPerEndpoint: Partial<Record<EndpointName, number>>;
  /**
   * Lower bound on the apply's duration under the rate limits, phases one
   * after another, counting the rate slots still in use (an apply just
   * ended holds its endpoints' slots for a minute).
   */
  readonly etaMs: number;
  /** What the delete-alls would remove, counted from the ledger. */
  readonly removes: { readonly listings: number; readonly buyOrders: number };
  /** Price changes the next apply sends that the price guard marks, per table, and new listings priced far under what the item fetches. */
  readonly guard: DraftGuard;
}

/** The order the review lists kinds in: the order an apply runs them (delete-alls, deletes, creates, edits). */
export const KIND_ORDER: readonly ChangeKind[] = CHANGE_KINDS;

export interface DraftReviewer {
  /** Counted a part of the draft at a time, giving the event loop back (`turn`) between parts. */
  review(draftId: string, mainAccount: string, guard: PriceGuard, turn: Turn): Promise<DraftReview>;
  /** What the price guard marks among the price changes the next apply sends (in parts too). */
  guard(draftId: string, mainAccount: string, guard: PriceGuard, turn: Turn): Promise<DraftGuard>;
  /** The same in one step, for a check that cannot wait (an apply asked without a review of this version). */
  guardNow(draftId: string, mainAccount: string, guard: PriceGuard): DraftGuard;
  /** A page of the review's rows, in the order the apply runs them; `version` names the draft's state (for paging on from the last page). */
  page(draftId: string, version: string, query: ReviewPageQuery, guard: PriceGuard): { total: number; rows: ReviewRow[] };
}

/** Which of the review's rows a page shows: `text` finds the changes of the items a search finds (store/item-match.ts), or by key or note. */
export interface ReviewPageQuery {
  readonly show: ReviewShow;
  readonly kind?: string;
  readonly text?: string;
  readonly offset: number;
  readonly limit: number;
}

/** What the reviewer is handed beside the store: each is optional, its absence counts nothing. */
export interface ReviewerNeeds {
  /** For each rate slot of a scope in use now, how long until it is free (the scheduler's); without it every slot counts as free. */
  readonly busy?: (scope: RateScope) => readonly number[];
  /** The guard's marks against what an item cost (core/costs/); without it nothing is marked against a cost. */
  readonly costs?: PriceReferences;
}

export function createReviewer(
  store: Pick<Store, 'db'>, drafts: Pick<DraftReads, 'deleteAllRemoves'>, ledger: LedgerLookup, needs: ReviewerNeeds = {},
): DraftReviewer {
  const busy = needs.busy ?? (() => []);
  const costs = needs.costs ?? NO_REFERENCES;
  const reads = createReviewReads(store);
  const references = createReferenceReads(store.db);
  const kept = createKeptItems(store.db);
  const removed = (domain: 'listings' | 'buyOrders', activeOnly: boolean) => drafts.deleteAllRemoves(domain, activeOnly);

  /** Tallies the guard's findings part by part: price edits against the ledger, new listings against what the item fetches. */
  function guardParts(draftId: string, mainAccount: string, guard: PriceGuard) {
    const listings = guardTally(guard, costs.concerns());
    const buyOrders = guardTally(guard);
    const undercuts = undercutTally(guard);
    return {
      parts: reads.parts(draftId, mainAccount),
      add(bounds: PartBounds) {
        for (const r of reads.pricedEdits(bounds)) {
          if (r.kind === 'listing.edit') listings.add(r.key, r.ledger_price, r.price, r.ledger_sku);
          else buyOrders.add(r.key, r.ledger_price, r.price);
        }
        const creates = reads.pricedCreates(bounds).filter((c) => c.sku !== '');
        if (creates.length === 0) return;
        const refs = references.referencesOf([...new Set(creates.map((c) => c.sku))]);
        // A new listing far under what its item fetches is an undercut; one that is not may still be under its cost.
        for (const c of creates) if (undercuts.add(c.key, c.sku, c.price, refs.get(c.sku) ?? []) === null) listings.addNew(c.sku, c.price);
      },
      result: (): DraftGuard => ({ listings: listings.result(), buyOrders: buyOrders.result(), undercuts: undercuts.result() }),
    };
  }

  /** What a page's new listings are named and held against: the kept inventory, and the references of their items. */
  function createFacts(entries: readonly DraftEntry[]): CreateFacts {
    const assets = entries.flatMap((e) => (e.change.kind === 'listing.create' ? [e.change.asset_id] : []));
    const found = kept.of(assets);
    const skus = new Set<string>();
    for (const e of entries) {
      if (e.change.kind !== 'listing.create') continue;
      const sku = e.change.sku ?? ledger.listing(e.change.asset_id)?.sku ?? found.get(e.change.asset_id)?.sku ?? '';
      if (sku !== '') skus.add(sku);
    }
    const refs = skus.size === 0 ? new Map() : references.referencesOf([...skus]);
    const read = assets.length === 0 ? new Set<string>() : kept.readAccounts();
    return {
      kept: (assetId, account) => found.get(assetId) ?? (read.has(account) ? 'missing' : 'unread'),
      references: (sku) => refs.get(sku) ?? [],
      costs: costs.concerns(),
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
      // Counted by status and kind a part at a time, like the requests: no step reads the whole draft.
      const statuses: Partial<Record<ChangeStatus, number>> = {};
      const kinds: Partial<Record<ChangeKind, number>> = {};
      const perEndpoint: Partial<Record<EndpointName, number>> = {};
      const perPhase = new Map<Phase, Partial<Record<EndpointName, number>>>();
      const counted = new Map<string, { kind: ChangeKind; phase: Phase; n: number }>();
      for (const bounds of reads.parts(draftId, mainAccount)) {
        await turn();
        for (const t of reads.tally(bounds)) {
          statuses[t.status] = (statuses[t.status] ?? 0) + t.n;
          if (t.open) kinds[t.kind] = (kinds[t.kind] ?? 0) + t.n;
        }
        for (const g of reads.requestGroups(bounds)) {
          const key = `${g.kind}|${g.proxy}|${g.phase}`;
          counted.set(key, { kind: g.kind, phase: g.phase, n: (counted.get(key)?.n ?? 0) + g.n });
        }
      }
      for (const g of counted.values()) {
        const endpoint = endpointOf(g);
        // One request per 100 items of a group; a delete-all is one request each.
        const requests = g.kind.endsWith('deleteAll') ? g.n : Math.ceil(g.n / 100);
        perEndpoint[endpoint] = (perEndpoint[endpoint] ?? 0) + requests;
        const phase = perPhase.get(g.phase) ?? {};
        phase[endpoint] = (phase[endpoint] ?? 0) + requests;
        perPhase.set(g.phase, phase);
      }
      // The first phase starts with the slots as they are now; the later ones once it has gone, when they are as good as free.
      let etaMs = 0;
      for (const phase of PHASES) {
        const requests = perPhase.get(phase);
        if (!requests) continue;
        etaMs += etaMs === 0 ? finishOffsetMs(requests, busy, GLOBAL_LIMIT_PER_MINUTE - LANE_GLOBAL_HEADROOM.bulk) : estimateDurationMs(requests);
      }
      const removes = { listings: 0, buyOrders: 0 };
      for (const r of reads.sendableDeleteAlls(draftId)) {
        if (r.kind === 'listing.deleteAll') removes.listings = removed('listings', r.active_only === 1);
        else removes.buyOrders = removed('buyOrders', false);
      }
      await turn();
      return { draftId, openByKind: kinds, byStatus: statuses, requestsPerEndpoint: perEndpoint, etaMs, removes, guard: await guardOf(draftId, mainAccount, guard, turn) };
    },
    page(draftId, version, query, guard) {
      const kinds = query.kind === undefined ? KIND_ORDER : KIND_ORDER.filter((k) => k === query.kind);
      const text = query.text?.trim() || undefined;
      const id = JSON.stringify([draftId, version, query.show, query.kind ?? null, text ?? null]);
      // Counted once per state of the draft: a scroll asks page after page of the same.
      const counts = lastCounts?.id === id ? lastCounts.counts : kinds.map((kind) => reads.countOfKind(draftId, kind, query.show, text));
      lastCounts = { id, counts };
      const total = counts.reduce((a, b) => a + b, 0);
      const rows: DraftEntry[] = [];
      let skip = query.offset;
      kinds.forEach((kind, i) => {
        const n = counts[i] ?? 0;
        if (rows.length >= query.limit) return;
        if (skip >= n) {
          skip -= n;
          return;
        }
        // The next page of a scroll starts after the last row served instead of counting down to it.
        const after = last !== null && last.id === id && last.offset === query.offset && last.kind === kind && rows.length === 0 ? last.after : null;
        const page = reads.entriesOfKind(draftId, kind, query.show, after ? { after } : { skip }, query.limit - rows.length, text);
        skip = 0;
        rows.push(...page);
        const end = page.at(-1);
        if (end) last = { id, offset: query.offset + rows.length, kind, after: { seq: end.seq, ...splitTarget(end.target) } };
      });
      const facts = createFacts(rows);
      return { total, rows: rows.map((e) => rowOf(e, ledger, removed, guard, facts)) };
    },
  };
}
