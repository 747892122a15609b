import { qualityColor } from './quality-colors.ts';
import type { ItemFormat } from './schema.ts';

/** A named value of the schema: an effect, a wear, a paint kit, ... */
export interface Named {
  readonly id: number;
  readonly name: string;
}

/** An item the schema knows: its full name and the parts a screen shows apart. */
export interface KnownItem {
  readonly known: true;
  readonly sku: string;
  /** The full name as backpack.tf shows it, e.g. "Strange Professional Killstreak Rocket Launcher". */
  readonly name: string;
  /** The item alone, without quality or attributes, e.g. "Rocket Launcher". */
  readonly item: string;
  readonly defindex: number;
  /** Quality with its colour as traders know it (`#RRGGBB`; null for qualities without one). */
  readonly quality: Named & { readonly color: string | null };
  /** Strange as a second quality (a Strange Unusual, a Strange Genuine, ...). */
  readonly strange: boolean;
  readonly effect: Named | null;
  /** 1 Killstreak, 2 Specialized Killstreak, 3 Professional Killstreak. */
  readonly killstreak: Named | null;
  readonly australium: boolean;
  readonly festivized: boolean;
  readonly craftable: boolean;
  readonly wear: Named | null;
  readonly paintKit: Named | null;
}

/**
 * A SKU the schema cannot name: an item newer than the schema, or a SKU with a
 * part the format does not define. The caller shows the SKU itself and a quiet
 * "unknown item"; it is never an error.
 */
export interface UnknownItem {
  readonly known: false;
  readonly sku: string;
  /** The SKU itself, so that a caller can always print `name`. */
  readonly name: string;
}

export type ItemDescription = KnownItem | UnknownItem;

/** `<defindex>;<quality>` then parts; anything else is not a backpack.tf SKU. */
const SKU_SHAPE = /^\d{1,9};\d{1,4}(?:;[a-z0-9-]{1,24})*$/;

/**
 * Describes one SKU. The package's SKU parser skips parts it does not know and
 * reads `u` + garbage as an effect, so a SKU is accepted only when the package
 * writes it back with the same parts, and every id in it has a name in the
 * schema. Anything else is an unknown item rather than a wrong name.
 */
export function describeSku({ sku: skuFormat, schema }: ItemFormat, sku: string): ItemDescription {
  const unknown: UnknownItem = { known: false, sku, name: sku };
  if (!SKU_SHAPE.test(sku)) return unknown;
  const a = skuFormat.parseSKU(sku);
  if (!sameParts(skuFormat.toSKU(a), sku)) return unknown;

  const item = nameOf(() => schema.getName(a.defindex));
  const quality = nameOf(() => schema.getQualityName(a.quality));
  if (item === null || quality === null || quality.startsWith('rarity')) return unknown;
  const effect = named(a.effect, (id) => schema.getEffectName(id));
  const killstreak = named(a.killstreak, (id) => schema.getKillstreakName(id));
  const wear = named(a.wear, (id) => schema.getWearName(id));
  const paintKit = named(a.texture, (id) => schema.getTextureName(id));
  if (effect === undefined || killstreak === undefined || wear === undefined || paintKit === undefined) return unknown;
  // Kits, strangifiers and fabricators name a target or output item, which must exist too.
  const others = [a.targetDefindex, a.outputDefindex].filter((d) => d !== undefined);
  if (others.some((d) => nameOf(() => schema.getName(d)) === null)) return unknown;
  if (a.outputQuality !== undefined && nameOf(() => schema.getQualityName(a.outputQuality ?? 0)) === null) return unknown;

  let name: string;
  try {
    name = skuFormat.stringify(a);
  } catch {
    return unknown;
  }
  return {
    known: true,
    sku,
    name,
    item,
    defindex: a.defindex,
    quality: { id: a.quality, name: quality, color: qualityColor(a.quality) },
    strange: a.elevated === true,
    effect,
    killstreak,
    australium: a.australium === true,
    festivized: a.festivized === true,
    craftable: a.craftable,
    wear,
    paintKit,
  };
}

/**
 * Whether two SKUs have the same parts in any order. Writers differ in order
 * ("kt-3;w2" or "w2;kt-3") and in the hyphen of `kt-3`, `td-205`, `od-`, `oq-`
 * (the package's own parser drops it); neither changes the item.
 */
function sameParts(a: string, b: string): boolean {
  const parts = (sku: string) => {
    const [defindex, quality, ...rest] = sku.split(';');
    return [defindex, quality, ...rest.map((p) => p.replace('-', '')).sort()].join(';');
  };
  return parts(a) === parts(b);
}

/** A schema name, or null when the schema has none (or throws for the id). */
function nameOf(lookup: () => string | number | undefined): string | null {
  try {
    const value = lookup();
    return typeof value === 'string' && value !== '' ? value : null;
  } catch {
    return null;
  }
}

/** undefined: the SKU names an id the schema lacks; null: the SKU has no such part. */
function named(id: number | undefined, lookup: (id: number) => string | number | undefined): Named | null | undefined {
  if (id === undefined) return null;
  const name = nameOf(() => lookup(id));
  return name === null ? undefined : { id, name };
}
