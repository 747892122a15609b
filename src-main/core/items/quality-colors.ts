/**
 * The colour traders know each quality by: the `name_color` Steam gives an
 * item of that quality in inventories and trade offers, which backpack.tf and
 * every trading site reuse (Unique gold, Strange orange, Unusual purple, ...).
 * The game's schema names the qualities but carries no colours, so they are
 * listed here. Customized (10), Completed (12) and the unused rarity2/rarity3
 * have no colour of their own on the market.
 */
export const QUALITY_COLORS: Readonly<Record<number, string>> = {
  0: '#B2B2B2', // Normal
  1: '#4D7455', // Genuine
  3: '#476291', // Vintage
  5: '#8650AC', // Unusual
  6: '#FFD700', // Unique
  7: '#70B04A', // Community
  8: '#A50F79', // Valve
  9: '#70B04A', // Self-Made
  11: '#CF6A32', // Strange
  13: '#38F3AB', // Haunted
  14: '#AA0000', // Collector's
  15: '#FAFAFA', // Decorated Weapon
};

/** The quality's colour as `#RRGGBB`, or null for a quality without one. */
export function qualityColor(quality: number): string | null {
  return QUALITY_COLORS[quality] ?? null;
}
