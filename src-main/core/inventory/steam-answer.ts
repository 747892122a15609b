import { z } from 'zod';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * One page of Steam's community inventory as the desk accepts it:
 * `{ assets, descriptions, total_inventory_count, more_items, last_assetid,
 * success }`. An empty inventory carries no `assets` or `descriptions`. A
 * description keeps every field Steam sends (tf2-item-format reads several);
 * the ones the desk relies on are checked, and text is bounded so a hostile
 * answer cannot fill the store.
 */

const digits = z.string({ error: 'must be a string of digits' }).regex(/^\d{1,20}$/, { error: 'must be a string of digits' });
const text = (max: number) => z.string({ error: 'must be text' }).max(max, { error: `must be at most ${max} characters` });
const flag = lazySchema(() => z.union([z.number().int(), z.boolean()], { error: 'must be 0 or 1' }));

export const steamAsset = lazySchema(() => z.object({
  appid: z.number({ error: 'must be a number' }).int(),
  contextid: text(20),
  assetid: digits,
  classid: digits,
  instanceid: digits,
  amount: text(20),
}));

const line = z.looseObject({ value: text(4_000), color: text(20).optional() });
const tag = lazySchema(() => z.looseObject({
  category: text(100),
  internal_name: text(200),
  localized_category_name: text(200).optional(),
  localized_tag_name: text(200).optional(),
  color: text(20).optional(),
}));
const action = lazySchema(() => z.looseObject({ link: text(2_000), name: text(200) }));

export const steamDescription = lazySchema(() => z.looseObject({
  classid: digits,
  instanceid: digits,
  name: text(300),
  market_name: text(300).optional(),
  market_hash_name: text(300),
  type: text(300),
  tradable: flag,
  marketable: flag,
  commodity: flag.optional(),
  descriptions: z.array(line).max(200).optional(),
  tags: z.array(tag).max(50).optional(),
  actions: z.array(action).max(20).optional(),
}));

export const steamPage = lazySchema(() => z.object({
  assets: z.array(steamAsset).max(10_000).optional(),
  descriptions: z.array(steamDescription).max(10_000).optional(),
  total_inventory_count: z.number({ error: 'must be a number' }).int().nonnegative(),
  more_items: flag.optional(),
  last_assetid: digits.optional(),
  success: z.union([z.literal(1), z.literal(true)], { error: 'must be 1 (Steam says the read failed)' }),
}));

export type SteamAsset = z.infer<typeof steamAsset>;
export type SteamDescription = z.infer<typeof steamDescription>;
export type SteamPage = z.infer<typeof steamPage>;
