/**
 * The `scale` block of `npm run bench`: how the app starts, weighs and keeps
 * its heartbeat and screens answering at 50,000 and 500,000 listings, beside
 * an empty profile in the same run. Each run is a fresh process
 * (`child.ts`: the real main process on the Electron double, with the data
 * worker), on a fresh copy of a profile seeded once (`seed-profile.ts`), in
 * live mode against the simulator this process runs; runs alternate between
 * the profiles, and each figure is the median of the runs. Goals are printed
 * beside the figures with whether they are met; a missed goal does not fail
 * the bench.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scaledClock, type Clock } from '../../../src-main/core/clock.ts';
import type { ListingInput } from '../../../src-main/core/store/listings-repo.ts';
import { startSandbox, type RecordedRequest, type Sandbox } from '../../../src-main/sandbox/index.ts';
import type { ChildResult, ChildTask } from './child.ts';
import { summarize, type ProfileName, type ScaleFigures } from './scale-report.ts';
import { liveBenchSettings, seedProfile, type SeededProfile } from './seed-profile.ts';
import { buildChild } from './build-child.ts';
import { copyFileSynced } from '../../../src-main/core/whole-file.ts';

/**
 * Time runs this much faster for the desk and the simulator alike: the
 * heartbeat then beats every 5 s of real time (so each job can be timed to
 * hold a planned beat) and a 5,000-change apply takes about 10 s, while the
 * client's 30-s interactive deadline is still half a second of real time.
 */
export const SCALE_TIME = 60;
/** Listings that exist on the simulator: the 5,000 the apply edits, the first rows of each non-empty ledger. */
const SERVICE_LISTINGS = 5_000;

const PROFILES: Record<ProfileName, { listings: number; draftChanges: number; jobs: boolean }> = {
  empty: { listings: 0, draftChanges: 0, jobs: false },
  '50k': { listings: 50_000, draftChanges: 47_000, jobs: true },
  '500k': { listings: 500_000, draftChanges: 470_000, jobs: false },
};

const WRITE_ENDPOINTS = new Set(['create_listing', 'edit_listing', 'delete_listing', 'create_buy_order', 'edit_buy_order', 'delete_buy_order']);
const BUILT_WORKER = fileURLToPath(new URL('../../../out/main/desk-worker.cjs', import.meta.url));
export const PROBE_WORKER = fileURLToPath(new URL('./probe-worker.cjs', import.meta.url));

export interface ScaleOptions {
  /** Fresh processes per profile; default 5. */
  readonly runs?: number;
  /** Only these profiles, and only these jobs (to look into one; default all). */
  readonly profiles?: readonly ProfileName[];
  readonly jobs?: readonly string[];
  readonly log?: (line: string) => void;
}

export async function runScaleBench(options: ScaleOptions = {}): Promise<ScaleFigures> {
  if (!existsSync(BUILT_WORKER)) throw new Error('The scale bench runs the data worker as built: run `npm run build` first.');
  const runs = options.runs ?? 5;
  const log = options.log ?? (() => undefined);
  const started = performance.now();
  const childScript = await buildChild();
  const dir = mkdtempSync(join(tmpdir(), 'desk-scale-'));
  const timeScale = { scale: SCALE_TIME, origin: Date.now() };
  const clock = scaledClock(timeScale.scale, timeScale.origin);
  const { service, serviceListings } = await startScaleService(clock);
  try {
    const seeded = new Map<ProfileName, SeededProfile>();
    const names = options.profiles ?? (Object.keys(PROFILES) as ProfileName[]);
    for (const name of names) {
      const plan = PROFILES[name];
      const profile = seedProfile(join(dir, 'seed', name, 'default.sqlite'), {
        account: service.accounts.main,
        settings: liveBenchSettings(service.url),
        serviceListings: plan.listings > 0 ? serviceListings : [],
        listings: plan.listings,
        draftChanges: plan.draftChanges,
        applyDraft: plan.jobs,
      });
      seeded.set(name, profile);
      log(`  seeded the ${name} profile (${plan.listings.toLocaleString('en')} listings, ${plan.draftChanges.toLocaleString('en')}-change draft) in ${(profile.seedMs / 1000).toFixed(1)} s`);
    }

    const results: { profile: ProfileName; result: ChildResult; applyToFirstRequestMs: number | null }[] = [];
    // Each job starts so that a beat falls in its middle, by its time in the run before (the first run: at its start).
    let leadsMs: Record<string, number> = {};
    for (let run = 1; run <= runs; run++) {
      for (const name of names) {
        const plan = PROFILES[name];
        const profile = seeded.get(name);
        if (!profile) throw new Error(`no ${name} profile`);
        const runDir = join(dir, `run-${run}-${name}`);
        const userData = join(runDir, 'user-data');
        mkdirSync(join(userData, 'profiles'), { recursive: true });
        // Flushed to the disk, as a desk's close leaves its file: a copy left in the page cache is written out by the
        // first fsync anyone makes on the file system, and the desk's first commit at start paid 35–60 ms for it.
        copyFileSynced(join(dir, 'seed', name, 'default.sqlite'), join(userData, 'profiles', 'default.sqlite'));
        const task: ChildTask = {
          probeWorker: PROBE_WORKER, root: runDir, userData, apiKey: service.apiKey, timeScale,
          listings: plan.listings, draftChanges: plan.draftChanges, bigDraft: profile.bigDraft, applyDraft: profile.applyDraft,
          jobs: plan.jobs, ...(options.jobs ? { only: options.jobs } : {}), leadsMs, resultPath: join(runDir, 'result.json'),
        };
        const taskPath = join(runDir, 'task.json');
        writeFileSync(taskPath, JSON.stringify(task));
        const before = performance.now();
        const logged = service.log.requests.length;
        await runChild(childScript, taskPath);
        const result = JSON.parse(readFileSync(task.resultPath, 'utf8')) as ChildResult;
        const requests = service.log.requests.slice(logged);
        const applyToFirstRequestMs = firstWriteAfter(requests, result.applyAskedAt, timeScale);
        results.push({ profile: name, result: withBeatsSeen(result, requests, timeScale), applyToFirstRequestMs });
        if (result.jobs.length > 0) leadsMs = Object.fromEntries(result.jobs.map((j) => [j.job, j.ms / 2]));
        log(`  run ${run}/${runs}, ${name}: first page ${result.bootToFirstPageMs} ms, RSS ${result.rssMb} MB` +
          (result.applyItemsDone === null ? '' : `, apply ${result.applyItemsDone} of 5,000 done`) +
          (plan.jobs ? `, jobs ${result.jobs.map((j) => `${j.job} ${j.ms} ms`).join(', ')}` : '') +
          ` (${((performance.now() - before) / 1000).toFixed(0)} s)`);
        rmSync(runDir, { recursive: true, force: true });
      }
    }
    return summarize(results, runs, (performance.now() - started) / 1000);
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The simulator the runs talk to, with the listings that exist on it (a profile's ledger starts with them). */
export async function startScaleService(clock: Clock): Promise<{ service: Sandbox; serviceListings: ListingInput[] }> {
  const service = await startSandbox({ clock, seed: 31, inventorySize: SERVICE_LISTINGS + 1_000, tradeSchedule: false });
  service.admin.setBalance(1_000_000_000);
  const serviceListings = service.admin.seedListings(SERVICE_LISTINGS).map((l) => ({
    asset_id: l.asset_id, listing_id: l.listing_id, sku: l.sku, price: l.price, promoted: l.promoted, game: l.game, user_note: '', account: service.accounts.main,
  }));
  return { service, serviceListings };
}

type TimeScale = { scale: number; origin: number };
const toReal = (at: number, t: TimeScale) => t.origin + (at - t.origin) / t.scale;

/** Real ms from Apply to the first write request the simulator received after it. */
function firstWriteAfter(requests: readonly RecordedRequest[], askedAt: number | null, t: TimeScale): number | null {
  if (askedAt === null) return null;
  const first = requests.find((r) => r.endpoint !== null && WRITE_ENDPOINTS.has(r.endpoint) && toReal(r.at, t) >= askedAt);
  return first ? Math.round((toReal(first.at, t) - askedAt) * 10) / 10 : null;
}

/**
 * Each job's heartbeat lateness, with the beat due at its start as the
 * simulator received it: sent or not, answered in time or not (time runs 60
 * times faster, so a worker held past half a second can fail a beat in flight
 * that real time would let through), its request shows when the beat went.
 */
/** How much earlier than its plan a beat may be stamped by the simulator and still be that beat (real ms). */
const PLAN_TOLERANCE_REAL_MS = 50;

function withBeatsSeen(result: ChildResult, requests: readonly RecordedRequest[], t: TimeScale): ChildResult {
  const beats = requests.filter((r) => r.endpoint === 'set_user_agent');
  const jobs = result.jobs.map((job) => {
    const plannedAt = job.alignedBeatAt;
    // The simulator stamps a request in its own clock, where one real millisecond is `scale` of them: a beat sent on the
    // dot can be stamped a little before its plan, and the next beat (an interval later) must not be taken for it.
    const arrived = plannedAt === null ? undefined : beats.find((r) => r.at >= plannedAt - PLAN_TOLERANCE_REAL_MS * t.scale);
    const seenLate = arrived && plannedAt !== null ? Math.round(((arrived.at - plannedAt) / t.scale) * 10) / 10 : null;
    const late = [job.heartbeatLateMs, seenLate].filter((v): v is number => v !== null);
    return { ...job, heartbeatLateMs: late.length > 0 ? Math.max(...late) : null };
  });
  return { ...result, jobs };
}

export function runChild(script: string, taskPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, taskPath], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20 * 60_000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`a bench run's child ended with ${signal ?? `exit code ${code}`}:\n${output.slice(-4_000)}`));
    });
  });
}
