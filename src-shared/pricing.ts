import { z } from 'zod';
import { costGuard, DEFAULT_COST_GUARD } from './cost-guard.ts';
import { cents, serviceUrl, sku } from './fields.ts';
import { priceStep, rounding } from './drafts.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * Prices from outside and the rules that follow them, as the trader sets
 * them and the screens show them: the price sources (pricedb.io, which the
 * bots TF2 traders run price from, and the trader's own list), the pricing
 * settings of a workspace, and the repricing rules.
 */

/** pricedb.io's public API, TF2Autobot's default price source. */
export const PRICEDB_URL = 'https://pricedb.io/api';
/** The key's SKU: pricedb.io prices items in keys and refined metal, and the key itself in refined. */
export const KEY_SKU = '5021;6';

/**
 * How far a source's price may move from its steady level and still be the
 * market drifting: item prices move a few percent a day, so a move of ×5 or
 * more (up or down) is a jump, more often a mistake or a manipulation at the
 * source than a market, and nothing follows it without the trader.
 */
export const SOURCE_JUMP_MULTIPLE = 5;

export const sourceId = z.string().regex(/^[a-z0-9-]{1,40}$/, { error: 'must be lower-case letters, digits and dashes' });
const sourceName = lazySchema(() => z.string().trim().min(1).max(60));
/** How often a source is read: no more often than every five minutes, at least daily. */
const refreshMinutes = lazySchema(() => z.number().int().min(5).max(24 * 60));
/**
 * Whether the desk reads the source at all. pricedb.io is asked about every
 * SKU the desk holds; a trader who would rather not tell it turns it off, and
 * it is asked nothing, on its schedule or by "Read now", while the prices it
 * gave are kept (and age). A source stored before this was said is on.
 */
const enabled = lazySchema(() => z.boolean().default(true));

/**
 * pricedb.io (or a service that answers as it does). It prices in keys and
 * refined metal; the desk turns them into cents with the key's worth in
 * cents, which the trader sets (nothing the desk can read says what a key
 * sells for here), and the refined a key is worth, which the desk reads from
 * the source's own price of the key (as TF2Autobot converts) unless the
 * trader fixes it.
 */
export const pricedbConfig = lazySchema(() => z.strictObject({
  kind: z.literal('pricedb'),
  name: sourceName,
  url: serviceUrl,
  refreshMinutes,
  enabled,
  /** What a key is worth here, in cents. */
  keyCents: cents,
  /** Refined metal a key is worth; null: the source's own key price (its sell for sell prices, its buy for buy prices). */
  refinedPerKey: z.number().positive().max(10_000).nullable(),
}));

/** The trader's own price list: a CSV (`sku` or `name`, `buy`, `sell`, in dollars or `*_cents`) in a file or at an https URL. */
export const listConfig = lazySchema(() => z.strictObject({
  kind: z.literal('list'),
  name: sourceName,
  /** An https URL (http only on a loopback address) serving the CSV; null: a file. */
  url: serviceUrl.nullable(),
  /** The CSV file on the desk's machine; null: a URL. */
  path: z.string().trim().min(1).max(1_000).nullable(),
  refreshMinutes,
  enabled,
}).refine((c) => (c.url === null) !== (c.path === null), { error: 'a list is read from a URL or from a file, one of them', path: ['url'] }));

export const sourceConfig = z.discriminatedUnion('kind', [pricedbConfig, listConfig]);
export type SourceConfig = z.infer<typeof sourceConfig>;
export type PricedbConfig = z.infer<typeof pricedbConfig>;
export type ListConfig = z.infer<typeof listConfig>;

/** How fresh a source's prices are. */
export const sourceState = z.enum(['never', 'fresh', 'stale', 'failing']);

export const sourceView = lazySchema(() => z.object({
  id: sourceId,
  config: sourceConfig,
  state: sourceState,
  /** When the desk last read it whole (wall ms), and the prices it holds. */
  readAt: z.number().int().nullable(),
  prices: z.number().int(),
  /** Why the last read failed, naming the source and the field where the answer did not fit. */
  problem: z.string().nullable(),
  problemAt: z.number().int().nullable(),
  /** When it is read next (wall ms): its interval, or a 429's wait (capped), or a backoff after a failure. */
  nextReadAt: z.number().int().nullable(),
  /** The oldest of its prices, as the source priced them (wall ms). */
  oldestPricedAt: z.number().int().nullable(),
}));
export type SourceView = z.infer<typeof sourceView>;

export const sourcePriceView = lazySchema(() => z.object({
  sourceId,
  sku: z.string(),
  buy: z.number().int().nullable(),
  sell: z.number().int().nullable(),
  /** What the source said, in its own words ("4 keys 11.33 ref"). */
  original: z.string(),
  pricedAt: z.number().int(),
  readAt: z.number().int(),
}));
export type SourcePriceView = z.infer<typeof sourcePriceView>;

/** A workspace's pricing settings. */
export const pricingSettings = z.strictObject({
  /** The marketplace's fee on a sale, percent: History's profit takes it off. */
  feePercent: z.number().min(0).max(50),
  /** Repricing on its own, every `everyHours`. */
  schedule: z.strictObject({ enabled: z.boolean(), everyHours: z.number().int().min(1).max(168) }),
  /** The price guard's marks against cost. */
  costGuard,
  /** The source History values holdings and sales with (null: the first one). */
  valueSource: sourceId.nullable(),
});
export type PricingSettings = z.infer<typeof pricingSettings>;

export const DEFAULT_PRICING_SETTINGS: PricingSettings = {
  feePercent: 0,
  schedule: { enabled: false, everyHours: 6 },
  costGuard: DEFAULT_COST_GUARD,
  valueSource: null,
};

/**
 * Kinds of item a rule may name, from the game's schema: weapons (with the
 * shields and boots that take a weapon slot), cosmetics (hats and the rest
 * of what is worn), taunts, tools (keys, paints, strange parts), and other
 * items (metal, crates, ...).
 */
export const itemKind = z.enum(['weapon', 'cosmetic', 'taunt', 'tool', 'other']);
export type ItemKind = z.infer<typeof itemKind>;

/** Which items a rule covers when it names no SKU: every condition given must hold. */
export const itemFilter = lazySchema(() => z.strictObject({
  /** Quality IDs (6 Unique, 11 Strange, 5 Unusual, 1 Genuine, 3 Vintage, 13 Haunted, 14 Collector's, 15 Decorated). */
  qualities: z.array(z.number().int().min(0).max(100)).min(1).max(20).optional(),
  kinds: z.array(itemKind).min(1).max(5).optional(),
  /** Case-insensitive, in the item's name. */
  text: z.string().trim().min(1).max(100).optional(),
  /** Killstreak tiers (0: none). */
  killstreaks: z.array(z.number().int().min(0).max(3)).min(1).max(4).optional(),
  australium: z.boolean().optional(),
  craftable: z.boolean().optional(),
}));
export type ItemFilter = z.infer<typeof itemFilter>;

export const ruleScope = lazySchema(() => z.discriminatedUnion('by', [
  z.strictObject({ by: z.literal('sku'), sku }),
  /** A saved filter, by the name the trader gave it ("Strange weapons"). */
  z.strictObject({ by: z.literal('filter'), label: z.string().trim().min(1).max(60), filter: itemFilter }),
]));
export type RuleScope = z.infer<typeof ruleScope>;

const side = z.enum(['buy', 'sell']);

/** A repricing rule, as TF2Autobot's pricelist entry and autopricer do it, with the desk's guard rails. */
export const repriceRule = lazySchema(() => z.strictObject({
  name: z.string().trim().min(1).max(80),
  enabled: z.boolean(),
  scope: ruleScope,
  /** Listings (sell), buy orders (buy), or both. */
  intent: z.enum(['sell', 'buy', 'both']),
  source: sourceId,
  /** Which side of the source each kind of row follows. */
  sides: z.strictObject({ listings: side, buyOrders: side }),
  /** Percent, then cents, added to the source's price (negative to undercut). */
  offset: z.strictObject({ percent: z.number().min(-99).max(1_000), cents: z.number().int().min(-10_000_000).max(10_000_000) }),
  /** The bulk edit's roundings: to the cent or a grid (`{ size: 100, offset: 99 }`: x.99), nearest, up or down. */
  rounding: z.strictObject({ mode: rounding, step: priceStep.nullable() }),
  minCents: cents.nullable(),
  maxCents: cents.nullable(),
  /** Listings never go under what they cost plus this margin (a SKU with no cost known is held). */
  floor: z.strictObject({ marginPercent: z.number().min(0).max(1_000) }).nullable(),
  /** A source price older than this moves nothing (hours). */
  maxAgeHours: z.number().min(0.1).max(24 * 60).nullable(),
  /** Buy orders: stop buying at this many held. */
  maxHeld: z.number().int().min(0).max(1_000_000).nullable(),
}).refine((r) => r.minCents === null || r.maxCents === null || r.minCents <= r.maxCents, { error: 'the minimum is above the maximum', path: ['maxCents'] }));
export type RepriceRule = z.infer<typeof repriceRule>;

export const ruleView = lazySchema(() => z.object({ id: z.number().int(), position: z.number().int(), rule: repriceRule, updatedAt: z.number().int() }));
export type RuleView = z.infer<typeof ruleView>;
