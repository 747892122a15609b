import { z } from 'zod';
import { itemView } from './ledger.ts';

/**
 * A name typed where a SKU is asked for (the buy order form): the names it
 * may be the start of, each with the SKU it resolves to, and what the typed
 * text itself resolves to. A name several items bear ("Mann Co. Supply
 * Crate") resolves to no SKU: its candidates say which it may be.
 */

export const itemSearchInput = z.strictObject({
  text: z.string().max(200),
  limit: z.number().int().min(1).max(20).default(8),
});

const sku = z.string().max(200);
/** One SKU a name may mean, with the schema's own name to tell it from its namesakes. */
export const itemCandidate = z.object({ sku, name: z.string().max(300), detail: z.string().max(300).nullable() });
export type ItemCandidate = z.infer<typeof itemCandidate>;

export const itemMatch = z.object({
  name: z.string().max(300),
  /** Null when several items bear the name: pick one of `candidates`. */
  sku: sku.nullable(),
  candidates: z.array(itemCandidate).max(20),
});
export type ItemMatch = z.infer<typeof itemMatch>;

export const itemSearch = z.object({
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
});
export type ItemSearch = z.infer<typeof itemSearch>;
