import type { EconItem } from 'tf2-item-format';
import type { ItemFormat } from './schema.ts';

/**
 * The SKU of an item as Steam's inventory describes it (an econ item), read
 * by tf2-item-format: quality and exterior from the tags, effect, killstreak,
 * festivizer and craftability from the description lines, the defindex from
 * the item's wiki link (the name decides only when the link is missing).
 * Null when the package cannot read it.
 */
export function skuOfEcon({ format }: ItemFormat, econ: EconItem): string | null {
  try {
    const attributes = format.parseEconItem(econ, true, true, { useTrueDefindex: true });
    if (typeof attributes.defindex !== 'number' || !Number.isInteger(attributes.defindex) || attributes.defindex < 0) return null;
    return format.toSKU(attributes);
  } catch {
    return null;
  }
}
