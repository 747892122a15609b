import { z } from 'zod';
import { itemView } from './ledger.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * A name typed where a SKU is asked for (the buy order form): the names it
 * may be the start of, each with the SKU it resolves to, and what the typed
 * text itself resolves to, its words in any order. A name several items
 * bear ("Mann Co. Supply Crate") resolves to no SKU: its candidates say
 * which it may be. A name the schema does not know may be a near miss of
 * one it does ("did you mean"). Once a name resolves, what else the item
 * comes as (quality, effect, killstreak, ...) is offered, each with its SKU.
 */

export const itemSearchInput = lazySchema(() => z.strictObject({
  text: z.string().max(200),
  limit: z.number().int().min(1).max(20).default(8),
}));

const sku = z.string().max(200);
/** One SKU a name may mean, with the schema's own name to tell it from its namesakes. */
export const itemCandidate = lazySchema(() => z.object({ sku, name: z.string().max(300), detail: z.string().max(300).nullable() }));
export type ItemCandidate = z.infer<typeof itemCandidate>;

export const itemMatch = lazySchema(() => z.object({
  name: z.string().max(300),
  /** Null when several items bear the name: pick one of `candidates`. */
  sku: sku.nullable(),
  candidates: z.array(itemCandidate).max(20),
}));
export type ItemMatch = z.infer<typeof itemMatch>;

export const itemSearch = lazySchema(() => z.object({
  text: z.string().max(200),
  resolved: z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), sku, item: itemView }),
    z.object({
      ok: z.literal(false),
      reason: z.enum(['empty', 'no_such_item', 'not_understood', 'ambiguous']),
      message: z.string().max(1_000),
      candidates: z.array(itemCandidate).max(20),
    }),
  ]),
  matches: z.array(itemMatch).max(20),
  /** When the text resolves to nothing: the name it is a few typing mistakes away from, with its SKU. */
  nearMiss: z.object({ name: z.string().max(300), sku }).nullable(),
}));
export type ItemSearch = z.infer<typeof itemSearch>;

export const itemVariantsInput = lazySchema(() => z.strictObject({ sku: z.string().min(1).max(200) }));

/** One way the item comes, as the SKU asked about with one part changed. */
const variantOption = lazySchema(() => z.object({ label: z.string().max(120), sku, chosen: z.boolean() }));

export const itemVariants = lazySchema(() => z.object({
  sku,
  /** The name of the SKU asked about. */
  name: z.string().max(300),
  /** Null for a SKU the game's schema cannot name: there is nothing to choose. */
  groups: z.array(z.object({
    part: z.enum(['quality', 'strange', 'effect', 'killstreak', 'australium', 'festivized', 'craftable', 'wear']),
    label: z.string().max(60),
    options: z.array(variantOption).max(1_000),
  })).max(10).nullable(),
}));
export type ItemVariantsView = z.infer<typeof itemVariants>;
