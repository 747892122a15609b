import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../../core/clock.ts';
import { answerFor } from './price-model.ts';
import type { PricedbFaults } from './pricedb-faults.ts';

/**
 * pricedb.io's public API as the simulator serves it, under `/pricedb/api`
 * beside the service: `POST /items-bulk` (`{ skus }`, at most 100: the prices
 * it knows, an array), `GET /item/<sku>` and `GET /autob/items/<sku>`. Like
 * the real one it allows 180 requests a minute per caller and answers a
 * 429 with a Retry-After past that. Its prices move over simulated time
 * (price-model.ts); its knobs are pricedb-faults.ts's.
 */

export const PRICEDB_PREFIX = '/pricedb/api';
const LIMIT_PER_MINUTE = 180;
const WINDOW_MS = 60_000;

export interface PricedbLog {
  /** Every request answered, with its status. */
  readonly requests: { at: number; path: string; status: number; skus: number }[];
}

export interface PricedbSim {
  readonly faults: PricedbFaults;
  readonly log: PricedbLog;
  readonly seed: number;
}

export const isPricedbPath = (path: string): boolean => path === PRICEDB_PREFIX || path.startsWith(`${PRICEDB_PREFIX}/`);

export async function servePricedb(sim: PricedbSim & { clock: Clock; sent: number[] }, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const now = sim.clock.now();
  const body = await readBody(req);
  const path = url.pathname.slice(PRICEDB_PREFIX.length);
  const answer = (status: number, json: unknown, headers: Record<string, string> = {}, skus = 0, raw?: string) => {
    sim.log.requests.push({ at: now, path, status, skus });
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(raw ?? JSON.stringify(json));
  };
  const { faults } = sim;
  if (faults.outage !== null && now < faults.outage.until) return answer(503, { message: 'service unavailable' });
  if (faults.storm429 !== null && now < faults.storm429.until) {
    const after = faults.storm429.retryAfterSec;
    return answer(429, { message: 'Too many requests' }, after === null ? {} : { 'retry-after': String(after) });
  }
  // Its own limit: 180 a minute, sliding.
  while (sim.sent.length > 0 && (sim.sent[0] ?? 0) <= now - WINDOW_MS) sim.sent.shift();
  if (sim.sent.length >= LIMIT_PER_MINUTE) {
    return answer(429, { message: 'Too many requests' }, { 'retry-after': String(Math.max(1, Math.ceil(((sim.sent[0] ?? now) + WINDOW_MS - now) / 1000))) });
  }
  sim.sent.push(now);
  const price = (sku: string) => answerFor(sim.seed, sku, now, jumpOf(faults, sku, now));
  let skus: string[];
  if (req.method === 'POST' && path === '/items-bulk') {
    const parsed = parseSkus(body);
    if (parsed === null) return answer(400, { message: 'expected { skus: string[] } with at most 100 SKUs' });
    skus = parsed;
  } else if (req.method === 'GET' && (path.startsWith('/item/') || path.startsWith('/autob/items/'))) {
    skus = [decodeURIComponent(path.slice(path.lastIndexOf('/') + 1))];
  } else {
    return answer(404, { message: `no route ${req.method ?? ''} ${path}` });
  }
  const items = skus.map(price).filter((p) => p !== null);
  const single = req.method === 'GET';
  if (single && items.length === 0) return answer(404, { message: 'item not found' });
  const malformed = faults.malformed;
  if (malformed !== null && malformed.count > 0) {
    malformed.count -= 1;
    if (malformed.count === 0) faults.malformed = null;
    if (malformed.kind === 'not_json') return answer(200, null, {}, skus.length, '{"items": [');
    const broken = items.map((item, i) => (i !== 0 ? item : malformed.kind === 'wrong_type' ? { ...item, sell: { ...item.sell, metal: 'a lot' } } : { ...item, time: undefined }));
    return answer(200, single ? broken[0] : broken, {}, skus.length);
  }
  return answer(200, single ? items[0] : items, {}, skus.length);
}

function jumpOf(faults: PricedbFaults, sku: string, now: number): number {
  const jump = faults.jumps.get(sku);
  return jump !== undefined && now >= jump.from ? jump.factor : 1;
}

function parseSkus(body: string): string[] | null {
  try {
    const json = JSON.parse(body) as { skus?: unknown };
    const skus = json.skus;
    if (!Array.isArray(skus) || skus.length > 100 || !skus.every((s) => typeof s === 'string')) return null;
    return skus;
  } catch {
    return null;
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= 1_000_000) chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
