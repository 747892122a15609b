import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';

/**
 * A reprice as the screens show it: each run (by hand or on the schedule),
 * what became of it, and its rows a page at a time: the changes with their
 * reason and what the price guard says of them, and the rows a rule would
 * move but could not, with why.
 */

export const repriceRunView = z.object({
  id: z.number().int(),
  kind: z.enum(['now', 'scheduled']),
  state: z.enum(['building', 'built', 'applying', 'applied', 'failed']),
  startedAt: z.number().int(),
  finishedAt: z.number().int().nullable(),
  draftId: z.string().nullable(),
  heldDraftId: z.string().nullable(),
  /** The apply of a scheduled run's unmarked changes (undo it like any apply). */
  applyRunId: z.number().int().nullable(),
  changed: z.number().int(),
  marked: z.number().int(),
  held: z.number().int(),
  unchanged: z.number().int(),
  problem: z.string().nullable(),
});
export type RepriceRunView = z.infer<typeof repriceRunView>;

export const repriceRowView = z.object({
  domain: z.enum(['listings', 'buyOrders']),
  key: z.string(),
  sku: z.string(),
  name: z.string(),
  outcome: z.enum(['change', 'held']),
  ruleId: z.number().int().nullable(),
  before: z.number().int().nullable(),
  after: z.number().int().nullable(),
  reason: z.string(),
  /** What the price guard says of the change: drop, floor, rise, under_cost, under_margin; jump: the source's price stands ×5 or more from its steady level and the change would follow it (see core/pricing/reprice-job.ts). */
  mark: z.string().nullable(),
});
export type RepriceRowView = z.infer<typeof repriceRowView>;

/** A row's mark in the trader's words, wherever it is said (the Pricing screen, an alert). */
export const MARK_WORDS: Readonly<Record<string, string>> = {
  drop: 'deep cut', floor: 'under the floor', rise: 'steep rise', under_cost: 'under cost', under_margin: 'under cost + margin', jump: 'source jumped',
};

export const repricePageQuery = lazySchema(() => z.strictObject({
  runId: z.number().int().positive(),
  outcome: z.enum(['change', 'held']).nullable().default(null),
  offset: z.number().int().min(0).max(10_000_000).default(0),
  limit: z.number().int().min(1).max(500).default(100),
}));

export const repricePage = lazySchema(() => z.object({ total: z.number().int(), offset: z.number().int(), rows: z.array(repriceRowView).max(500) }));
export type RepricePage = z.infer<typeof repricePage>;

/** The schedule as it stands: on or off, every how many hours, when it runs next, and whether a run is under way. */
export const repriceScheduleView = lazySchema(() => z.object({
  enabled: z.boolean(),
  everyHours: z.number().int(),
  nextAt: z.number().int().nullable(),
  running: z.boolean(),
}));
export type RepriceScheduleView = z.infer<typeof repriceScheduleView>;
