import type { ManualCost } from './cost-ledger.ts';
import { readAmountTable, type NameToSku } from './amount-table.ts';

/**
 * Costs by CSV: `sku` (or `name`), `cost` in dollars (or `cost_cents`), and
 * `quantity` (default 1): the units of that SKU held at that cost. Lines of
 * one SKU add up into its hand-set lots, in file order.
 */
export interface CostCsv {
  readonly costs: readonly ManualCost[];
  readonly errors: readonly { readonly line: number; readonly reason: string }[];
}

export function readCostCsv(text: string, skuForName: NameToSku | null): CostCsv {
  const table = readAmountTable(text, { amounts: ['cost'], counts: ['quantity'], skuForName });
  const costs: ManualCost[] = [];
  for (const row of table.rows) {
    const unitCost = row.amounts.cost;
    if (unitCost === undefined) continue;
    costs.push({ sku: row.sku, unitCost, quantity: row.counts.quantity ?? 1 });
  }
  return { costs, errors: table.errors };
}
