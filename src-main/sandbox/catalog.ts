import { createItemNames } from '../core/items/index.ts';
import { DEFAULT_GAME } from '../../src-shared/fields.ts';
import type { Random } from './prng.ts';
import { intBetween, pick } from './prng.ts';

/**
 * The simulated item world: real items of the documented first-party team game
 * ("440") with real backpack.tf SKUs, named by the game's schema (core/items),
 * so every screen of the desk shows in sandbox mode what it shows live.
 *
 * Two kinds of draw. Inventory assets (drawItem) are plain items whose SKU has
 * the two parts the interface document allows (`<defindex>;<quality>`: a Unique
 * key, a Strange Rocket Launcher), because the desk sends those SKUs back in
 * buy orders and the shared field rule refuses more parts. Trade items
 * (drawTradeItem) are read, never sent, so they show the whole range traders
 * meet: unusual effects, killstreak tiers, australium, festivized,
 * non-craftable, and weapon skins with a wear.
 */

type Family =
  /** Tools, currencies and cosmetics traded only as Unique. */
  | 'plain'
  /** Cosmetics that also come Unusual, with an effect. */
  | 'hat'
  /** Weapons: Unique or Strange, with killstreak kits, festivizers, and australium where it exists. */
  | 'weapon'
  /** A weapon skin: Decorated (or Strange), always with a wear; never a two-part SKU. */
  | 'skin';

interface ItemKind {
  readonly defindex: number;
  readonly family: Family;
  /** Class ID the service reports as `image_url`. */
  readonly classId: string;
  /** Typical price of the plainest copy, in cents. */
  readonly basePrice: number;
  /** Qualities of a copy without effect (Unique 6, Strange 11, Decorated 15). */
  readonly qualities: readonly number[];
  /** Sold in stacks: a trade may carry several. */
  readonly stackable?: boolean;
  /** An Australium version exists (always Strange). */
  readonly australium?: boolean;
  /** Often Non-Craftable (a Ghostly Gibus, a Non-Craftable key). */
  readonly uncraftable?: boolean;
  /** The skin's paint kit. */
  readonly paintKit?: number;
}

const ITEM_KINDS: readonly ItemKind[] = [
  { defindex: 5021, family: 'plain', classId: '101785959', basePrice: 210, qualities: [6], stackable: true, uncraftable: true },
  { defindex: 5002, family: 'plain', classId: '2674', basePrice: 4, qualities: [6], stackable: true },
  { defindex: 725, family: 'plain', classId: '229351587', basePrice: 95, qualities: [6] },
  { defindex: 5050, family: 'plain', classId: '101785123', basePrice: 190, qualities: [6] },
  { defindex: 30469, family: 'plain', classId: '1123491124', basePrice: 60, qualities: [6] },
  { defindex: 30415, family: 'plain', classId: '716153401', basePrice: 45, qualities: [6] },
  { defindex: 378, family: 'hat', classId: '166478045', basePrice: 450, qualities: [6] },
  { defindex: 30743, family: 'hat', classId: '1787645893', basePrice: 120, qualities: [6] },
  { defindex: 30911, family: 'hat', classId: '3014252581', basePrice: 90, qualities: [6] },
  { defindex: 31116, family: 'hat', classId: '3473651920', basePrice: 80, qualities: [6] },
  { defindex: 940, family: 'hat', classId: '262823853', basePrice: 180, qualities: [6], uncraftable: true },
  { defindex: 200, family: 'weapon', classId: '2675', basePrice: 6, qualities: [6, 11], australium: true },
  { defindex: 205, family: 'weapon', classId: '2680', basePrice: 7, qualities: [6, 11], australium: true },
  { defindex: 208, family: 'weapon', classId: '2683', basePrice: 6, qualities: [6, 11], australium: true },
  { defindex: 1071, family: 'weapon', classId: '392405218', basePrice: 250_000, qualities: [11] },
  { defindex: 15013, family: 'skin', classId: '1018473420', basePrice: 35, qualities: [15, 11], paintKit: 0 },
  { defindex: 15014, family: 'skin', classId: '1101352740', basePrice: 28, qualities: [15, 11], paintKit: 1 },
];

/** Kinds an inventory asset can be: every one with a two-part SKU. */
const PLAIN_KINDS = ITEM_KINDS.filter((k) => k.family !== 'skin');

/** Effects seen on Unusual cosmetics: Burning Flames, Scorching Flames, Sunbeams, Stormy Storm, Bubbling, Time Warp, ... */
const HAT_EFFECTS: readonly number[] = [13, 14, 17, 29, 34, 70, 3041];

/** Price multipliers over the plainest copy. */
const QUALITY_FACTOR: Readonly<Record<number, number>> = { 6: 1, 11: 3, 15: 2, 5: 40 };
const KILLSTREAK_FACTOR = [1, 1.5, 3, 8] as const;

/** The game every simulated asset belongs to: the documented one. */
export const SANDBOX_GAME = DEFAULT_GAME;

/** One concrete item, with what a trade shows about it. */
export interface DrawnItem {
  readonly sku: string;
  /** The name backpack.tf shows, from the game's schema. */
  readonly name: string;
  /** Quality name as the service reports it ("Unique", "Unusual", "Decorated Weapon", ...). */
  readonly quality: string;
  readonly classId: string;
  readonly stackable: boolean;
  readonly price: number;
  /** Unusual effect ID, as `particle_url` carries it. */
  readonly effect: string | null;
  /** Wear name of a skin ("Field-Tested"). */
  readonly wear: string | null;
}

/** Names, loaded on the first draw (the sandbox starts without them). */
const names = createItemNames();

/** Draws an inventory asset: a plain item whose SKU has two parts. */
export function drawItem(random: Random): DrawnItem {
  return draw(random, true);
}

/** Draws a trade item: rarer variants come up about as often as a busy trading account sees them. */
export function drawTradeItem(random: Random): DrawnItem {
  return draw(random, false);
}

function draw(random: Random, plain: boolean): DrawnItem {
  const kind = pick(random, plain ? PLAIN_KINDS : ITEM_KINDS);
  let quality = pick(random, kind.qualities);
  let effect: number | null = null;
  let killstreak = 0;
  let australium = false;
  let festive = false;
  let craftable = true;
  let wear: number | null = null;
  if (!plain) {
    const roll = random();
    if (kind.family === 'hat' && roll < 0.25) {
      quality = 5;
      effect = pick(random, HAT_EFFECTS);
    }
    if (kind.uncraftable && roll >= 0.6) craftable = false;
    if (kind.family === 'weapon' || kind.family === 'skin') {
      if (random() < 0.45) killstreak = intBetween(random, 1, 3);
      if (kind.australium && random() < 0.15) {
        quality = 11;
        australium = true;
      }
      if (kind.family === 'weapon' && random() < 0.12) festive = true;
    }
    if (kind.family === 'skin') wear = intBetween(random, 1, 5);
  }
  const sku = skuOf(kind, { quality, effect, australium, craftable, wear, killstreak, festive });
  const item = names.describe(sku);
  // A SKU of the catalog that the schema cannot name is a bug here, not a sandbox condition.
  if (!item.known) throw new RangeError(`sandbox catalog drew ${sku}, which the item schema does not know`);
  const factor = (QUALITY_FACTOR[quality] ?? 1) * KILLSTREAK_FACTOR[killstreak as 0 | 1 | 2 | 3]
    * (australium ? 40 : 1) * (festive ? 1.5 : 1) * (craftable ? 1 : 0.7);
  return {
    sku,
    name: item.name,
    quality: item.quality.name,
    classId: kind.classId,
    stackable: kind.stackable === true,
    price: Math.max(1, Math.round(kind.basePrice * factor * (0.8 + random() * 0.4))),
    effect: effect === null ? null : String(effect),
    wear: item.wear?.name ?? null,
  };
}

/** What a trade shows about the item of a SKU the sandbox listed (the SKU's own name when the schema has none). */
export function describeSku(sku: string): { name: string; quality: string; classId: string } {
  const item = names.describe(sku);
  const defindex = Number(sku.split(';')[0]);
  const kind = ITEM_KINDS.find((k) => k.defindex === defindex);
  return { name: item.name, quality: item.known ? item.quality.name : '', classId: kind?.classId ?? '' };
}

interface Variant {
  quality: number;
  effect: number | null;
  australium: boolean;
  craftable: boolean;
  wear: number | null;
  killstreak: number;
  festive: boolean;
}

/** The backpack.tf SKU, parts in the order tf2-item-format writes them. */
function skuOf(kind: ItemKind, v: Variant): string {
  const parts = [String(kind.defindex), String(v.quality)];
  if (v.effect !== null) parts.push(`u${v.effect}`);
  if (v.australium) parts.push('australium');
  if (!v.craftable) parts.push('uncraftable');
  if (v.wear !== null) parts.push(`w${v.wear}`);
  if (kind.paintKit !== undefined) parts.push(`pk${kind.paintKit}`);
  if (v.killstreak > 0) parts.push(`kt-${v.killstreak}`);
  if (v.festive) parts.push('festive');
  return parts.join(';');
}
