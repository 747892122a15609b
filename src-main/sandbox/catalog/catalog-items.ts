/**
 * The items the sandbox trades in: real items of the documented first-party
 * team game ("440"), each with the variants it really comes in, so that every
 * kind of name the desk renders turns up (see catalog.ts for how they are
 * drawn). Every SKU drawn from here is checked against the game's schema.
 */

export type Family =
  /** Keys, metal, tickets: Unique, often stacked in a trade. */
  | 'tool'
  /** Hats and misc cosmetics: Unique (or the kind's own qualities), Unusual with an effect, rarely Strange. */
  | 'cosmetic'
  /** Taunts: Unique, or Unusual with a taunt effect. */
  | 'taunt'
  /** Weapons: killstreak tiers, festivizers, australium where it exists, war paints where listed. */
  | 'weapon'
  /** A case skin (15xxx): Decorated or Strange, always with a wear, rarely Unusual. */
  | 'skin'
  /** A war paint (16xxx, 17xxx): Decorated, with a wear. */
  | 'warpaint';

export interface ItemKind {
  readonly defindex: number;
  readonly family: Family;
  /** Class ID the service reports as `image_url` and Steam as `classid`. */
  readonly classId: string;
  /** Typical price of the plainest copy, in cents. */
  readonly basePrice: number;
  /** Qualities of a copy without an effect, most common first (Unique 6, Strange 11, Genuine 1, Vintage 3, Haunted 13, Collector's 14, Decorated 15). */
  readonly qualities: readonly number[];
  /** How often it is drawn within its family, against the default 1. */
  readonly weight?: number;
  /** Sold in stacks: a trade may carry several. */
  readonly stackable?: boolean;
  /** An Australium version exists (always Strange). */
  readonly australium?: boolean;
  /** Often Non-Craftable (a Ghostly Gibus, a Non-Craftable key). */
  readonly uncraftable?: boolean;
  /** Comes Unusual, with an effect. */
  readonly unusual?: boolean;
  /** A skin's or war paint's own paint kit, or the war paints a weapon is seen painted with. */
  readonly paintKits?: readonly number[];
  /** Takes no killstreak kit and no festivizer (a lunchbox item). */
  readonly noKits?: boolean;
}

export const ITEM_KINDS: readonly ItemKind[] = [
  // Tools and currencies.
  { defindex: 5021, family: 'tool', classId: '101785959', basePrice: 210, qualities: [6], stackable: true, uncraftable: true, weight: 6 },
  { defindex: 5002, family: 'tool', classId: '2674', basePrice: 4, qualities: [6], stackable: true, weight: 4 },
  { defindex: 5001, family: 'tool', classId: '5564', basePrice: 2, qualities: [6], stackable: true, weight: 2 },
  { defindex: 725, family: 'tool', classId: '229351587', basePrice: 95, qualities: [6] },
  { defindex: 5050, family: 'tool', classId: '101785123', basePrice: 190, qualities: [6] },
  { defindex: 5020, family: 'tool', classId: '2675091', basePrice: 55, qualities: [6] },
  // Cosmetics.
  { defindex: 378, family: 'cosmetic', classId: '166478045', basePrice: 450, qualities: [6, 11], unusual: true },
  { defindex: 30743, family: 'cosmetic', classId: '1787645893', basePrice: 120, qualities: [6], unusual: true },
  { defindex: 30911, family: 'cosmetic', classId: '3014252581', basePrice: 90, qualities: [6], unusual: true },
  { defindex: 31116, family: 'cosmetic', classId: '3473651920', basePrice: 80, qualities: [6], unusual: true },
  { defindex: 30035, family: 'cosmetic', classId: '469437901', basePrice: 70, qualities: [6, 11], unusual: true },
  { defindex: 30112, family: 'cosmetic', classId: '667247420', basePrice: 65, qualities: [6], unusual: true },
  { defindex: 940, family: 'cosmetic', classId: '262823853', basePrice: 180, qualities: [6], uncraftable: true },
  { defindex: 30469, family: 'cosmetic', classId: '1123491124', basePrice: 60, qualities: [6, 1] },
  { defindex: 30397, family: 'cosmetic', classId: '930953561', basePrice: 40, qualities: [6, 1] },
  { defindex: 30415, family: 'cosmetic', classId: '716153401', basePrice: 45, qualities: [6] },
  { defindex: 126, family: 'cosmetic', classId: '2668', basePrice: 900, qualities: [3, 6] },
  { defindex: 261, family: 'cosmetic', classId: '15138', basePrice: 350, qualities: [3, 6] },
  { defindex: 287, family: 'cosmetic', classId: '11954', basePrice: 300, qualities: [13, 6] },
  { defindex: 543, family: 'cosmetic', classId: '102349817', basePrice: 150, qualities: [13, 6] },
  // Taunts.
  { defindex: 1172, family: 'taunt', classId: '2568591530', basePrice: 350, qualities: [6], unusual: true },
  { defindex: 1157, family: 'taunt', classId: '1710283478', basePrice: 420, qualities: [6], unusual: true },
  { defindex: 30672, family: 'taunt', classId: '1284921840', basePrice: 110, qualities: [6], unusual: true },
  // Weapons.
  { defindex: 200, family: 'weapon', classId: '2675', basePrice: 6, qualities: [6, 11], australium: true, paintKits: [200, 201, 205] },
  { defindex: 205, family: 'weapon', classId: '2680', basePrice: 7, qualities: [6, 11], australium: true, paintKits: [200, 205, 109] },
  { defindex: 208, family: 'weapon', classId: '2683', basePrice: 6, qualities: [6, 11], australium: true },
  { defindex: 211, family: 'weapon', classId: '2686', basePrice: 8, qualities: [6, 11], australium: true },
  { defindex: 61, family: 'weapon', classId: '2651', basePrice: 5, qualities: [6, 11, 3] },
  { defindex: 45, family: 'weapon', classId: '2637', basePrice: 5, qualities: [6, 11, 3] },
  { defindex: 294, family: 'weapon', classId: '11012', basePrice: 40, qualities: [6, 1] },
  { defindex: 933, family: 'weapon', classId: '263201187', basePrice: 160, qualities: [1] },
  { defindex: 939, family: 'weapon', classId: '262823841', basePrice: 120, qualities: [1] },
  { defindex: 159, family: 'weapon', classId: '5581', basePrice: 12, qualities: [6, 14], noKits: true },
  { defindex: 1071, family: 'weapon', classId: '392405218', basePrice: 250_000, qualities: [11], weight: 0.05 },
  // Case skins, each with its own paint kit.
  { defindex: 15013, family: 'skin', classId: '1018473420', basePrice: 35, qualities: [15, 11], paintKits: [0] },
  { defindex: 15014, family: 'skin', classId: '1101352740', basePrice: 28, qualities: [15, 11], paintKits: [1] },
  { defindex: 15002, family: 'skin', classId: '1018472890', basePrice: 60, qualities: [15, 11], paintKits: [11] },
  { defindex: 15004, family: 'skin', classId: '1018473001', basePrice: 210, qualities: [15, 11], paintKits: [10] },
  { defindex: 15006, family: 'skin', classId: '1018473112', basePrice: 45, qualities: [15, 11], paintKits: [6] },
  { defindex: 15009, family: 'skin', classId: '1018473255', basePrice: 30, qualities: [15, 11], paintKits: [8] },
  // War paints.
  { defindex: 16102, family: 'warpaint', classId: '2459128766', basePrice: 25, qualities: [15], paintKits: [102] },
  { defindex: 16109, family: 'warpaint', classId: '2459128801', basePrice: 30, qualities: [15], paintKits: [109] },
  { defindex: 16113, family: 'warpaint', classId: '2459128845', basePrice: 22, qualities: [15], paintKits: [113] },
  { defindex: 17200, family: 'warpaint', classId: '3108417802', basePrice: 40, qualities: [15], paintKits: [200] },
  { defindex: 17201, family: 'warpaint', classId: '3108417816', basePrice: 35, qualities: [15], paintKits: [201] },
  { defindex: 17205, family: 'warpaint', classId: '3108417870', basePrice: 55, qualities: [15], paintKits: [205] },
];

/** Effects of Unusual cosmetics: Burning Flames, Scorching Flames, Sunbeams, Stormy Storm, Bubbling, Terror-Watt, Time Warp, Eldritch Flame, Snowblinded. */
export const HAT_EFFECTS: readonly number[] = [13, 14, 17, 29, 34, 57, 70, 106, 144];
/** Effects of Unusual taunts: Showstopper, Holy Grail, '72, Silver Cyclone, Infernal Flames. */
export const TAUNT_EFFECTS: readonly number[] = [3001, 3003, 3004, 3009, 3015];
/** Effects of Unusual skins: Hot, Isotope, Cool, Energy Orb. */
export const SKIN_EFFECTS: readonly number[] = [701, 702, 703, 704];

/** Price multipliers over the plainest copy, by quality. */
export const QUALITY_FACTOR: Readonly<Record<number, number>> = { 1: 2.5, 3: 2, 5: 40, 6: 1, 11: 3, 13: 1.5, 14: 12, 15: 2 };
/** By killstreak tier: none, Killstreak, Specialized, Professional. */
export const KILLSTREAK_FACTOR = [1, 1.5, 3, 8] as const;
/** By wear: Factory New (1) to Battle Scarred (5). */
export const WEAR_FACTOR = [1, 1.6, 1.2, 1, 0.9, 0.8] as const;
