import type { BulkDomain, BulkOp } from '../../../src-shared/drafts.ts';
import type { GuardFindings, PriceGuard } from '../../../src-shared/price-guard.ts';
import type { BulkPatch } from '../store/bulk-patch.ts';
import type { Store } from '../store/db.ts';
import type { Repos } from '../store/index.ts';
import type { SelectedRows } from '../store/ledger-reads.ts';
import type { Turn } from '../turn.ts';

/**
 * What the draft service asks of the bulk edits, declared here with the
 * service so the drafts need nothing of the bulk edits' code: core/bulk/
 * makes them (bulk-jobs.ts's `createBulkJobs`), and whoever composes the
 * desk hands that maker to the service, which makes them for itself with
 * `BulkEditsDeps` (they tell it when they move a draft).
 */

/** Rows grouped by the reason they were left out or refused: a count, a few keys. */
export interface RowsByReason {
  readonly reason: string;
  readonly count: number;
  readonly sample: readonly string[];
}

/** What a bulk edit does to the selected rows. */
export interface BulkPlan {
  /** Rows the selection named that can take the edit. */
  readonly matched: number;
  /** Rows whose value changes. */
  readonly changed: number;
  /** Rows left out, with why (listing ID unknown, being applied, deleted in the draft): the edit goes on without them. */
  readonly skipped: readonly RowsByReason[];
  /** Rows whose result would be invalid: non-empty means nothing changes. */
  readonly refused: readonly RowsByReason[];
  /** The first few price changes, before → after, for the preview. */
  readonly samples: readonly { readonly key: string; readonly before: number; readonly after: number }[];
  readonly minAfter: number | null;
  readonly maxAfter: number | null;
  /** Price changes beyond the trader's guard (see src-shared/price-guard.ts). */
  readonly guard: GuardFindings;
}

/** The bulk edits of a draft service. */
export interface DraftBulkEdits {
  /** What `edit` would do, storing nothing; kept for the edit that follows it if nothing moved meanwhile. */
  preview(draftId: string | null, domain: BulkDomain, rows: SelectedRows, op: BulkOp): Promise<BulkPlan>;
  /** Writes the edit into the draft; `journaled` hears as soon as it is the draft's. Resolves once written. */
  edit(draftId: string, domain: BulkDomain, rows: SelectedRows, op: BulkOp, journaled?: (plan: BulkPlan) => void): Promise<BulkPlan>;
  /** Refuses with a sentence while an edit is being written into the draft: another change's rows would cross its parts. */
  assertIdle(draftId: string): void;
  busy(draftId: string): boolean;
  /** Resolves once no edit is being written, or after `withinMs`. */
  settled(withinMs: number): Promise<void>;
  /** The edit being written into a draft (one table, or whichever), as a patch; null when none is. */
  patch(draftId: string, domain?: BulkDomain): BulkPatch | null;
  /** Finishes the edits a quit or a crash cut short. */
  resume(): Promise<void>;
  dispose(): void;
}

/** What the service hands its bulk edits. */
export interface BulkEditsDeps {
  store: Store;
  repos: Pick<Repos, 'drafts'>;
  guard: () => PriceGuard;
  turn: Turn;
  /** The draft's version (0 for none): a kept preview must have been computed from the same, and an edit's patch tells what it was laid over. */
  stateOf(draftId: string | null): number;
  /**
   * The draft moved: its version is bumped and listeners told. `sameView`: what
   * the screens read is what they read before (a bulk edit's last part written,
   * which they read laid over as a patch until then), so an order sorted from it
   * still holds.
   */
  changed(draftId: string, sameView?: boolean): void;
}

/** Makes a draft service's bulk edits (core/bulk/bulk-jobs.ts's `createBulkJobs`). */
export type MakeBulkEdits = (deps: BulkEditsDeps) => DraftBulkEdits;
