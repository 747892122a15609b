import { z } from 'zod';
import { ApiError, type FieldIssue } from '../api/errors.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * What pricedb.io answers (`POST /api/items-bulk` with `{ skus }`, at most
 * 100): an array of prices, one per SKU it knows, each in keys and refined
 * metal with the time it was priced (Unix seconds), as TF2Autobot reads
 * them. An answer that does not fit is an error naming the source and the
 * field; the prices kept from the last read stay.
 */

const money = lazySchema(() => z.object({ keys: z.number().finite().nonnegative().max(1_000_000), metal: z.number().finite().nonnegative().max(1_000_000) }));
export const pricedbItem = lazySchema(() => z.object({
  sku: z.string().min(1).max(200),
  name: z.string().max(500).optional(),
  source: z.string().max(100).optional(),
  time: z.number().int().nonnegative(),
  buy: money,
  sell: money,
}));
export type PricedbItem = z.infer<typeof pricedbItem>;
export const bulkAnswer = z.array(pricedbItem).max(1_000);

/** The answer's prices, or a `bad_response` naming the source and the first field that does not fit. */
export function readBulkAnswer(source: string, status: number, json: unknown): PricedbItem[] {
  const parsed = bulkAnswer.safeParse(json);
  if (parsed.success) return parsed.data;
  const issues: FieldIssue[] = parsed.error.issues.slice(0, 20).map((i) => ({ field: i.path.join('.') || '(body)', message: i.message }));
  const first = issues[0];
  const more = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more)` : '';
  throw new ApiError('bad_response', `${source}: the answer does not fit: ${first?.field ?? '?'} ${first?.message ?? ''}${more}`, { status, issues });
}

/**
 * Keys and refined metal in cents. Metal counts in half-scraps (18 to a
 * refined, as the game's weapons are worth half a scrap), the way TF2 bots
 * add currencies, so 11.33 ref is 102 scraps however its decimals fall:
 * cents = keys × keyCents + round(halfScraps × keyCents / halfScrapsPerKey).
 */
export function toCents(money: { readonly keys: number; readonly metal: number }, keyCents: number, refinedPerKey: number): number {
  const halfScraps = Math.round(money.metal * 18);
  const perKey = Math.round(refinedPerKey * 18);
  return Math.round(money.keys * keyCents) + Math.round((halfScraps * keyCents) / perKey);
}

/** "4 keys 11.33 ref", "0.44 ref": a price as the source said it. */
export function moneyWords(money: { readonly keys: number; readonly metal: number }): string {
  const keys = money.keys === 0 ? '' : `${money.keys} ${money.keys === 1 ? 'key' : 'keys'}`;
  const metal = money.metal === 0 && keys !== '' ? '' : `${money.metal} ref`;
  return [keys, metal].filter((w) => w !== '').join(' ');
}
