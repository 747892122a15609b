import type { DatabaseSync } from 'node:sqlite';
import { z } from 'zod';
import type { ReferencePrice } from '../../../src-shared/price-guard.ts';
import { parseRows } from './sql.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * What an item fetches, as the desk knows it: the trader's lowest standing
 * listing of each SKU in the ledger, and its last sale that History counts
 * (a sale that completed, per item). What a new listing's price is held
 * against (src-shared/price-guard.ts), and what the picker prices from.
 */
export interface ReferenceReads {
  /** The lowest price of each SKU's standing listings (active or inactive). */
  lowestListings(skus: readonly string[]): Map<string, number>;
  /** The price per item of each SKU's last completed sale. */
  lastSales(skus: readonly string[]): Map<string, number>;
  /** Both, as the references a new listing of each SKU is held against. */
  referencesOf(skus: readonly string[]): Map<string, ReferencePrice[]>;
}

const skuPrice = lazySchema(() => z.object({ sku: z.string(), price: z.number() }));

export function createReferenceReads(db: DatabaseSync): ReferenceReads {
  const listed = db.prepare(`SELECT sku, min(price) AS price FROM listings WHERE state IN ('active', 'inactive')
    AND sku IN (SELECT value FROM json_each(?)) GROUP BY sku`);
  const sold = db.prepare(`SELECT sku, price FROM (
      SELECT i.sku AS sku, i.price AS price, row_number() OVER (PARTITION BY i.sku ORDER BY h.at DESC, h.trade_id DESC) AS n
      FROM trade_history_items i JOIN trade_history h ON h.trade_type = i.trade_type AND h.trade_id = i.trade_id
      WHERE h.side = 'sale' AND h.ending IN ('balance_moved', 'listing_sold') AND i.sku IN (SELECT value FROM json_each(?))
    ) WHERE n = 1`);
  const read = (statement: typeof listed, table: string, skus: readonly string[]) =>
    new Map(skus.length === 0 ? [] : parseRows(table, skuPrice, statement.all(JSON.stringify(skus))).map((r) => [r.sku, r.price]));
  const reads: ReferenceReads = {
    lowestListings: (skus) => read(listed, 'listings', skus),
    lastSales: (skus) => read(sold, 'trade_history_items', skus),
    referencesOf(skus) {
      const out = new Map<string, ReferencePrice[]>();
      const add = (sku: string, ref: ReferencePrice) => out.set(sku, [...(out.get(sku) ?? []), ref]);
      for (const [sku, cents] of reads.lowestListings(skus)) add(sku, { source: 'listing', cents });
      for (const [sku, cents] of reads.lastSales(skus)) add(sku, { source: 'sale', cents });
      return out;
    },
  };
  return reads;
}
