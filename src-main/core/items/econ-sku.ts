import type { EconItem } from 'tf2-item-format';
import type { ItemFormat } from './schema.ts';

/**
 * The SKU of an item as Steam's inventory describes it (an econ item), read
 * by tf2-item-format: quality and exterior from the tags, effect, killstreak,
 * festivizer and craftability from the description lines, the defindex from
 * the item's wiki link. Null when the package cannot read it.
 *
 * With the wiki link, the package is not asked for defindexes: finding them
 * by name loads the schema's 20 MB item list (a few hundred ms), which only
 * a kit, a strangifier or a fabricator (whose target and output are named
 * items), or an item without a link, needs.
 */
export function skuOfEcon({ format }: ItemFormat, econ: EconItem): string | null {
  try {
    const defindex = wikiDefindex(econ);
    if (defindex !== null) {
      const attributes = format.parseEconItem(econ, true, false);
      if (attributes.target === undefined && attributes.output === undefined) return format.toSKU({ ...attributes, defindex });
    }
    const full = format.parseEconItem(econ, true, true, { useTrueDefindex: true });
    if (typeof full.defindex !== 'number' || !Number.isInteger(full.defindex) || full.defindex < 0) return null;
    return format.toSKU(full);
  } catch {
    return null;
  }
}

/** The defindex in the item's "Item Wiki Page..." link, as the package itself reads it. */
function wikiDefindex(econ: EconItem): number | null {
  const link = econ.actions?.find((a) => a.name === 'Item Wiki Page...')?.link ?? '';
  const match = /^https?:\/\/wiki\.teamfortress\.com\/scripts\/itemredirect\.php\?id=(\d{1,9})(?:&|$)/.exec(link);
  return match ? Number(match[1]) : null;
}
