/**
 * The `pricing` block of `npm run bench`: "Reprice now" over a
 * 50,000-listing profile (`../scale/seed-profile.ts`), each run a fresh
 * process (`pricing-child.ts`: the real main process on the Electron double
 * with the data worker and the probe in its thread), in live mode against
 * the simulator this process runs, whose pricedb source prices every
 * listing. What it measures while the reprice builds its draft: the data
 * worker's event-loop delay and the `ledger:page`s asked meanwhile. Beside
 * the reprice's time, the time its changes take to apply at the service's
 * rate limit (the scheduler's lower bound: edits in batches of 100 at
 * edit_listing's requests per minute). Goals are printed with whether the
 * median meets them; a missed goal does not fail the bench.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAX_ITEMS_PER_REQUEST as MAX_BATCH_ITEMS } from '../../../src-main/core/api/schemas.ts';
import { estimateDurationMs } from '../../../src-main/core/scheduler/estimate.ts';
import { scaledClock } from '../../../src-main/core/clock.ts';
import { buildChild } from '../scale/build-child.ts';
import { PROBE_WORKER, runChild, SCALE_TIME, startScaleService } from '../scale/scale.ts';
import { liveBenchSettings, seedProfile } from '../scale/seed-profile.ts';
import { spread, type Spread } from '../scale/scale-report.ts';
import type { PricingResult, PricingTask } from './pricing-child.ts';

export const PRICING_LISTINGS = 50_000;
export const PRICING_GOALS = { loopDelayMaxMs: 50, pageMaxMs: 100 } as const;

const CHILD = fileURLToPath(new URL('./pricing-child.ts', import.meta.url));
const OUT_DIR = fileURLToPath(new URL('../../../out/bench-pricing/', import.meta.url));
const BUILT_WORKER = fileURLToPath(new URL('../../../out/main/desk-worker.cjs', import.meta.url));

export interface PricingFigures {
  readonly runs: number;
  readonly listings: number;
  readonly changed: number;
  readonly repriceMs: Spread;
  readonly loopDelayMaxMs: Spread & { readonly goal: number; readonly met: boolean };
  readonly pageMaxMs: Spread & { readonly goal: number; readonly met: boolean };
  readonly pages: Spread;
  /** The changes applied at the rate limit: the scheduler's lower bound, simulated ms. */
  readonly applyAtLimitMs: number;
  readonly realSeconds: number;
}

export async function runPricingBench(options: { runs?: number; log?: (line: string) => void } = {}): Promise<PricingFigures> {
  if (!existsSync(BUILT_WORKER)) throw new Error('The pricing bench runs the data worker as built: run `npm run build` first.');
  const runs = options.runs ?? 3;
  const log = options.log ?? (() => undefined);
  const started = performance.now();
  const childScript = await buildChild(CHILD, OUT_DIR);
  const dir = mkdtempSync(join(tmpdir(), 'desk-pricing-'));
  const timeScale = { scale: SCALE_TIME, origin: Date.now() };
  const { service, serviceListings } = await startScaleService(scaledClock(timeScale.scale, timeScale.origin));
  try {
    const seedPath = join(dir, 'seed', 'default.sqlite');
    const seeded = seedProfile(seedPath, {
      account: service.accounts.main,
      settings: liveBenchSettings(service.url),
      serviceListings, listings: PRICING_LISTINGS, draftChanges: 0, applyDraft: false,
    });
    log(`  seeded a ${PRICING_LISTINGS.toLocaleString('en')}-listing profile in ${(seeded.seedMs / 1000).toFixed(1)} s`);
    const results: PricingResult[] = [];
    for (let run = 1; run <= runs; run++) {
      const runDir = join(dir, `run-${run}`);
      const userData = join(runDir, 'user-data');
      mkdirSync(join(userData, 'profiles'), { recursive: true });
      copyFileSync(seedPath, join(userData, 'profiles', 'default.sqlite'));
      const task: PricingTask = {
        probeWorker: PROBE_WORKER, root: runDir, userData, apiKey: service.apiKey, pricedbUrl: service.pricedb.url, timeScale, resultPath: join(runDir, 'result.json'),
      };
      writeFileSync(join(runDir, 'task.json'), JSON.stringify(task));
      await runChild(childScript, join(runDir, 'task.json'));
      const result = JSON.parse(readFileSync(task.resultPath, 'utf8')) as PricingResult;
      results.push(result);
      log(`  run ${run}/${runs}: reprice of ${result.listings.toLocaleString('en')} listings in ${result.job.ms} ms (${result.changed.toLocaleString('en')} changes), `
        + `worker loop max ${result.job.loopDelayMaxMs} ms, slowest of ${result.job.pages} pages ${result.job.pageMaxMs} ms`);
      rmSync(runDir, { recursive: true, force: true });
    }
    const changed = results[0]?.changed ?? 0;
    const loop = spread(results.map((r) => r.job.loopDelayMaxMs));
    const page = spread(results.map((r) => r.job.pageMaxMs));
    return {
      runs,
      listings: results[0]?.listings ?? 0,
      changed,
      repriceMs: spread(results.map((r) => r.job.ms)),
      loopDelayMaxMs: { ...loop, goal: PRICING_GOALS.loopDelayMaxMs, met: (loop.median ?? Infinity) <= PRICING_GOALS.loopDelayMaxMs },
      pageMaxMs: { ...page, goal: PRICING_GOALS.pageMaxMs, met: (page.median ?? Infinity) <= PRICING_GOALS.pageMaxMs },
      pages: spread(results.map((r) => r.job.pages)),
      applyAtLimitMs: estimateDurationMs({ edit_listing: Math.ceil(changed / MAX_BATCH_ITEMS) }),
      realSeconds: (performance.now() - started) / 1000,
    };
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const range = (s: Spread, unit: string) => `${s.median ?? '–'} ${unit} (${s.min ?? '–'}–${s.max ?? '–'})`;
const minutes = (ms: number) => `${(ms / 60_000).toFixed(0)} min`;

export function formatPricing(f: PricingFigures): string {
  const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
  return [
    `pricing: "Reprice now" over ${f.listings.toLocaleString('en')} listings, ${f.changed.toLocaleString('en')} changes into a draft; median of ${f.runs} fresh processes (range):`,
    `  reprice builds its draft       ${range(f.repriceMs, 'ms')}   beside applying it at the rate limit: ${minutes(f.applyAtLimitMs)} (${Math.ceil(f.changed / MAX_BATCH_ITEMS)} edit requests of ≤${MAX_BATCH_ITEMS})`,
    `  worker event-loop delay max    ${range(f.loopDelayMaxMs, 'ms')}   goal ≤ ${f.loopDelayMaxMs.goal} ms: ${met(f.loopDelayMaxMs.met)}`,
    `  ledger:page asked meanwhile    ${range(f.pageMaxMs, 'ms')} slowest of ${f.pages.median ?? '–'}   goal ≤ ${f.pageMaxMs.goal} ms: ${met(f.pageMaxMs.met)}`,
    `  (${f.realSeconds.toFixed(0)} s of real time)`,
  ].join('\n');
}
