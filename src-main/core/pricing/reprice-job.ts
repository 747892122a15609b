import { costConcern, type CostGuard } from '../../../src-shared/cost-guard.ts';
import { SOURCE_JUMP_MULTIPLE } from '../../../src-shared/pricing.ts';
import type { ChangeInput } from '../../../src-shared/drafts.ts';
import type { PriceGuard } from '../../../src-shared/price-guard.ts';
import { priceConcern } from '../../../src-shared/price-rules.ts';
import type { DraftService } from '../drafts/draft-service.ts';
import type { BuyOrderRow } from '../store/buy-orders-repo.ts';
import type { Repos } from '../store/index.ts';
import type { ListingRow } from '../store/listings-repo.ts';
import type { SourcePriceRow } from '../store/price-repo.ts';
import type { RepriceRepo, RepriceRow } from '../store/reprice-repo.ts';
import type { Turn } from '../turn.ts';
import { repriceRow } from './reprice-price.ts';
import { ruleFor, type RuleEntry, type SkuFacts } from './rule-match.ts';

/**
 * A reprice, a part of the ledger at a time (no step longer than a few
 * milliseconds: the heartbeat, the sends and the pages are answered between
 * parts): each listing and buy order a rule covers gets the rule's price
 * with its reason, written into a draft; a row a rule would move but cannot
 * is kept with why. By hand, every change goes into one draft the trader
 * reviews; on the schedule, the changes the price guard does not mark go
 * into one draft (applied on its own) and the marked ones into another,
 * which waits for the trader. A row another draft holds a change of is left
 * as it is (held, naming that draft).
 */

/** Ledger rows read and priced per part: 500 held the data worker for 50-150 ms at 50,000 listings, 100 for a few. */
export const REPRICE_PART = 100;
const FIRST_PART = 10;

export interface RepriceJobDeps {
  readonly repos: Pick<Repos, 'listings' | 'buyOrders'>;
  readonly drafts: Pick<DraftService, 'create' | 'addChanges'>;
  readonly reprices: Pick<RepriceRepo, 'startRun' | 'updateRun' | 'addRows' | 'inOtherDrafts' | 'heldCounts'>;
  readonly rules: readonly RuleEntry[];
  readonly facts: (sku: string) => SkuFacts;
  readonly prices: (sourceId: string, skus: readonly string[]) => Map<string, SourcePriceRow>;
  readonly sourceName: (sourceId: string) => string;
  /**
   * The sources the trader turned off: a rule following one prices nothing
   * (its kept prices only age, and a rule with no age limit would go on
   * pricing from them as if they were current).
   */
  readonly sourcesOff: ReadonlySet<string>;
  readonly costs: (skus: readonly string[]) => Map<string, { unitCost: number }>;
  readonly guard: PriceGuard;
  readonly costGuard: CostGuard;
  readonly now: () => number;
  readonly turn: Turn;
  /**
   * Runs a part's writes committing without waiting for the disk (a sync
   * held the worker up to 150 ms a part on a busy disk): they are the trader's
   * only once the run is built, and that last write waits for the disk.
   */
  readonly partWrites: <T>(write: () => T) => T;
}

export interface RepriceResult {
  readonly runId: number;
  /** The draft of the changes (by hand: all of them; on the schedule: those the guard does not mark); null when there were none. */
  readonly draftId: string | null;
  /** On the schedule: the draft of the marked changes, waiting for the trader; null when none. */
  readonly heldDraftId: string | null;
  readonly changed: number;
  readonly marked: number;
  /** The marked changes by what the guard said of them (drop, floor, rise, under_cost, under_margin, jump). */
  readonly marks: Readonly<Record<string, number>>;
  readonly held: number;
  readonly unchanged: number;
}

type Row = { domain: 'listings'; row: ListingRow } | { domain: 'buyOrders'; row: BuyOrderRow };

export async function runReprice(deps: RepriceJobDeps, kind: 'now' | 'scheduled', name: string): Promise<RepriceResult> {
  const runId = deps.reprices.startRun(kind, deps.now());
  const counts = { changed: 0, marked: 0, held: 0, unchanged: 0 };
  const marks: Record<string, number> = {};
  const drafts = { main: null as string | null, marked: null as string | null };
  const draftOf = (which: 'main' | 'marked'): string => {
    drafts[which] ??= deps.drafts.create(which === 'main' ? name : `${name}: marked by the price guard`, { select: kind === 'now' }).id;
    return drafts[which];
  };
  const rule = new Map<string, RuleEntry | null>();
  const ruleOf = (domain: Row['domain'], sku: string) => {
    const key = `${domain}|${sku}`;
    if (!rule.has(key)) rule.set(key, ruleFor(deps.rules, sku, domain, () => deps.facts(sku)));
    return rule.get(key) ?? null;
  };

  async function part(rows: readonly Row[]): Promise<void> {
    const covered = rows.map((r) => ({ ...r, entry: r.row.sku === '' ? null : ruleOf(r.domain, r.row.sku) })).filter((r) => r.entry !== null);
    if (covered.length === 0) return;
    const skus = covered.map((r) => r.row.sku);
    const prices = new Map<string, Map<string, SourcePriceRow>>();
    for (const source of new Set(covered.map((r) => r.entry?.rule.source ?? ''))) {
      if (!deps.sourcesOff.has(source)) prices.set(source, deps.prices(source, skus));
    }
    const costs = deps.costs(skus);
    const held = covered.some((r) => r.domain === 'buyOrders' && r.entry?.rule.maxHeld !== null) ? deps.reprices.heldCounts(skus) : new Map<string, number>();
    const domain = covered[0]?.domain ?? 'listings';
    const elsewhere = deps.reprices.inOtherDrafts(domain, covered.map((r) => keyOf(r)), [drafts.main, drafts.marked].filter((d) => d !== null));
    const out: RepriceRow[] = [];
    const changes = { main: [] as ChangeInput[], marked: [] as ChangeInput[] };
    for (const r of covered) {
      const entry = r.entry as RuleEntry;
      const key = keyOf(r);
      const base = { domain: r.domain, key, sku: r.row.sku, rule_id: entry.id, before: r.row.price };
      const other = elsewhere.get(key);
      if (other !== undefined) {
        counts.held += 1;
        out.push({ ...base, outcome: 'held', after: null, reason: `in your draft “${other}”: it stays until that draft is applied or discarded`, mark: null });
        continue;
      }
      if (deps.sourcesOff.has(entry.rule.source)) {
        counts.held += 1;
        out.push({ ...base, outcome: 'held', after: null, reason: `${deps.sourceName(entry.rule.source)} is turned off: its rules price nothing until it is turned on`, mark: null });
        continue;
      }
      const source = prices.get(entry.rule.source)?.get(r.row.sku) ?? null;
      const result = repriceRow(entry.rule, {
        domain: r.domain,
        price: r.row.price,
        ...(r.domain === 'buyOrders' ? { quantity: r.row.quantity, active: r.row.active } : {}),
        source: source === null ? null : { name: deps.sourceName(entry.rule.source), buy: source.buy, sell: source.sell, pricedAt: source.priced_at },
        cost: costs.get(r.row.sku)?.unitCost ?? null,
        held: held.get(r.row.sku) ?? 0,
        now: deps.now(),
      });
      if (result.outcome === 'same') {
        counts.unchanged += 1;
        continue;
      }
      if (result.outcome === 'held') {
        counts.held += 1;
        out.push({ ...base, outcome: 'held', after: null, reason: result.reason, mark: null });
        continue;
      }
      const cost = costs.get(r.row.sku)?.unitCost;
      const jumped = source === null ? null : sourceJump(source, entry.rule.sides[r.domain], { before: r.row.price, after: result.price });
      const mark = result.price === r.row.price ? null
        : priceConcern(r.row.price, result.price, deps.guard) ?? (r.domain === 'listings' && cost !== undefined ? costConcern(r.row.price, result.price, cost, deps.costGuard) : null)
          ?? (jumped === null ? null : 'jump');
      counts.changed += 1;
      if (mark !== null) {
        counts.marked += 1;
        marks[mark] = (marks[mark] ?? 0) + 1;
      }
      const reason = jumped === null ? result.reason : `${result.reason}; ${deps.sourceName(entry.rule.source)} ${jumped}`;
      out.push({ ...base, outcome: 'change', after: result.price, reason, mark });
      const change: ChangeInput = r.domain === 'listings'
        ? { kind: 'listing.edit', asset_id: r.row.asset_id, price: result.price }
        : { kind: 'buyOrder.edit', sku: r.row.sku, price: result.price, ...(result.quantity === undefined ? {} : { quantity: result.quantity }), ...(result.active === undefined ? {} : { active: result.active }) };
      (kind === 'scheduled' && mark !== null ? changes.marked : changes.main).push(change);
    }
    deps.partWrites(() => {
      for (const which of ['main', 'marked'] as const) {
        if (changes[which].length === 0) continue;
        const added = deps.drafts.addChanges(draftOf(which), changes[which]);
        if (added.errors.length > 0) throw new Error(`the draft refused ${added.errors.length} of the reprice's changes: ${added.errors[0]?.message ?? ''}`);
      }
      deps.reprices.addRows(runId, out);
    });
  }

  // The first parts are small: the code they run is not compiled yet (a first part of 100 held the worker ~75 ms).
  let size = FIRST_PART;
  async function parts(rows: readonly Row[]): Promise<void> {
    for (let i = 0; i < rows.length;) {
      const next = i + size;
      await part(rows.slice(i, next));
      await deps.turn();
      i = next;
      size = Math.min(REPRICE_PART, size * 2);
    }
  }

  try {
    const listings = deps.repos.listings.checkedPages(REPRICE_PART);
    for (let page = listings(); page.length > 0; page = listings()) {
      const rows: Row[] = [];
      for (let i = 0; i < page.length; i++) {
        const row = page.at(i);
        // Only what stands on the service and can be edited: ended rows and rows whose listing ID was lost are left.
        if ((row.state === 'active' || row.state === 'inactive') && row.listing_id !== null) rows.push({ domain: 'listings', row });
      }
      await parts(rows);
    }
    const orders = deps.repos.buyOrders.checkedPages(REPRICE_PART);
    for (let page = orders(); page.length > 0; page = orders()) {
      const rows: Row[] = [];
      for (let i = 0; i < page.length; i++) rows.push({ domain: 'buyOrders', row: page.at(i) });
      await parts(rows);
    }
  } catch (error) {
    deps.reprices.updateRun(runId, { state: 'failed', finished_at: deps.now(), problem: error instanceof Error ? error.message : String(error), draft_id: drafts.main, held_draft_id: drafts.marked, ...counts });
    throw error;
  }
  deps.reprices.updateRun(runId, { state: 'built', finished_at: deps.now(), draft_id: drafts.main, held_draft_id: drafts.marked, ...counts });
  return { runId, draftId: drafts.main, heldDraftId: drafts.marked, ...counts, marks };
}

const keyOf = (r: Row): string => (r.domain === 'listings' ? r.row.asset_id : r.row.sku);

/**
 * A listing already priced within this factor of the new price followed the
 * source's jump (the trader applied it): the jump is no longer news for it.
 */
const FOLLOWED_WITHIN = 2;

/**
 * Whether the source's price of the side a rule follows stands a jump away
 * from its steady level while the change would carry the row's price across
 * it: said in words ("sell jumped ×10.0 from its steady 1.20 to 12.00"), else null.
 */
export function sourceJump(row: Pick<SourcePriceRow, 'buy' | 'sell' | 'steady_buy' | 'steady_sell'>, side: 'buy' | 'sell', change: { before: number; after: number }): string | null {
  const now = side === 'buy' ? row.buy : row.sell;
  const steady = side === 'buy' ? row.steady_buy : row.steady_sell;
  if (now === null || steady === null || now <= 0 || steady <= 0) return null;
  const ratio = now / steady;
  if (ratio < SOURCE_JUMP_MULTIPLE && ratio > 1 / SOURCE_JUMP_MULTIPLE) return null;
  if (change.after < change.before * FOLLOWED_WITHIN && change.after * FOLLOWED_WITHIN > change.before) return null;
  const moved = ratio >= 1 ? `jumped ×${ratio.toFixed(1)}` : `fell to ×${ratio.toFixed(2)}`;
  return `${side} ${moved} from its steady ${(steady / 100).toFixed(2)} to ${(now / 100).toFixed(2)}`;
}
