import { z } from 'zod';
import { csvDialect } from './csv-dialect.ts';
import { draftGuard, guardFindings, referencePrice } from './price-guard.ts';
import { changeInput, changeStatus, resolutionChoice } from './drafts.ts';
import { errorView } from './errors.ts';
import { itemView, ledgerDomain, stamp } from './ledger.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * The view models of drafts, their review and their apply: summaries, pages
 * of changes, bulk results and the apply job, each stamped with the state of
 * main it was read from. A draft never crosses whole: the review is a summary
 * plus pages of rows.
 */

export const draftSummary = lazySchema(() => z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** Changes still to apply or resolve. */
  changeCount: z.number().int(),
  failedCount: z.number().int(),
  unknownCount: z.number().int(),
  doneCount: z.number().int(),
}));

/** Every draft, and the one edits go into (main keeps which). */
export const draftsView = lazySchema(() => z.object({ stamp, currentId: z.string().nullable(), drafts: z.array(draftSummary) }));

/** Rows a bulk edit or a delete left out (or refused), by reason: a count and a few keys. */
export const rowsByReason = lazySchema(() => z.object({ reason: z.string(), count: z.number().int(), sample: z.array(z.string()) }));

export const bulkOutcome = lazySchema(() => z.object({
  /** The draft the edit went into; absent for a preview. */
  draftId: z.string().optional(),
  /** Rows whose value changes. */
  changed: z.number().int(),
  /** Rows of the selection that can take the edit. */
  matched: z.number().int(),
  /** Left out, with why: the edit goes on without them. */
  skipped: z.array(rowsByReason).max(50),
  /** Rows whose result would be invalid: non-empty means nothing changed. */
  refused: z.array(rowsByReason).max(50),
  /** The first few price changes, before → after. */
  samples: z.array(z.object({ key: z.string(), before: z.number().int(), after: z.number().int() })).max(10),
  minAfter: z.number().int().nullable(),
  maxAfter: z.number().int().nullable(),
  /** Price changes beyond the trader's price guard (a deep cut, under the floor, a big rise): counts and the worst. */
  guard: guardFindings,
}));

export const addChangesResult = lazySchema(() => z.object({
  draftId: z.string(),
  added: z.number().int(),
  /** The first refusals, each naming the input (index), the row and the field; `errorCount` counts them all. */
  errors: z.array(z.object({ index: z.number().int(), target: z.string(), field: z.string(), message: z.string() })).max(100),
  errorCount: z.number().int(),
}));

export const changeInputs = z.array(changeInput).max(100_000);

/** What a delete-all would do, said before the trader confirms it. */
export const deleteAllImpact = lazySchema(() => z.object({
  domain: ledgerDomain,
  /** Rows of the ledger it removes (the main account's). */
  removes: z.number().int(),
  /** Pending edits and deletes of those rows that it replaces: they leave the draft. */
  replacesChanges: z.number().int(),
  /** Creates in the draft: they stay, and run after the delete-all. */
  keepsCreates: z.number().int(),
}));

const fieldDiff = lazySchema(() => z.object({ field: z.string(), before: z.union([z.string(), z.number(), z.null()]), after: z.union([z.string(), z.number(), z.null()]) }));

/** One change of a draft as the review shows it: before → after, and where it stands. */
export const changeRow = lazySchema(() => z.object({
  /** The change's key in its draft (what removing it names). */
  changeId: z.string(),
  kind: z.string(),
  /** Asset ID, SKU, or "all" for a delete-all. */
  target: z.string(),
  /** The item, named, when the change names a SKU. */
  item: itemView.nullable(),
  account: z.string().nullable(),
  status: changeStatus,
  error: z.string().nullable(),
  /** The same failure as a kinded error, for the screen to word it (the technical part under Details). */
  failure: errorView.nullable().optional(),
  fields: z.array(fieldDiff),
  /** Something to know before applying (a quantity the balance may cut, what a delete-all removes and replaces). */
  note: z.string().nullable(),
  /**
   * What the price guard says of the change's price (a deep cut, under the
   * floor, a big rise, a new listing far under what the item fetches, under
   * what it cost or its cost plus the margin); null: nothing unusual.
   */
  concern: z.enum(['drop', 'floor', 'rise', 'under', 'under_cost', 'under_margin']).nullable().optional(),
  /** The price a new listing marked `under` is held against. */
  reference: referencePrice.nullable().optional(),
}));

/** The summary of a draft's review; its rows come by page. */
export const draftReview = lazySchema(() => z.object({
  stamp,
  draftId: z.string(),
  /** Changes by kind, open ones only (what the next apply sends or settles). */
  openByKind: z.record(z.string(), z.number().int()),
  byStatus: z.record(z.string(), z.number().int()),
  requestsPerEndpoint: z.record(z.string(), z.number().int()),
  etaMs: z.number().nonnegative(),
  /** What the delete-alls would remove, counted from the ledger. */
  removes: z.object({ listings: z.number().int(), buyOrders: z.number().int() }),
  /** Price changes the next apply sends that the price guard marks, per table: applying them needs `confirmGuard`. */
  guard: draftGuard,
}));

/**
 * What the trader confirmed of a draft's marked price changes: the counts
 * they were shown. An apply goes ahead only when these are what the draft
 * holds now, so neither a stray shortcut nor a confirmation of an older
 * state can send them.
 */
const guardCounts = guardFindings.pick({ drops: true, belowFloor: true, rises: true, underCost: true, underMargin: true });
export const guardConfirmation = lazySchema(() => z.strictObject({ listings: guardCounts.strict(), buyOrders: guardCounts.strict(), undercuts: z.number().int().nonnegative() }));
export type GuardConfirmation = z.infer<typeof guardConfirmation>;

export const draftPageQuery = lazySchema(() => z.strictObject({
  draftId: z.string().min(1).max(100),
  /** Only these kinds (e.g. `listing.edit`); all when absent. */
  kind: z.string().max(40).optional(),
  /** `open`: what is still to send or resolve (the default); `failed`: refused ones; `all`: history too. */
  show: z.enum(['open', 'failed', 'unknown', 'all']).default('open'),
  /** Only changes of items the search finds (words in any order, as every table reads it), or by key or note. */
  text: z.string().max(200).optional(),
  offset: z.number().int().min(0).max(10_000_000).default(0),
  limit: z.number().int().min(1).max(500).default(100),
}));

export const draftPage = lazySchema(() => z.object({
  stamp,
  draftId: z.string(),
  offset: z.number().int(),
  total: z.number().int(),
  rows: z.array(changeRow),
}));

export const applyJob = z.object({
  jobId: z.string(),
  draftId: z.string(),
  /** The apply run in the journal: what `apply:undo` names. */
  runId: z.number().int(),
  state: z.enum(['running', 'paused', 'cancelling', 'done', 'cancelled', 'stopped']),
  itemsTotal: z.number().int(),
  itemsDone: z.number().int(),
  itemsFailed: z.number().int(),
  itemsUnknown: z.number().int(),
  itemsLeft: z.number().int(),
  requestsSent: z.number().int(),
  etaMs: z.number().nullable(),
  startedAt: z.number(),
  stopReason: errorView.optional(),
  /** Why the job is paused by itself (a full disk): it resumes on its own once the journal can be written. */
  storeProblem: errorView.optional(),
  /**
   * Why its listing batches wait, while they do: the service said listings
   * are gone, and the trade lists (one read a minute) are to tell whether
   * they sold. `readAt`: when that read can go (null: once the read on its
   * way answers). The ETA counts the wait.
   */
  waiting: z.object({ reason: z.literal('trade_read'), listings: z.number().int(), since: z.number(), readAt: z.number().nullable() }).optional(),
});

/** The apply job main holds: the running one, or the last one of a draft that still exists. */
export const applyState = z.object({ stamp, job: applyJob.nullable() });

/** Something an undo says of one row: it cannot come back, it changed since the apply (undone anyway), or it comes back in part. */
export const undoNote = lazySchema(() => z.object({
  domain: ledgerDomain,
  /** The asset ID of a listing, the SKU of a buy order. */
  key: z.string(),
  item: itemView.nullable(),
  outcome: z.enum(['lost', 'changedSince', 'partly']),
  reason: z.string(),
}));

/** What undoing an apply made: a draft (now the current one) and what it does, and what it cannot do. */
export const undoResult = lazySchema(() => z.object({
  runId: z.number().int(),
  /** The new draft; null when nothing could be undone (no draft was made). */
  draftId: z.string().nullable(),
  name: z.string(),
  /** Rows the draft edits back to their values before the apply. */
  restored: z.number().int(),
  /** Rows the apply created, which the draft deletes. */
  removed: z.number().int(),
  /** Buy orders the apply deleted, which the draft creates again. */
  recreated: z.number().int(),
  /** Rows already as they were before the apply. */
  unchanged: z.number().int(),
  /** Changes of the apply whose outcome is still unknown: resolve them, then undo again to take them back too. */
  unresolved: z.number().int(),
  /** The first notes, what cannot come back first; `noteCounts` counts them all. */
  notes: z.array(undoNote).max(100),
  noteCounts: z.object({ lost: z.number().int(), changedSince: z.number().int(), partly: z.number().int() }),
  /** Listings the apply deleted whose asset can be listed again at its last price (`apply:relistDeleted`). */
  relistable: z.number().int(),
}));

/** The draft that lists again what an apply deleted (made current), and what its rules refused. */
export const relistResult = lazySchema(() => z.object({
  draftId: z.string().nullable(),
  name: z.string(),
  added: z.number().int(),
  refused: z.number().int(),
  reasons: z.array(z.string()).max(5),
}));

export const unknownOutcome = lazySchema(() => z.object({
  /** The journaled batch. */
  id: z.string(),
  draftId: z.string(),
  endpoint: z.string(),
  sentAt: z.number().nullable(),
  reason: z.string(),
  itemCount: z.number().int(),
  /** The first items (asset ID or SKU and what was sent); `itemCount` counts them all. */
  items: z.array(z.object({
    target: z.string(),
    change: z.record(z.string(), z.unknown()),
    /** The item, named, when its SKU is known (from the change or the ledger). */
    item: itemView.nullable().optional(),
  })).max(20),
  /** The resolutions that make sense for this endpoint, worded by main; `safe` ones never duplicate or lose a change. */
  choices: z.array(z.object({ id: resolutionChoice, label: z.string(), safe: z.boolean(), explanation: z.string() })),
  /**
   * What the service said since about these items (a later create refused
   * as "already listed" means this one most likely went through), newest
   * last; shown beside the choices.
   */
  evidence: z.array(z.object({ target: z.string(), at: z.number(), message: z.string() })).max(20),
}));
export const unknownOutcomesView = z.object({ stamp, outcomes: z.array(unknownOutcome) });

export const csvPreview = lazySchema(() => z.object({
  token: z.string(),
  kind: z.enum(['listings', 'buyOrders', 'draft']),
  validCount: z.number().int(),
  /** The first refused lines; `errorCount` counts them all. */
  errors: z.array(z.object({ line: z.number().int(), reason: z.string() })).max(200),
  errorCount: z.number().int(),
  /** How the file was read (separator, decimal mark, byte order mark, line ends): the preview says it, and the trader may choose otherwise. */
  dialect: csvDialect,
  /** New listings whose asset the account's inventory as last read does not hold: drafted all the same (it may have arrived since), and said. */
  notInInventory: z.object({ count: z.number().int(), sample: z.array(z.object({ line: z.number().int(), assetId: z.string() })).max(20) }),
}));
