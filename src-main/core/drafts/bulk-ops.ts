import { cents } from '../../../src-shared/fields.ts';
import type { PatchBody, PatchFields } from './patch.ts';
import { collectRows, type EffectiveRow, type SkippedRows } from './effective-rows.ts';
import type { LedgerView } from './ledger-view.ts';
import type { WorkingSet } from './working-set.ts';
import type { BulkDomain, BulkOp } from '../../../src-shared/drafts.ts';
import { scalePrice } from '../../../src-shared/price-formula.ts';

/**
 * Bulk operations over the rows of a selection, computed in memory and stored
 * as one patch: they must stay instant on 50,000 rows. Rows that cannot be
 * edited are left out with their reason; an operation whose result would be
 * invalid for some rows reports those rows and changes nothing, so the trader
 * never ends up with half a price change.
 */
export { bulkDomain, bulkOp, priceStep, rounding } from '../../../src-shared/drafts.ts';
export type { BulkDomain, BulkOp, PriceStep, Rounding } from '../../../src-shared/drafts.ts';

/** Rows grouped by the reason they were left out or refused: a count, a few keys. */
export type RowsByReason = SkippedRows;

export interface BulkPlan {
  /** The patch to store; null when nothing changes or something was refused. */
  readonly patch: PatchBody | null;
  /** Rows the selection named that can take the edit. */
  readonly matched: number;
  /** Rows left out, with why (listing ID unknown, being applied, deleted in the draft): the edit goes on without them. */
  readonly skipped: readonly RowsByReason[];
  /** Rows whose result would be invalid: non-empty means nothing changes. */
  readonly refused: readonly RowsByReason[];
  /** The first few price changes, before → after, for the preview. */
  readonly samples: readonly { readonly key: string; readonly before: number; readonly after: number }[];
  readonly minAfter: number | null;
  readonly maxAfter: number | null;
}

const LISTING_ONLY = new Set(['setPromoted']);
const BUY_ORDER_ONLY = new Set(['setActive', 'setQuantity']);
const SAMPLES = 5;

/** Works out what a bulk operation would set on each selected row, storing nothing. */
export function planBulk(domain: BulkDomain, keys: Iterable<string>, op: BulkOp, ws: WorkingSet, ledger: LedgerView): BulkPlan {
  const empty = { patch: null, matched: 0, skipped: [], samples: [], minAfter: null, maxAfter: null };
  if ((domain === 'buyOrders' && LISTING_ONLY.has(op.op)) || (domain === 'listings' && BUY_ORDER_ONLY.has(op.op))) {
    return { ...empty, refused: [{ reason: `${describeKind(op)} does not apply to ${domain === 'listings' ? 'listings' : 'buy orders'}`, count: 0, sample: [] }] };
  }
  const collected = collectRows(domain, keys, ws, ledger);
  const { rows } = collected;
  const skipped = [...collected.skipped];
  const ids: string[] = [];
  const prices: number[] = [];
  const refused = new Map<string, { count: number; sample: string[] }>();
  const samples: { key: string; before: number; after: number }[] = [];
  let minAfter: number | null = null;
  let maxAfter: number | null = null;
  const computesPrice = op.op === 'addCents' || op.op === 'multiply';
  for (const row of rows) {
    const next = nextValues(op, row);
    if (typeof next === 'object' && next !== null) {
      const known = skipped.findIndex((s) => s.reason === next.skip);
      const before = skipped[known];
      if (before) skipped[known] = { ...before, count: before.count + 1, sample: before.sample.length < SAMPLES ? [...before.sample, row.id] : before.sample };
      else skipped.push({ reason: next.skip, count: 1, sample: [row.id] });
      continue;
    }
    if (typeof next === 'string') {
      let r = refused.get(next);
      if (!r) refused.set(next, (r = { count: 0, sample: [] }));
      r.count += 1;
      if (r.sample.length < SAMPLES) r.sample.push(row.id);
      continue;
    }
    if (next === null) continue; // already so
    ids.push(row.id);
    if (computesPrice || op.op === 'setPrice') {
      if (computesPrice) prices.push(next);
      if (samples.length < SAMPLES) samples.push({ key: row.id, before: row.price, after: next });
      if (minAfter === null || next < minAfter) minAfter = next;
      if (maxAfter === null || next > maxAfter) maxAfter = next;
    }
  }
  const refusedRows = [...refused].map(([reason, r]) => ({ reason, count: r.count, sample: r.sample }));
  const plan = { matched: rows.length - skippedHere(skipped, collected.skipped), skipped, refused: refusedRows, samples, minAfter, maxAfter };
  if (refusedRows.length > 0 || ids.length === 0) return { ...plan, patch: null };
  const set: PatchFields = fixedFields(op);
  const patch: PatchBody = computesPrice ? { domain, ids, set, prices } : { domain, ids, set };
  return { ...plan, patch };
}

/** Rows skipped by the operation itself (not by collecting them). */
function skippedHere(all: readonly RowsByReason[], collected: readonly RowsByReason[]): number {
  return all.reduce((n, s) => n + s.count, 0) - collected.reduce((n, s) => n + s.count, 0);
}

function describeKind(op: BulkOp): string {
  return op.op === 'setPromoted' ? 'Promoting' : op.op === 'setActive' ? 'Pausing or resuming' : 'Setting a quantity';
}

function fixedFields(op: BulkOp): PatchFields {
  switch (op.op) {
    case 'setPrice': return { price: op.cents };
    case 'setPromoted': return { promoted: op.value };
    case 'setNote': return { user_note: op.note };
    case 'clearNote': return { user_note: '' };
    case 'setActive': return { active: op.value };
    case 'setQuantity': return { quantity: op.quantity };
    case 'addCents':
    case 'multiply':
      return {};
  }
}

/**
 * The new price (number), `null` when the row already has the value, the
 * reason the row cannot take it (string: the whole edit is refused), or why
 * the row is left out of it (`skip`).
 */
function nextValues(op: BulkOp, row: EffectiveRow): number | null | string | { skip: string } {
  switch (op.op) {
    case 'setPrice': return row.price === op.cents ? null : op.cents;
    case 'addCents': return checkedPrice(row.price + op.cents, row.price);
    case 'multiply': return checkedPrice(scalePrice(row.price, op.percent, op.rounding, op.step), row.price);
    case 'setPromoted': return row.promoted === op.value ? null : 0;
    case 'setNote': return row.user_note === op.note ? null : 0;
    case 'clearNote': return row.user_note === '' ? null : 0;
    case 'setActive':
      if (row.active === op.value) return null;
      return row.isCreate ? { skip: 'created in this draft: it cannot be paused before it exists' } : 0;
    case 'setQuantity': return row.quantity === op.quantity ? null : 0;
  }
}

function checkedPrice(price: number, current: number): number | null | string {
  if (price === current) return null;
  return isValidPrice(price) ? price : `the new price ${priceProblem(price)}`;
}

/**
 * The shared `cents` rule for tens of thousands of computed prices. Asking
 * zod for each (and building an error for each refused row) would spend most
 * of the time budget, so a positive safe integer, which is exactly what
 * `cents` accepts (a test holds the two together), passes at once, and the
 * reason for a refusal comes from `cents` itself, once per kind of failure.
 */
export function isValidPrice(price: number): boolean {
  return Number.isSafeInteger(price) && price > 0;
}

const refusalReasons = new Map<string, string>();
function priceProblem(price: number): string {
  const kind = !Number.isInteger(price) ? 'fraction' : price <= 0 ? 'not-positive' : 'too-large';
  let reason = refusalReasons.get(kind);
  if (reason === undefined) {
    const r = cents.safeParse(price);
    reason = r.success ? 'invalid' : (r.error.issues[0]?.message ?? 'invalid');
    refusalReasons.set(kind, reason);
  }
  return reason;
}
