import type { DatabaseSync } from 'node:sqlite';
import { z } from 'zod';
import { parseRows } from './sql.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * The inventories as last read (the current copy of each account, see
 * inventory-repo.ts), asked by asset ID: what names a new listing typed or
 * imported by its asset ID, and tells one the inventory does not hold.
 */
export interface KeptItems {
  /** Each asset the kept inventories hold: its SKU ('' when Steam's item could not be read as one) and the account. */
  of(assetIds: readonly string[]): Map<string, { readonly sku: string; readonly account: string }>;
  /** The accounts whose inventory was read whole at least once: only of those can an asset be said to be missing. */
  readAccounts(): Set<string>;
}

const keptRow = lazySchema(() => z.object({ asset_id: z.string(), sku: z.string(), account: z.string() }));
const accountRow = z.object({ account: z.string() });

export function createKeptItems(db: DatabaseSync): KeptItems {
  const items = db.prepare(`SELECT i.asset_id, i.sku, i.account FROM inventory_items i
    JOIN inventory_reads r ON r.account = i.account AND r.generation = i.generation
    WHERE i.asset_id IN (SELECT value FROM json_each(?))`);
  const read = db.prepare('SELECT account FROM inventory_reads WHERE read_at IS NOT NULL');
  return {
    of(assetIds) {
      if (assetIds.length === 0) return new Map();
      return new Map(parseRows('inventory_items', keptRow, items.all(JSON.stringify(assetIds))).map((r) => [r.asset_id, { sku: r.sku, account: r.account }]));
    },
    readAccounts: () => new Set(parseRows('inventory_reads', accountRow, read.all()).map((r) => r.account)),
  };
}
