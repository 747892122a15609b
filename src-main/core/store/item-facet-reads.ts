import type { DatabaseSync } from 'node:sqlite';
import { z } from 'zod';
import type { LedgerDomain } from '../../../src-shared/ledger.ts';
import { parseRows } from './sql.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * What a ledger table's rows hold, for its item filters: how many rows of
 * each quality, effect, killstreak tier and wear, read from the names table
 * (migration 19) by SKU. The table's SKUs are counted through their index
 * first, so 50,000 rows of a few thousand SKUs join a few thousand names.
 */

/** A value of one part and how many rows hold it. */
export const facetRow = lazySchema(() => z.object({ id: z.number(), n: z.number() }));
export type FacetRow = z.output<typeof facetRow>;

export interface LedgerFacetRows {
  readonly quality: FacetRow[];
  readonly effect: FacetRow[];
  readonly killstreak: FacetRow[];
  readonly wear: FacetRow[];
}

/** The SKUs a table shows: the ledger's rows and the draft's creates (the draft is the one parameter). */
const SKUS: Readonly<Record<LedgerDomain, string>> = {
  listings: `SELECT sku FROM listings WHERE sku != ''
    UNION ALL SELECT sku FROM draft_entries WHERE draft_id = :draft AND slot = 'L' AND kind = 'listing.create' AND status NOT IN ('done', 'dropped')
      AND sku IS NOT NULL AND sku != ''`,
  buyOrders: `SELECT sku FROM buy_orders
    UNION ALL SELECT key FROM draft_entries WHERE draft_id = :draft AND slot = 'B' AND kind = 'buyOrder.create' AND status NOT IN ('done', 'dropped')`,
};

const skuParts = lazySchema(() => z.object({ quality: z.number().nullable(), effect: z.number().nullable(), killstreak: z.number(), wear: z.number().nullable(), n: z.number() }));

export function readLedgerFacets(db: DatabaseSync, domain: LedgerDomain, draftId: string | null): LedgerFacetRows {
  const rows = parseRows('item_names', skuParts, db.prepare(`SELECT n.quality, n.effect, n.killstreak, n.wear, s.n
    FROM (SELECT sku, count(*) AS n FROM (${SKUS[domain]}) GROUP BY sku) s JOIN item_names n ON n.sku = s.sku`).all({ draft: draftId ?? '' }));
  const count = (pick: (r: z.output<typeof skuParts>) => number | null, order: 'most' | 'id'): FacetRow[] => {
    const counts = new Map<number, number>();
    for (const r of rows) {
      const id = pick(r);
      if (id !== null) counts.set(id, (counts.get(id) ?? 0) + r.n);
    }
    const out = [...counts].map(([id, n]) => ({ id, n }));
    return out.sort(order === 'most' ? (a, b) => b.n - a.n || a.id - b.id : (a, b) => a.id - b.id);
  };
  return { quality: count((r) => r.quality, 'most'), effect: count((r) => r.effect, 'most'), killstreak: count((r) => r.killstreak, 'id'), wear: count((r) => r.wear, 'id') };
}
