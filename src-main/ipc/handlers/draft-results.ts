import type { AddChangesResult, BulkOutcome, ChangeRow, UndoResultView } from '../../../src-shared/contract.ts';
import type { UndoResult } from '../../core/apply/undo-apply.ts';
import type { AddChangesResult as CoreAddChanges, BulkResult } from '../../core/drafts/draft-service.ts';
import type { ReviewRow } from '../../core/drafts/review.ts';
import type { ItemNames } from '../../core/items/item-names.ts';
import { itemViewOf } from '../../core/items/item-view.ts';
import { boundedView } from '../error-view.ts';

/**
 * Results of draft edits as the renderer is shown them, bounded whatever the
 * input: a refusal of 50,000 rows names the first few and counts the rest.
 */
const ERRORS_SHOWN = 100;
const GROUPS_SHOWN = 50;

export const bulkOutcomeView = (r: BulkResult): BulkOutcome => ({
  changed: r.changed,
  matched: r.matched,
  skipped: r.skipped.slice(0, GROUPS_SHOWN).map((s) => ({ reason: s.reason, count: s.count, sample: [...s.sample] })),
  refused: r.refused.slice(0, GROUPS_SHOWN).map((s) => ({ reason: s.reason, count: s.count, sample: [...s.sample] })),
  samples: r.samples.map((s) => ({ ...s })),
  minAfter: r.minAfter,
  maxAfter: r.maxAfter,
  guard: { ...r.guard },
});

export const addChangesView = (r: CoreAddChanges & { draftId: string }): AddChangesResult => ({
  draftId: r.draftId,
  added: r.added,
  errors: r.errors.slice(0, ERRORS_SHOWN).map((e) => ({ index: e.index, target: e.target, field: e.field, message: e.message })),
  errorCount: r.errors.length,
});

export const changeRowView = (row: ReviewRow, names: ItemNames | null): ChangeRow => ({
  changeId: row.changeId,
  kind: row.kind,
  target: row.target,
  item: names && row.sku ? itemViewOf(names, row.sku) : null,
  account: row.account,
  status: row.status,
  error: row.error?.message ?? null,
  failure: row.error === null ? null : boundedView({ ...row.error }),
  concern: row.concern,
  reference: row.reference === null ? null : { ...row.reference },
  fields: row.fields.map((f) => ({ ...f })),
  note: row.note,
});

/** Notes an undo names: what cannot come back first; the counts say how many of each there are. */
const UNDO_NOTES_SHOWN = 100;

export const undoResultView = (r: UndoResult, names: ItemNames | null): UndoResultView => ({
  runId: r.runId,
  draftId: r.draftId,
  name: r.name,
  restored: r.restored,
  removed: r.removed,
  recreated: r.recreated,
  unchanged: r.unchanged,
  unresolved: r.unresolved,
  notes: r.notes.slice(0, UNDO_NOTES_SHOWN).map((n) => ({
    domain: n.target.startsWith('B:') ? 'buyOrders' : 'listings',
    key: n.target.slice(n.target.indexOf(':') + 1),
    item: names && n.sku ? itemViewOf(names, n.sku) : null,
    outcome: n.kind,
    reason: n.reason,
  })),
  noteCounts: {
    lost: r.notes.filter((n) => n.kind === 'lost').length,
    changedSince: r.notes.filter((n) => n.kind === 'changedSince').length,
    partly: r.notes.filter((n) => n.kind === 'partly').length,
  },
  relistable: r.relistable,
});
