import { z } from 'zod';
import { SOURCE_JUMP_MULTIPLE, sourceConfig, type SourceConfig } from '../../../src-shared/pricing.ts';
import type { Store } from './db.ts';
import { chunked, jsonColumn, parseRow, parseRows, placeholders } from './sql.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * The price sources and the prices each last gave (migration 021). A read
 * replaces a source's prices whole in one transaction, so a read cut short
 * leaves the last one's; a source that fails keeps them, with their times.
 */

export const sourceRow = lazySchema(() => z.object({
  source_id: z.string(),
  kind: z.enum(['pricedb', 'list']),
  config: jsonColumn(sourceConfig),
  read_at: z.number().int().nullable(),
  problem: z.string().nullable(),
  problem_at: z.number().int().nullable(),
  created_at: z.number().int(),
}));
export type SourceRow = z.output<typeof sourceRow>;

export const sourcePriceRow = lazySchema(() => z.object({
  source_id: z.string(),
  sku: z.string(),
  buy: z.number().int().nullable(),
  sell: z.number().int().nullable(),
  original: z.string(),
  priced_at: z.number().int(),
  read_at: z.number().int(),
  /** Each side's steady level: its price, except while the source stands a jump away from it (migration 022); null while the side has no price. */
  steady_buy: z.number().int().nullable(),
  steady_sell: z.number().int().nullable(),
}));
export type SourcePriceRow = z.output<typeof sourcePriceRow>;

export interface PriceInput {
  readonly sku: string;
  readonly buy: number | null;
  readonly sell: number | null;
  readonly original: string;
  readonly pricedAt: number;
}

const oldest = lazySchema(() => z.object({ n: z.number(), oldest: z.number().nullable() }));

export interface PriceRepo {
  sources(): SourceRow[];
  source(id: string): SourceRow | null;
  putSource(id: string, config: SourceConfig, at: number): void;
  removeSource(id: string): void;
  /** A read that went through: the source's prices are these (and no others), read at `at`. */
  replacePrices(id: string, prices: readonly PriceInput[], at: number): void;
  /** A read that failed: the prices stay, the problem is said. */
  setProblem(id: string, problem: string, at: number): void;
  prices(id: string, skus: readonly string[]): Map<string, SourcePriceRow>;
  price(id: string, sku: string): SourcePriceRow | null;
  /** How many prices a source holds and the oldest time it priced one. */
  stats(id: string): { prices: number; oldestPricedAt: number | null };
  page(id: string, offset: number, limit: number): SourcePriceRow[];
}

export function createPriceRepo(store: Pick<Store, 'db' | 'transaction'>): PriceRepo {
  const { db } = store;
  const all = db.prepare('SELECT * FROM price_sources ORDER BY created_at, source_id');
  const one = db.prepare('SELECT * FROM price_sources WHERE source_id = ?');
  const upsert = db.prepare(`INSERT INTO price_sources (source_id, kind, config, created_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (source_id) DO UPDATE SET kind = excluded.kind, config = excluded.config`);
  const remove = db.prepare('DELETE FROM price_sources WHERE source_id = ?');
  // A side's steady level follows the source's price unless the new price is a jump from it (×SOURCE_JUMP_MULTIPLE
  // either way): then it stays, however often the jumped price is read again. A side without a price keeps its level.
  const steady = (side: 'buy' | 'sell') => `CASE
        WHEN excluded.${side} IS NULL OR excluded.${side} <= 0 THEN steady_${side}
        WHEN steady_${side} > 0 AND (excluded.${side} >= steady_${side} * ${SOURCE_JUMP_MULTIPLE} OR excluded.${side} * ${SOURCE_JUMP_MULTIPLE} <= steady_${side}) THEN steady_${side}
        ELSE excluded.${side} END`;
  const upsertPrice = db.prepare(`INSERT INTO source_prices (source_id, sku, buy, sell, original, priced_at, read_at, steady_buy, steady_sell)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (source_id, sku) DO UPDATE SET
      steady_buy = ${steady('buy')},
      steady_sell = ${steady('sell')},
      buy = excluded.buy, sell = excluded.sell, original = excluded.original, priced_at = excluded.priced_at, read_at = excluded.read_at`);
  const dropUnread = db.prepare('DELETE FROM source_prices WHERE source_id = ? AND read_at != ?');
  const readOk = db.prepare('UPDATE price_sources SET read_at = ?, problem = NULL, problem_at = NULL WHERE source_id = ?');
  const problem = db.prepare('UPDATE price_sources SET problem = ?, problem_at = ? WHERE source_id = ?');
  const single = db.prepare('SELECT * FROM source_prices WHERE source_id = ? AND sku = ?');
  const stats = db.prepare('SELECT count(*) AS n, min(priced_at) AS oldest FROM source_prices WHERE source_id = ?');
  const page = db.prepare('SELECT * FROM source_prices WHERE source_id = ? ORDER BY sku LIMIT ? OFFSET ?');

  return {
    sources: () => parseRows('price_sources', sourceRow, all.all()),
    source(id) {
      const row = one.get(id);
      return row === undefined ? null : parseRow('price_sources', sourceRow, row);
    },
    putSource(id, config, at) {
      upsert.run(id, config.kind, JSON.stringify(config), at);
    },
    removeSource(id) {
      remove.run(id);
    },
    replacePrices(id, prices, at) {
      store.transaction(() => {
        for (const p of prices) upsertPrice.run(id, p.sku, p.buy, p.sell, p.original, p.pricedAt, at, p.buy, p.sell);
        dropUnread.run(id, at);
        readOk.run(at, id);
      });
    },
    setProblem(id, text, at) {
      problem.run(text, at, id);
    },
    prices(id, skus) {
      const out = new Map<string, SourcePriceRow>();
      for (const part of chunked([...new Set(skus)])) {
        const rows = db.prepare(`SELECT * FROM source_prices WHERE source_id = ? AND sku IN ${placeholders(part)}`).all(id, ...part);
        for (const r of parseRows('source_prices', sourcePriceRow, rows)) out.set(r.sku, r);
      }
      return out;
    },
    price(id, sku) {
      const row = single.get(id, sku);
      return row === undefined ? null : parseRow('source_prices', sourcePriceRow, row);
    },
    stats(id) {
      const row = parseRow('source_prices', oldest, stats.get(id));
      return { prices: row.n, oldestPricedAt: row.oldest };
    },
    page: (id, offset, limit) => parseRows('source_prices', sourcePriceRow, page.all(id, limit, offset)),
  };
}
