import { z } from 'zod';
import { afterBulkWrites, byDesk, channel, none } from './channel-facts.ts';
import { cents, sku } from './fields.ts';
import { CSV_PART_MAX_CHARS } from './csv-parts.ts';
import { stamp } from './ledger.ts';
import { pricingSettings, repriceRule, ruleView, sourceConfig, sourceId, sourceView } from './pricing.ts';
import { repricePage, repricePageQuery, repriceRunView, repriceScheduleView } from './reprice.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * The contract's channels and event for pricing (its price sources, the
 * repricing rules, Reprice now and its schedule) and for what each item
 * cost: spread into contract.ts, which stays the one description of the bridge.
 */

/** Everything the Pricing screen shows but a reprice's rows (those come a page at a time). */
export const pricingState = lazySchema(() => z.object({
  stamp,
  sources: z.array(sourceView),
  rules: z.array(ruleView),
  settings: pricingSettings,
  schedule: repriceScheduleView,
  /** The latest reprices, newest first. */
  runs: z.array(repriceRunView),
  /** A reprice is being built. */
  busy: z.boolean(),
}));
export type PricingState = z.infer<typeof pricingState>;

/** What a sale of each SKU would cost next (null: no cost known) and the units the desk knows the cost of. */
export const skuCosts = lazySchema(() => z.object({
  costs: z.array(z.object({ sku: z.string(), unitCost: cents.nullable(), held: z.number().int() })),
}));
export type SkuCosts = z.infer<typeof skuCosts>;

const ruleId = lazySchema(() => z.number().int().positive());

/** Costs set from a CSV file (`sku` or `name`, `cost` in dollars or `cost_cents`, `quantity`): what was set, and the lines refused with why. */
export const costImport = lazySchema(() => z.object({
  skus: z.number().int(),
  units: z.number().int(),
  refused: z.array(z.object({ line: z.number().int(), reason: z.string() })).max(50),
  refusedCount: z.number().int(),
}));
export type CostImport = z.infer<typeof costImport>;

export const pricingChannels = {
  'pricing:state': channel(none, pricingState, byDesk),
  'pricing:updateSettings': channel(pricingSettings.partial().strict(), pricingState, byDesk),
  'pricing:addSource': channel(z.strictObject({ config: sourceConfig }), pricingState, byDesk),
  'pricing:changeSource': channel(z.strictObject({ id: sourceId, config: sourceConfig }), pricingState, byDesk),
  'pricing:removeSource': channel(z.strictObject({ id: sourceId }), pricingState, byDesk),
  /** Reads a source (every source when none is named) as soon as it allows: the read's progress comes as `pricing:changed`. */
  'pricing:readNow': channel(z.strictObject({ id: sourceId.optional() }), pricingState, byDesk),
  'pricing:addRule': channel(z.strictObject({ rule: repriceRule }), pricingState, byDesk),
  'pricing:changeRule': channel(z.strictObject({ id: ruleId, rule: repriceRule }), pricingState, byDesk),
  'pricing:removeRule': channel(z.strictObject({ id: ruleId }), pricingState, byDesk),
  /** Reprices every row a rule covers into a new draft, made current; its rows (changes and held ones) with why, by `pricing:page`. */
  'pricing:repriceNow': channel(none, repriceRunView, afterBulkWrites),
  'pricing:page': channel(repricePageQuery, repricePage, byDesk),
  /** Costs of the SKUs a screen shows (Listings, the inventory picker). */
  'costs:of': channel(lazySchema(() => z.strictObject({ skus: z.array(sku).max(500) })), skuCosts, byDesk),
  /** What items cost that the desk cannot know (bought before its records, or elsewhere): each SKU named has its hand-set costs replaced. */
  'costs:importCsv': channel(lazySchema(() => z.strictObject({ text: z.string().max(CSV_PART_MAX_CHARS) })), costImport, byDesk),
} as const;

export const pricingEvents = {
  /** Sources read, rules or settings changed, a reprice moved on, a cost was counted: the Pricing screen asks again. */
  'pricing:changed': z.object({ stamp }),
} as const;
