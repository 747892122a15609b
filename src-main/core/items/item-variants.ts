import type { SchemaItem, SKUAttributes } from 'tf2-item-format';
import type { ItemVariantsView } from '../../../src-shared/item-search.ts';
import type { ItemDescription } from './describe-sku.ts';
import { itemSlot, type ItemFormat } from './schema.ts';

/**
 * What else an item comes as, for a trader who typed only its name: its
 * qualities, Unusual effects, killstreak tiers, Australium, Festivized,
 * craftability and wear, from the game's schema, each with the SKU it
 * resolves to (the SKU asked about with that one part changed). Only the
 * choices that exist for the item are offered: killstreaks on weapons, the
 * effects of its kind (a hat's, a weapon's, a taunt's), Australium on the
 * weapons that have one, Festivized where a Festivizer applies.
 */
/** As the contract states it, for a SKU the schema names (it has groups). */
export type ItemVariants = ItemVariantsView & { readonly groups: NonNullable<ItemVariantsView['groups']> };
export type VariantGroup = ItemVariants['groups'][number];
export type VariantOption = VariantGroup['options'][number];
export type VariantPart = VariantGroup['part'];

export interface VariantDeps {
  readonly format: ItemFormat;
  readonly describe: (sku: string) => ItemDescription;
  /** The schema's item of a defindex. */
  readonly item: (defindex: number) => SchemaItem | undefined;
  /** Defindexes a Festivizer applies to. */
  readonly festivizable: () => ReadonlySet<number>;
}

/** Qualities offered, most traded first (Decorated only for a skin or war paint). */
const QUALITIES = [6, 11, 5, 1, 3, 13, 14];
/** The weapons that come as Australium (always Strange); the schema does not say which. */
const AUSTRALIUM_WEAPONS = new Set([36, 38, 45, 61, 132, 141, 194, 197, 200, 201, 202, 203, 205, 206, 207, 208, 211, 228, 424]);
/** Slots of the items traders buy Unusual by effect: hats, misc cosmetics, taunts. */
const BOUGHT_FOR_EFFECT = new Set(['head', 'misc', 'taunt']);
const WEAPON_SLOTS = new Set(['primary', 'secondary', 'melee', 'pda', 'pda2', 'building']);
const KILLSTREAKS = ['None', 'Killstreak', 'Specialized', 'Professional'];
/** Effects by kind of item, as the schema numbers them: a hat's below 700, a weapon's 7xx, a taunt's 3xxx. */
const EFFECT_RANGES = { cosmetic: [1, 699], weapon: [700, 799], taunt: [3000, 3999] } as const;
const PLACEHOLDER_EFFECT = /^(Attrib_|Particle \d)/;

export function variantsOf(deps: VariantDeps, sku: string): ItemVariants | null {
  const described = deps.describe(sku);
  if (!described.known) return null;
  const { format, schema } = deps.format;
  const a = format.parseSKU(sku);
  if (a.targetDefindex !== undefined || a.outputDefindex !== undefined) return { sku, name: described.name, groups: [] };
  const slot = ((item) => (item === undefined ? null : itemSlot(item)))(deps.item(a.defindex));
  const weapon = slot !== null && WEAPON_SLOTS.has(slot);
  const toSku = (changed: Partial<SKUAttributes>) => format.toSKU(clean({ ...a, ...changed }));
  const known = (s: string) => deps.describe(s).known;
  const yesNo = (value: boolean | undefined, change: (on: boolean) => Partial<SKUAttributes>): VariantOption[] =>
    [false, true].map((on) => ({ label: on ? 'Yes' : 'No', sku: toSku(change(on)), chosen: (value === true) === on }));

  const groups: VariantGroup[] = [];
  const painted = a.wear !== undefined || a.texture !== undefined;
  const qualities = [...QUALITIES, ...(painted ? [15] : [])];
  if (!qualities.includes(a.quality)) qualities.push(a.quality);
  groups.push({
    part: 'quality', label: 'Quality',
    options: qualities.flatMap((q) => {
      const s = toSku({ quality: q, elevated: q === 6 || q === 11 ? false : a.elevated, effect: q === 5 ? a.effect : undefined });
      return known(s) || q === a.quality ? [{ label: nameOr(() => schema.getQualityName(q), `Quality ${q}`), sku: s, chosen: q === a.quality }] : [];
    }),
  });
  if (a.quality !== 6 && a.quality !== 11) groups.push({ part: 'strange', label: 'Strange as well', options: yesNo(a.elevated, (on) => ({ elevated: on })) });
  // A hat or a taunt is bought for its effect: its effects are offered before it is Unusual (an effect makes it so).
  const unusual = a.quality === 5;
  if (unusual || (BOUGHT_FOR_EFFECT.has(slot ?? '') && known(toSku({ quality: 5, effect: undefined })))) {
    const kind = slot === 'taunt' ? 'taunt' : weapon || painted ? 'weapon' : 'cosmetic';
    const [from, to] = EFFECT_RANGES[kind];
    const effects = Object.entries(schema.getEffects()).flatMap(([k, v]) => {
      const id = Number(k);
      return /^\d+$/.test(k) && typeof v === 'string' && id >= from && id <= to && !PLACEHOLDER_EFFECT.test(v) ? [{ id, name: v }] : [];
    });
    // Some effects share a name (a taunt's for each team): their number tells them apart.
    const shared = new Set(effects.filter((e, i) => effects.findIndex((o) => o.name === e.name) !== i).map((e) => e.name));
    groups.push({
      part: 'effect', label: 'Effect',
      options: [unusual ? { label: 'Any effect', sku: toSku({ effect: undefined }), chosen: a.effect === undefined } : { label: 'None', sku: toSku({}), chosen: true },
        // A Strange one with an effect is a Strange Unusual.
        ...effects.map((e) => ({
          label: shared.has(e.name) ? `${e.name} (#${e.id})` : e.name,
          sku: toSku(unusual ? { effect: e.id } : { quality: 5, effect: e.id, elevated: a.quality === 11 || a.elevated }),
          chosen: a.effect === e.id,
        }))],
    });
  }
  if (weapon) {
    groups.push({
      part: 'killstreak', label: 'Killstreak',
      options: KILLSTREAKS.map((label, tier) => ({ label, sku: toSku({ killstreak: tier === 0 ? undefined : tier }), chosen: (a.killstreak ?? 0) === tier })),
    });
  }
  if (AUSTRALIUM_WEAPONS.has(a.defindex)) {
    groups.push({ part: 'australium', label: 'Australium', options: yesNo(a.australium, (on) => ({ australium: on, ...(on && a.quality === 6 ? { quality: 11 } : {}) })) });
  }
  if (deps.festivizable().has(a.defindex)) groups.push({ part: 'festivized', label: 'Festivized', options: yesNo(a.festivized, (on) => ({ festivized: on })) });
  groups.push({
    part: 'craftable', label: 'Craftable',
    options: [true, false].map((c) => ({ label: c ? 'Craftable' : 'Non-Craftable', sku: toSku({ craftable: c }), chosen: a.craftable === c })),
  });
  if (a.wear !== undefined) {
    groups.push({
      part: 'wear', label: 'Wear',
      options: [1, 2, 3, 4, 5].map((w) => ({ label: nameOr(() => schema.getWearName(w), `Wear ${w}`), sku: toSku({ wear: w }), chosen: a.wear === w })),
    });
  }
  return { sku, name: described.name, groups };
}

/** The attributes without the parts set to nothing or off, as toSKU writes them. */
function clean(a: SKUAttributes): SKUAttributes {
  const out: SKUAttributes = { defindex: a.defindex, quality: a.quality, craftable: a.craftable };
  for (const key of ['australium', 'festivized', 'elevated'] as const) if (a[key] === true) out[key] = true;
  for (const key of ['killstreak', 'effect', 'texture', 'wear', 'targetDefindex', 'outputDefindex', 'outputQuality'] as const) {
    const value = a[key];
    // Killstreak 0 is none; a paint kit 0 is Red Rock Roscoe.
    if (value !== undefined && !(key === 'killstreak' && value === 0)) out[key] = value;
  }
  if (a.itemNumber !== undefined) out.itemNumber = a.itemNumber;
  return out;
}

function nameOr(lookup: () => unknown, fallback: string): string {
  try {
    const v = lookup();
    return typeof v === 'string' && v !== '' ? v : fallback;
  } catch {
    return fallback;
  }
}
