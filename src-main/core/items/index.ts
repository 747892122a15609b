/**
 * Item names from the game's schema: SKU → what a trader reads, name → SKU for
 * CSV import, typed names read in any order (buy by name), the words every
 * search finds items by, and what else an item comes as. Plain Node, no Electron.
 */
export { createItemNames } from './item-names.ts';
export type { ItemNames } from './item-names.ts';
export type { ItemDescription, KnownItem, Named, UnknownItem } from './describe-sku.ts';
export type { KnownNames, NameRefusal, NameResolution } from './sku-for-name.ts';
export { QUALITY_COLORS, qualityColor } from './quality-colors.ts';
export type { ItemVariants, VariantGroup, VariantOption, VariantPart } from './item-variants.ts';
export { foldSearchText, searchWords } from './search-words.ts';
