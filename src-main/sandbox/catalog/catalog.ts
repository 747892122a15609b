import { createItemNames } from '../../core/items/index.ts';
import { DEFAULT_GAME } from '../../../src-shared/fields.ts';
import type { Family, ItemKind } from './catalog-items.ts';
import { HAT_EFFECTS, ITEM_KINDS, KILLSTREAK_FACTOR, QUALITY_FACTOR, SKIN_EFFECTS, TAUNT_EFFECTS, WEAR_FACTOR } from './catalog-items.ts';
import type { Random } from './prng.ts';
import { intBetween, pick } from './prng.ts';

/**
 * The simulated item world: real items of the documented first-party team game
 * ("440") with real backpack.tf SKUs, named by the game's schema (core/items),
 * so every screen of the desk shows in sandbox mode what it shows live.
 *
 * Items are drawn from a mix: how often each family comes up and how rare the
 * rarer variants are. Trades draw from the mix a busy trading account sees;
 * each seeded account's inventory from its own (a trader's stock, a storage
 * bot's weapons and skins, a keys bot's keys and metal, a hats bot's
 * cosmetics), so every kind of name the desk renders turns up: Unique,
 * Strange, Unusual with its effect (Strange Unusual too), Genuine, Vintage,
 * Haunted, Collector's, the three killstreak tiers, Australium, Festivized,
 * Non-Craftable, case skins and war paints with their wear.
 */

/** How often each family comes up, and how often the rarer variants do. */
export interface Mix {
  readonly families: Readonly<Record<Family, number>>;
  /** Chance that a cosmetic or taunt that can be Unusual is. */
  readonly unusual: number;
  /** Chance that a weapon or skin carries a killstreak kit. */
  readonly killstreak: number;
}

/** What a busy trading account sees in its trades. */
export const TRADE_MIX: Mix = {
  families: { tool: 3, cosmetic: 3, taunt: 0.5, weapon: 3, skin: 1, warpaint: 0.7 }, unusual: 0.25, killstreak: 0.45,
};

/** The seeded accounts' inventories: the main account's stock, then the linked accounts' in turn. */
const INVENTORY_MIXES: readonly Mix[] = [
  // The trader's own stock: a little of everything.
  { families: { tool: 3, cosmetic: 3, taunt: 0.4, weapon: 3, skin: 1, warpaint: 0.8 }, unusual: 0.15, killstreak: 0.35 },
  // storage-bot: weapons, skins and war paints.
  { families: { tool: 0.5, cosmetic: 0.5, taunt: 0.1, weapon: 5, skin: 2.5, warpaint: 2 }, unusual: 0.1, killstreak: 0.5 },
  // keys-bot: keys and metal.
  { families: { tool: 9, cosmetic: 0.3, taunt: 0, weapon: 0.3, skin: 0, warpaint: 0 }, unusual: 0.05, killstreak: 0.2 },
  // hats-bot: cosmetics and taunts, many Unusual.
  { families: { tool: 0.5, cosmetic: 6, taunt: 1.5, weapon: 0.2, skin: 0, warpaint: 0 }, unusual: 0.45, killstreak: 0.2 },
];

/** The mix of the inventory of the account at this index (main 0, then the linked ones). */
export function inventoryMix(accountIndex: number): Mix {
  const mixes = INVENTORY_MIXES;
  return mixes[accountIndex === 0 ? 0 : 1 + ((accountIndex - 1) % (mixes.length - 1))] ?? TRADE_MIX;
}

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

/** Draws an inventory asset from `mix` (the main account's by default). */
export function drawItem(random: Random, mix: Mix = inventoryMix(0)): DrawnItem {
  return draw(random, mix);
}

/** Draws a trade item: rarer variants come up about as often as a busy trading account sees them. */
export function drawTradeItem(random: Random): DrawnItem {
  return draw(random, TRADE_MIX);
}

interface Variant {
  quality: number;
  effect: number | null;
  /** Strange as a second quality (a Strange Unusual). */
  strange: boolean;
  australium: boolean;
  craftable: boolean;
  wear: number | null;
  paintKit: number | null;
  killstreak: number;
  festive: boolean;
}

function draw(random: Random, mix: Mix): DrawnItem {
  const kind = drawKind(random, mix);
  const v = drawVariant(random, kind, mix);
  const sku = skuOf(kind, v);
  const item = names.describe(sku);
  // A SKU of the catalog that the schema cannot name is a bug here, not a sandbox condition.
  if (!item.known) throw new RangeError(`sandbox catalog drew ${sku}, which the item schema does not know`);
  const factor = (QUALITY_FACTOR[v.quality] ?? 1) * KILLSTREAK_FACTOR[v.killstreak as 0 | 1 | 2 | 3]
    * (v.australium ? 40 : 1) * (v.festive ? 1.5 : 1) * (v.craftable ? 1 : 0.7) * (v.strange && v.quality !== 11 ? 1.5 : 1)
    * (v.wear === null ? 1 : WEAR_FACTOR[v.wear as 1 | 2 | 3 | 4 | 5]) * (v.paintKit !== null && kind.family === 'weapon' ? 6 : 1);
  return {
    sku,
    name: item.name,
    quality: item.quality.name,
    classId: kind.classId,
    stackable: kind.stackable === true,
    price: Math.max(1, Math.round(kind.basePrice * factor * (0.8 + random() * 0.4))),
    effect: v.effect === null ? null : String(v.effect),
    wear: item.wear?.name ?? null,
  };
}

function drawKind(random: Random, mix: Mix): ItemKind {
  const families = Object.entries(mix.families) as Array<[Family, number]>;
  const family = weighted(random, families.filter(([, w]) => w > 0), ([, w]) => w)[0];
  return weighted(random, ITEM_KINDS.filter((k) => k.family === family), (k) => k.weight ?? 1);
}

function drawVariant(random: Random, kind: ItemKind, mix: Mix): Variant {
  // The kind's first quality is the common one.
  const quality = kind.qualities.length > 1 && random() >= 0.65 ? pick(random, kind.qualities.slice(1)) : (kind.qualities[0] ?? 6);
  const v: Variant = {
    quality, effect: null, strange: false, australium: false, craftable: true, wear: null, paintKit: null, killstreak: 0, festive: false,
  };
  const roll = random();
  switch (kind.family) {
    case 'tool':
      if (kind.uncraftable && roll < 0.3) v.craftable = false;
      break;
    case 'cosmetic':
    case 'taunt':
      if (kind.unusual && roll < mix.unusual) {
        v.quality = 5;
        v.effect = pick(random, kind.family === 'taunt' ? TAUNT_EFFECTS : HAT_EFFECTS);
        v.strange = kind.family === 'cosmetic' && random() < 0.1;
      }
      if (kind.uncraftable && roll >= 0.4) v.craftable = false;
      break;
    case 'weapon':
      if (kind.paintKits && roll < 0.12) {
        v.quality = 15;
        v.paintKit = pick(random, kind.paintKits);
        v.wear = intBetween(random, 1, 5);
      } else if (kind.australium && roll < 0.27) {
        v.quality = 11;
        v.australium = true;
      } else if (v.quality !== 11 && roll > 0.97) {
        v.craftable = false;
      }
      if (!kind.noKits) {
        v.killstreak = drawKillstreak(random, mix);
        v.festive = v.paintKit === null && random() < 0.1;
      }
      break;
    case 'skin':
      v.paintKit = kind.paintKits?.[0] ?? 0;
      v.wear = intBetween(random, 1, 5);
      if (roll < mix.unusual / 4) {
        v.quality = 5;
        v.effect = pick(random, SKIN_EFFECTS);
        v.strange = random() < 0.5;
      }
      v.killstreak = drawKillstreak(random, mix);
      break;
    case 'warpaint':
      v.paintKit = kind.paintKits?.[0] ?? 0;
      v.wear = intBetween(random, 1, 5);
      break;
  }
  return v;
}

/** None, or a tier: Killstreak most often, Professional least. */
function drawKillstreak(random: Random, mix: Mix): number {
  if (random() >= mix.killstreak) return 0;
  const tier = random();
  return tier < 0.5 ? 1 : tier < 0.8 ? 2 : 3;
}

function weighted<T>(random: Random, list: readonly T[], weight: (item: T) => number): T {
  const total = list.reduce((sum, item) => sum + weight(item), 0);
  let at = random() * total;
  for (const item of list) {
    at -= weight(item);
    if (at < 0) return item;
  }
  const last = list.at(-1);
  if (last === undefined) throw new RangeError('weighted pick from an empty list');
  return last;
}

/** What a trade shows about the item of a SKU the sandbox listed (the SKU's own name when the schema has none). */
export function describeSku(sku: string): { name: string; quality: string; classId: string } {
  const item = names.describe(sku);
  return { name: item.name, quality: item.known ? item.quality.name : '', classId: classIdOf(sku) };
}

/** The class ID of the catalog's item behind a SKU ('' for an item not in the catalog). */
export function classIdOf(sku: string): string {
  const defindex = Number(sku.split(';')[0]);
  return ITEM_KINDS.find((k) => k.defindex === defindex)?.classId ?? '';
}

/** The catalog's family of the item behind a SKU (null for an item not in the catalog). */
export function familyOf(sku: string): Family | null {
  const defindex = Number(sku.split(';')[0]);
  return ITEM_KINDS.find((k) => k.defindex === defindex)?.family ?? null;
}

/** The backpack.tf SKU, parts in the order tf2-item-format writes them. */
function skuOf(kind: ItemKind, v: Variant): string {
  const parts = [String(kind.defindex), String(v.quality)];
  if (v.effect !== null) parts.push(`u${v.effect}`);
  if (v.australium) parts.push('australium');
  if (!v.craftable) parts.push('uncraftable');
  if (v.wear !== null) parts.push(`w${v.wear}`);
  if (v.paintKit !== null) parts.push(`pk${v.paintKit}`);
  if (v.strange) parts.push('strange');
  if (v.killstreak > 0) parts.push(`kt-${v.killstreak}`);
  if (v.festive) parts.push('festive');
  return parts.join(';');
}
