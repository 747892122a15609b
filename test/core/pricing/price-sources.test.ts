import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scaledClock } from '../../../src-main/core/clock.ts';
import { createPriceSources, type PriceSources } from '../../../src-main/core/pricing/price-sources.ts';
import { toCents } from '../../../src-main/core/pricing/pricedb-answer.ts';
import { startSandbox, type Sandbox } from '../../../src-main/sandbox/index.ts';
import { MAX_RETRY_AFTER_MS } from '../../../src-shared/rate-wait.ts';
import { KEY_SKU } from '../../../src-shared/pricing.ts';
import { tempStore, type TempStore } from '../store/temp-store.ts';

/** A minute lasts 0.1 s. */
const SCALE = 600;
const MIN = 60_000;
const HOUR = 60 * MIN;
const SKUS = Array.from({ length: 230 }, (_, i) => `${200 + (i % 115)};${i < 115 ? 6 : 11}${i % 7 === 0 ? ';kt-2' : ''}`);

let sandbox: Sandbox | null = null;
let sources: PriceSources | null = null;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await sources?.stop();
  sources = null;
  await sandbox?.close();
  sandbox = null;
  for (const c of cleanups.splice(0)) c();
});

async function setup(options: { skus?: readonly string[] } = {}) {
  const clock = scaledClock(SCALE);
  sandbox = await startSandbox({ clock, tradeSchedule: false, pastDays: 0, inventorySize: 10 });
  const t: TempStore = tempStore({ clock });
  cleanups.push(() => t.dispose());
  sources = createPriceSources({ store: t.store, clock, wanted: () => options.skus ?? SKUS, pricedbUrl: sandbox.pricedb.url });
  return { clock, sandbox, sources, t };
}

describe('price sources: pricedb.io', () => {
  it('reads the desk\'s SKUs in bulk, 100 a request, and keeps each price in cents beside what the source said and when it priced it', async () => {
    const { clock, sandbox: sim, sources: s } = await setup();
    // A simulated hour is 6 s here: a slow read may cross one, so each price is checked against the hour it says.
    const readFrom = Math.floor(clock.now() / HOUR) * HOUR;
    await s.readNow('pricedb');
    const readTo = clock.now();
    const bulk = sim.pricedb.log.requests.filter((r) => r.path === '/items-bulk');
    // The key and 230 SKUs: three requests.
    expect(bulk.map((r) => [r.status, r.skus])).toEqual([[200, 100], [200, 100], [200, 31]]);
    const [view] = s.list();
    expect(view).toMatchObject({ id: 'pricedb', state: 'fresh', prices: new Set([KEY_SKU, ...SKUS]).size, problem: null });
    const stored = s.prices('pricedb', SKUS);
    for (const sku of SKUS) {
      const row = stored.get(sku);
      const pricedAt = row?.priced_at ?? -1;
      expect(pricedAt).toBeGreaterThanOrEqual(readFrom);
      expect(pricedAt).toBeLessThanOrEqual(readTo);
      const truth = sim.pricedb.price(sku, pricedAt);
      const answer = sim.pricedb.answer(sku, pricedAt);
      // Metal is told to the scrap: within a cent of the market's own price.
      expect(Math.abs((row?.sell ?? 0) - truth.sellCents)).toBeLessThanOrEqual(1);
      expect(row?.sell).toBe(toCents(answer?.sell ?? { keys: 0, metal: 0 }, 180, sim.pricedb.key.refined.sell));
      expect(row?.buy).toBe(toCents(answer?.buy ?? { keys: 0, metal: 0 }, 180, sim.pricedb.key.refined.buy));
      expect(row?.original).toContain(`sell ${answer?.sell.keys ? `${answer.sell.keys} key` : ''}`);
      expect(row?.priced_at).toBe(truth.pricedAt);
    }
  });

  it('keeps the last prices through an outage, says which source failed and why, backs off, and says them stale once two intervals pass', async () => {
    const { clock, sandbox: sim, sources: s } = await setup({ skus: SKUS.slice(0, 5) });
    await s.readNow('pricedb');
    const before = s.prices('pricedb', SKUS.slice(0, 5));
    sim.pricedb.faults.outage = { until: clock.now() + 24 * 60 * MIN };
    s.start();
    // The interval is 30 minutes: after 65, two reads failed and the prices are still the old ones.
    await clock.sleep(65 * MIN);
    const view = s.list()[0];
    expect(view?.state).toBe('stale');
    expect(view?.problem).toBe('pricedb.io is not answering as it should: it answered 503');
    expect(s.prices('pricedb', SKUS.slice(0, 5))).toEqual(before);
    const failed = sim.pricedb.log.requests.filter((r) => r.status === 503).length;
    // A read at 30 min, then backoffs of 1, 2, 4, 8, 16 min: never a request a second.
    expect(failed).toBeGreaterThanOrEqual(2);
    expect(failed).toBeLessThanOrEqual(7);
  });

  it('waits out a 429 storm for what its Retry-After asks, capped, and is read again after it', async () => {
    const { clock, sandbox: sim, sources: s } = await setup({ skus: SKUS.slice(0, 5) });
    sim.pricedb.faults.storm429 = { until: clock.now() + 20 * MIN, retryAfterSec: 4 * 3600 };
    s.start();
    await clock.sleep(2 * MIN);
    expect(sim.pricedb.log.requests.map((r) => r.status)).toEqual([429]);
    expect(s.list()[0]).toMatchObject({ state: 'failing', problem: 'pricedb.io asked the desk to slow down (429)' });
    // Retry-After asked four hours: the desk waits 15 minutes at most, and a read asked by hand waits too.
    const next = (s.list()[0]?.nextReadAt ?? 0) - clock.now();
    expect(next).toBeGreaterThan(MAX_RETRY_AFTER_MS - 3 * MIN);
    expect(next).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS);
    await clock.sleep(MAX_RETRY_AFTER_MS + 2 * MIN);
    expect(sim.pricedb.log.requests.map((r) => r.status)).toEqual([429, 429]);
    await clock.sleep(MAX_RETRY_AFTER_MS);
    expect(sim.pricedb.log.requests.map((r) => r.status)).toEqual([429, 429, 200]);
    expect(s.list()[0]).toMatchObject({ state: 'fresh', problem: null });
  });

  it('names the source and the field of a malformed answer, and keeps the last prices', async () => {
    const { sandbox: sim, sources: s } = await setup({ skus: SKUS.slice(0, 5) });
    await s.readNow('pricedb');
    const kept = s.prices('pricedb', SKUS.slice(0, 5));
    sim.pricedb.faults.malformed = { count: 1, kind: 'wrong_type' };
    await s.readNow('pricedb');
    expect(s.list()[0]?.problem).toMatch(/^pricedb\.io: the answer does not fit: 0\.sell\.metal /);
    expect(s.prices('pricedb', SKUS.slice(0, 5))).toEqual(kept);
    sim.pricedb.faults.malformed = { count: 1, kind: 'not_json' };
    await s.readNow('pricedb');
    expect(s.list()[0]?.problem).toBe('pricedb.io: the answer is not JSON');
  });

  it('asks a source turned off nothing, on its schedule or by Read now, keeps the prices it gave, and reads it once turned on', async () => {
    const { clock, sandbox: sim, sources: s } = await setup({ skus: SKUS.slice(0, 5) });
    await s.readNow('pricedb');
    const kept = s.prices('pricedb', SKUS.slice(0, 5));
    const config = s.list()[0]?.config;
    if (config?.kind !== 'pricedb') throw new Error('no pricedb source');
    const asked = () => sim.pricedb.log.requests.length;
    const before = asked();
    expect(s.change('pricedb', { ...config, enabled: false })).toMatchObject({ config: { enabled: false }, nextReadAt: null });
    s.start();
    // Two of its 30-minute intervals, and Read now of every source: not one request.
    await clock.sleep(65 * MIN);
    await s.readNow();
    expect(asked()).toBe(before);
    await expect(s.readNow('pricedb')).rejects.toThrow('pricedb.io is turned off: turn it on to read it');
    expect(asked()).toBe(before);
    expect(s.prices('pricedb', SKUS.slice(0, 5))).toEqual(kept);
    expect(s.list()[0]?.state).toBe('stale');

    s.change('pricedb', { ...config, enabled: true });
    await clock.sleep(2 * MIN);
    expect(asked()).toBeGreaterThan(before);
    expect(s.list()[0]).toMatchObject({ state: 'fresh', config: { enabled: true } });
  });

  it('reads a source stored before it could be turned off as on', async () => {
    const { t } = await setup({ skus: SKUS.slice(0, 5) });
    t.store.db.prepare("UPDATE price_sources SET config = json_remove(config, '$.enabled')").run();
    const again = createPriceSources({ store: t.store, clock: scaledClock(SCALE), wanted: () => [] });
    expect(again.list()[0]?.config.enabled).toBe(true);
  });
});

describe('price sources: the trader\'s own list', () => {
  it('reads a CSV file (names or SKUs, dollars or cents) and an https-shaped URL, again on their schedule, and says the lines it refused', async () => {
    const { clock, sources: s } = await setup({ skus: [] });
    const dir = mkdtempSync(join(tmpdir(), 'desk-list-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'prices.csv');
    writeFileSync(file, 'sku,buy,sell\n200;11,10.00,12.40\n5021;6,,1.80\n201;6,x,1\n');
    let served = 'sku,buy_cents,sell_cents\n200;6,90,110\n';
    const server: Server = createServer((_req, res) => res.end(served));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(() => server.close());
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mine.csv`;
    const fileSource = s.add({ kind: 'list', name: 'My list', url: null, path: file, refreshMinutes: 5, enabled: true });
    const urlSource = s.add({ kind: 'list', name: 'Shared list', url, path: null, refreshMinutes: 5, enabled: true });
    await s.readNow();
    expect(s.prices(fileSource.id, ['200;11', '5021;6'])).toEqual(new Map([
      ['200;11', expect.objectContaining({ buy: 1_000, sell: 1_240, original: 'buy 10.00, sell 12.40' })],
      ['5021;6', expect.objectContaining({ buy: null, sell: 180 })],
    ]));
    expect(s.list().find((v) => v.id === fileSource.id)).toMatchObject({ state: 'fresh', problem: 'My list: 1 line refused, the first: line 4: buy “x” is not an amount' });
    expect(s.prices(urlSource.id, ['200;6']).get('200;6')).toMatchObject({ buy: 90, sell: 110 });
    // Changed at the source: read again within its interval.
    served = 'sku,buy_cents,sell_cents\n200;6,95,120\n';
    s.start();
    await clock.sleep(6 * MIN);
    expect(s.prices(urlSource.id, ['200;6']).get('200;6')).toMatchObject({ buy: 95, sell: 120 });
  });
});
