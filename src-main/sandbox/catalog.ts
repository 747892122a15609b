import { DEFAULT_GAME } from '../../src-shared/fields.ts';
import type { Random } from './prng.ts';
import { pick } from './prng.ts';

/**
 * The simulated item world: a fixed list of item kinds and qualities from which
 * inventories, trades and SKUs (`<defindex>;<quality>`) are drawn. Names and
 * numbers follow the documented first-party team game ("440") closely enough
 * that the desk's screens look like the real thing.
 */

export interface ItemKind {
  readonly defindex: number;
  readonly name: string;
  /** Class ID the service reports as `image_url`. */
  readonly classId: string;
  /** Typical price of a Unique copy, in cents. */
  readonly basePrice: number;
  /** Whether copies can be Decorated (and so carry a wear). */
  readonly decorated: boolean;
}

export const ITEM_KINDS: readonly ItemKind[] = [
  { defindex: 5021, name: 'Mann Co. Supply Crate Key', classId: '101785959', basePrice: 210, decorated: false },
  { defindex: 5002, name: 'Refined Metal', classId: '2674', basePrice: 4, decorated: false },
  { defindex: 725, name: 'Tour of Duty Ticket', classId: '229351587', basePrice: 95, decorated: false },
  { defindex: 378, name: 'Team Captain', classId: '166478045', basePrice: 450, decorated: false },
  { defindex: 30743, name: 'Patriot Peak', classId: '1787645893', basePrice: 120, decorated: false },
  { defindex: 200, name: 'Scattergun', classId: '2675', basePrice: 6, decorated: true },
  { defindex: 205, name: 'Rocket Launcher', classId: '2680', basePrice: 7, decorated: true },
  { defindex: 208, name: 'Flame Thrower', classId: '2683', basePrice: 6, decorated: true },
  { defindex: 15013, name: 'Minigun', classId: '1018473420', basePrice: 35, decorated: true },
  { defindex: 15062, name: 'Sniper Rifle', classId: '1101352740', basePrice: 28, decorated: true },
  { defindex: 940, name: 'Ghostly Gibus', classId: '262823853', basePrice: 180, decorated: false },
  { defindex: 30469, name: 'Horace', classId: '1123491124', basePrice: 60, decorated: false },
  { defindex: 1071, name: 'Gold Frying Pan', classId: '392405218', basePrice: 250_000, decorated: false },
  { defindex: 5050, name: 'Backpack Expander', classId: '101785123', basePrice: 190, decorated: false },
  { defindex: 30415, name: 'Medicine Manpurse', classId: '716153401', basePrice: 45, decorated: false },
  { defindex: 31116, name: 'Sinner\'s Shade', classId: '3473651920', basePrice: 80, decorated: false },
];

export interface Quality {
  readonly id: number;
  readonly name: string;
  /** Price multiplier over a Unique copy. */
  readonly factor: number;
}

export const QUALITIES: readonly Quality[] = [
  { id: 6, name: 'Unique', factor: 1 },
  { id: 11, name: 'Strange', factor: 3 },
  { id: 1, name: 'Genuine', factor: 2 },
  { id: 3, name: 'Vintage', factor: 2 },
  { id: 13, name: 'Haunted', factor: 2 },
  { id: 14, name: 'Collector\'s', factor: 8 },
  { id: 5, name: 'Unusual', factor: 40 },
  { id: 15, name: 'Decorated Weapon', factor: 2 },
];

export const UNUSUAL_EFFECTS: readonly string[] = ['13', '14', '17', '29', '34', '70', '701', '3041'];
export const WEARS: readonly string[] = ['Factory New', 'Minimal Wear', 'Field-Tested', 'Well-Worn', 'Battle Scarred'];

/** The game every simulated asset belongs to: the documented one. */
export const SANDBOX_GAME = DEFAULT_GAME;

/** One concrete item: a kind in a quality, with what a trade shows about it. */
export interface DrawnItem {
  readonly sku: string;
  readonly name: string;
  readonly quality: Quality;
  readonly kind: ItemKind;
  readonly price: number;
  readonly effect: string | null;
  readonly wear: string | null;
}

/** Draws one item; Unusual and Decorated copies are rarer, as on the real market. */
export function drawItem(random: Random): DrawnItem {
  const kind = pick(random, ITEM_KINDS);
  const roll = random();
  let quality: Quality;
  if (kind.decorated && roll < 0.25) quality = qualityById(15);
  else if (roll < 0.55) quality = qualityById(6);
  else if (roll < 0.93) quality = pick(random, QUALITIES.filter((q) => q.id !== 5 && q.id !== 15));
  else quality = qualityById(5);
  const effect = quality.id === 5 ? pick(random, UNUSUAL_EFFECTS) : null;
  const wear = quality.id === 15 ? pick(random, WEARS) : null;
  const price = Math.max(1, Math.round(kind.basePrice * quality.factor * (0.8 + random() * 0.4)));
  const prefix = quality.id === 6 || quality.id === 15 ? '' : `${quality.name} `;
  const suffix = wear === null ? '' : ` (${wear})`;
  return {
    sku: `${kind.defindex};${quality.id}`,
    name: `${prefix}${kind.name}${suffix}`,
    quality,
    kind,
    price,
    effect,
    wear,
  };
}

/** What a trade shows about the item of a SKU (`<defindex>;<quality>`); unknown parts read as a plain item. */
export function describeSku(sku: string): { name: string; quality: string; classId: string } {
  const [defindex, qualityId] = sku.split(';').map(Number);
  const kind = ITEM_KINDS.find((k) => k.defindex === defindex);
  const quality = QUALITIES.find((q) => q.id === qualityId);
  const prefix = quality === undefined || quality.id === 6 || quality.id === 15 ? '' : `${quality.name} `;
  return { name: `${prefix}${kind?.name ?? `Item ${sku}`}`, quality: quality?.name ?? '', classId: kind?.classId ?? '' };
}

function qualityById(id: number): Quality {
  const quality = QUALITIES.find((q) => q.id === id);
  if (!quality) throw new RangeError(`unknown quality ${id}`);
  return quality;
}
