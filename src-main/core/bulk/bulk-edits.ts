import type { BulkDomain, BulkOp } from '../../../src-shared/drafts.ts';
import { NO_FINDINGS, type PriceGuard } from '../../../src-shared/price-guard.ts';
import type { BulkPlan, RowsByReason } from '../drafts/draft-bulk.ts';
import { DELETED_REASON, ENDED_REASON, UNKNOWN_ID_REASON } from '../ledger/ledger-rows.ts';
import type { BulkPatch } from '../store/bulk-patch.ts';
import { createBulkRows, type BulkRows } from '../store/bulk-rows.ts';
import type { Store } from '../store/db.ts';
import { LOCKED_REASON } from '../store/draft-entry.ts';
import type { SelectedRows } from '../store/ledger-reads.ts';
import type { Turn } from '../turn.ts';
import { priceProblem } from './price-check.ts';

/**
 * A bulk edit over a selection: what it would do (the preview's plan, in the
 * trader's words) and writing it. The rows are classified and written in
 * SQL (store/bulk-rows.ts): every selected row read with the draft laid over
 * it and sorted into "changes", "already so", "left out (why)" or "refused
 * (why)", then every changed row written with set-based statements, a part
 * per transaction.
 */
export interface BulkEdits {
  /**
   * What a bulk edit would do, storing nothing (draftId null: over the ledger
   * alone): the selection is classified a part at a time, giving the event
   * loop back (`turn`) between parts. `resumeSeq` leaves out rows an
   * interrupted write of this edit already wrote.
   */
  preview(draftId: string | null, domain: BulkDomain, rows: SelectedRows, op: BulkOp, guard: PriceGuard, resumeSeq?: number): Promise<BulkPlan>;
  /** Writes what the last preview classified (see BulkRows.write). */
  write: BulkRows['write'];
  /** The edit being written into a draft (into its `domain` table, when given), as a patch over it (null when none is). */
  patch(draftId: string, domain?: BulkDomain): BulkPatch | null;
  /** Forgets a patch whose edit is left for the next start to finish (the screens read the draft as stored). */
  abandon(): void;
}

const LISTING_ONLY = new Set(['setPromoted']);
const BUY_ORDER_ONLY = new Set(['setActive', 'setQuantity']);
const SAMPLES = 5;
const NOT_FOUND_REASON = 'not in the ledger';
const CREATED_PAUSE_REASON = 'created in this draft: it cannot be paused before it exists';

/** Skip codes the SQL gives, and what they say. */
const SKIP_REASONS: Readonly<Record<string, string>> = {
  missing: NOT_FOUND_REASON, deleted: DELETED_REASON, locked: LOCKED_REASON, unknown_id: UNKNOWN_ID_REASON, ended: ENDED_REASON,
  created_pause: CREATED_PAUSE_REASON,
};

export function createBulkEdits(store: Pick<Store, 'db' | 'transaction' | 'clock'>, turn: Turn): BulkEdits {
  const rows = createBulkRows(store, turn);
  return {
    async preview(draftId, domain, selected, op, guard, resumeSeq) {
      if ((domain === 'buyOrders' && LISTING_ONLY.has(op.op)) || (domain === 'listings' && BUY_ORDER_ONLY.has(op.op))) {
        const what = op.op === 'setPromoted' ? 'Promoting' : op.op === 'setActive' ? 'Pausing or resuming' : 'Setting a quantity';
        const reason = `${what} does not apply to ${domain === 'listings' ? 'listings' : 'buy orders'}`;
        return { matched: 0, changed: 0, skipped: [], refused: [{ reason, count: 0, sample: [] }], samples: [], minAfter: null, maxAfter: null, guard: NO_FINDINGS };
      }
      await rows.classify(draftId, domain, selected, op, guard, resumeSeq);
      const f = await rows.figures(selected, op);
      const skipped: RowsByReason[] = f.skipped.map((g) => ({ reason: SKIP_REASONS[g.code] ?? g.code, count: g.count, sample: g.sample }));
      if (f.missing.length > 0) skipped.push({ reason: NOT_FOUND_REASON, count: f.missing.length, sample: f.missing.slice(0, SAMPLES) });
      const refused = f.refused.map((g) => ({ reason: `the new price ${priceProblem(g.price) ?? 'is invalid'}`, count: g.count, sample: g.sample }));
      // A refused row stops the whole edit: nothing changes.
      return {
        matched: f.matched, changed: refused.length > 0 ? 0 : f.changed, skipped, refused, samples: f.samples,
        minAfter: f.minAfter, maxAfter: f.maxAfter, guard: f.guard,
      };
    },
    write: (...args) => rows.write(...args),
    patch: (draftId, domain) => rows.patch(draftId, domain),
    abandon: () => rows.abandon(),
  };
}
