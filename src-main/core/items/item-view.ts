import type { ItemView } from '../../../src-shared/ledger.ts';
import type { ItemNames } from './item-names.ts';

/** The item of a SKU as the screens show it; null without a SKU (a listing created from an asset ID alone). */
export function itemViewOf(names: Pick<ItemNames, 'describe'>, sku: string): ItemView | null {
  if (sku === '') return null;
  const d = names.describe(sku);
  if (!d.known) {
    return { name: sku, known: false, quality: null, color: null, effect: null, killstreak: null, wear: null, australium: false, festivized: false, craftable: true };
  }
  return {
    name: d.name,
    known: true,
    quality: d.quality.name,
    color: d.quality.color,
    effect: d.effect?.name ?? null,
    killstreak: d.killstreak?.name ?? null,
    wear: d.wear?.name ?? null,
    australium: d.australium,
    festivized: d.festivized,
    craftable: d.craftable,
  };
}
