// fs.promises: node:fs/promises loaded at the first read, not with the desk's code (~2 ms of a worker's start).
import { promises as files } from 'node:fs';
import { KEY_SKU, type ListConfig, type PricedbConfig } from '../../../src-shared/pricing.ts';
import { formatDecimal } from '../../../src-shared/money.ts';
import { ApiError } from '../api/errors.ts';
import type { Clock } from '../clock.ts';
import { readAmountTable, type NameToSku } from '../costs/amount-table.ts';
import type { PriceInput } from '../store/price-repo.ts';
import type { Turn } from '../turn.ts';
import { moneyWords, readBulkAnswer, toCents, type PricedbItem } from './pricedb-answer.ts';
import { jsonOrNull, type SourceHttp } from './source-http.ts';

/**
 * One read of a price source, whole: pricedb.io asked in bulk (100 SKUs a
 * request, paced well under its 180 a minute), or the trader's list read
 * from its file or URL. What comes back is every price in cents beside what
 * the source said; a failure throws (the last read's prices stay).
 */

export interface SourceReadResult {
  readonly prices: readonly PriceInput[];
  /** How long the source asks to be left alone, ms (null: it says nothing). */
  readonly maxAgeMs: number | null;
  /** Lines of a list that were refused (the others were read). */
  readonly refused: readonly { readonly line: number; readonly reason: string }[];
}

/** SKUs in one request to items-bulk: pricedb.io's own bound. */
export const BULK_SIZE = 100;
/** Between two requests of one read: pricedb.io allows 180 a minute, the desk asks at most 120. */
export const BULK_GAP_MS = 500;

export async function readPricedb(deps: {
  http: SourceHttp; clock: Clock; turn: Turn; config: PricedbConfig; skus: readonly string[]; signal?: AbortSignal;
}): Promise<SourceReadResult> {
  const { http, config } = deps;
  const skus = [...new Set([KEY_SKU, ...deps.skus])];
  const items: PricedbItem[] = [];
  let maxAgeMs: number | null = null;
  for (let i = 0; i < skus.length; i += BULK_SIZE) {
    if (i > 0) await deps.clock.sleep(BULK_GAP_MS, deps.signal);
    const answer = await http.request({
      method: 'POST', path: `${http.prefix}/items-bulk`, body: JSON.stringify({ skus: skus.slice(i, i + BULK_SIZE) }), accept: 'application/json',
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
    const json = jsonOrNull(answer.body);
    if (json === null) throw new ApiError('bad_response', `${config.name}: the answer is not JSON`, { status: answer.status, issues: [{ field: '(body)', message: 'is not JSON' }] });
    items.push(...readBulkAnswer(config.name, answer.status, json));
    if (answer.maxAgeMs !== null) maxAgeMs = Math.max(maxAgeMs ?? 0, answer.maxAgeMs);
    await deps.turn();
  }
  return { prices: pricesOf(config, items), maxAgeMs, refused: [] };
}

/** The items in cents: metal through the refined a key is worth (the trader's, or the source's own key price, side by side). */
function pricesOf(config: PricedbConfig, items: readonly PricedbItem[]): PriceInput[] {
  const key = items.find((i) => i.sku === KEY_SKU);
  const perKey = { buy: config.refinedPerKey ?? key?.buy.metal ?? 0, sell: config.refinedPerKey ?? key?.sell.metal ?? 0 };
  if (perKey.buy <= 0 || perKey.sell <= 0) {
    throw new ApiError('bad_response', `${config.name}: the answer has no price of the key (${KEY_SKU}), so refined metal cannot be turned into cents: set the refined a key is worth`, {
      issues: [{ field: KEY_SKU, message: 'has no price in refined' }],
    });
  }
  return items.map((item) => {
    const buy = toCents(item.buy, config.keyCents, perKey.buy);
    const sell = toCents(item.sell, config.keyCents, perKey.sell);
    return {
      sku: item.sku,
      buy: buy > 0 ? buy : null,
      sell: sell > 0 ? sell : null,
      original: `buy ${moneyWords(item.buy)}, sell ${moneyWords(item.sell)} (a key ${perKey.sell} ref)`,
      pricedAt: item.time * 1000,
    };
  });
}

/** The most a list file may weigh. */
const MAX_LIST_BYTES = 64 * 1024 * 1024;

export async function readList(deps: { http: SourceHttp | null; config: ListConfig; now: number; skuForName: NameToSku | null; signal?: AbortSignal }): Promise<SourceReadResult> {
  const { config } = deps;
  let text: string;
  let maxAgeMs: number | null = null;
  if (config.path !== null) {
    try {
      const size = (await files.stat(config.path)).size;
      if (size > MAX_LIST_BYTES) throw new ApiError('bad_response', `${config.name}: the file is larger than ${MAX_LIST_BYTES / 1024 / 1024} MiB`);
      text = await files.readFile(config.path, 'utf8');
    } catch (error) {
      if (error instanceof ApiError) throw error;
      const code = (error as { code?: unknown }).code;
      throw new ApiError('network', `${config.name}: the file ${config.path} could not be read (${typeof code === 'string' ? code : 'error'})`);
    }
  } else {
    if (deps.http === null) throw new ApiError('invalid', `${config.name}: no URL to read`);
    const answer = await deps.http.request({ method: 'GET', path: `${deps.http.prefix}${new URL(config.url ?? '').search}`, accept: 'text/csv, text/plain, */*', ...(deps.signal ? { signal: deps.signal } : {}) });
    text = answer.body.toString('utf8');
    maxAgeMs = answer.maxAgeMs;
  }
  const table = readAmountTable(text, { amounts: ['buy', 'sell'], skuForName: deps.skuForName });
  if (table.rows.length === 0) {
    const first = table.errors[0];
    throw new ApiError('bad_response', `${config.name}: no price could be read${first ? `: line ${first.line}: ${first.reason}` : ''}`, {
      issues: table.errors.slice(0, 20).map((e) => ({ field: `line ${e.line}`, message: e.reason })),
    });
  }
  const prices = table.rows.map((row) => ({
    sku: row.sku,
    buy: row.amounts.buy ?? null,
    sell: row.amounts.sell ?? null,
    original: ['buy', 'sell'].filter((c) => row.amounts[c] !== undefined).map((c) => `${c} ${formatDecimal(row.amounts[c] ?? 0)}`).join(', '),
    pricedAt: deps.now,
  }));
  return { prices, maxAgeMs, refused: table.errors };
}
