/**
 * Item names from the game's schema: SKU → what a trader reads, name → SKU for
 * CSV import, and a cheap name filter for the ledger. Plain Node, no Electron.
 */
export { createItemNames } from './item-names.ts';
export type { ItemNames } from './item-names.ts';
export type { ItemDescription, KnownItem, Named, UnknownItem } from './describe-sku.ts';
export type { KnownNames, NameRefusal, NameResolution } from './sku-for-name.ts';
export { QUALITY_COLORS, qualityColor } from './quality-colors.ts';
