/**
 * An item of the trader's Steam inventory as the desk keeps it (the
 * `inventory_items` table; core/inventory/econ-items.ts reads it from
 * Steam's pages). An item the package or the schema cannot read keeps
 * Steam's own name and no SKU: it can still be listed, and the service will
 * name it.
 */
export interface InventoryRow {
  readonly asset_id: string;
  /** '' when the description could not be read as a SKU the schema knows. */
  readonly sku: string;
  readonly name: string;
  readonly quality: number | null;
  /** The quality's name ("Unusual"), '' when unknown. */
  readonly qualityName: string;
  readonly strange: boolean;
  readonly effect: number | null;
  readonly killstreak: number;
  readonly wear: number | null;
  readonly australium: boolean;
  readonly festivized: boolean;
  readonly craftable: boolean;
  readonly tradable: boolean;
}
