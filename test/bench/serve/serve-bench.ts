/**
 * The `serve` block of `npm run bench`: the server shell (`out/main/serve.cjs`,
 * plain Node) at 50,000 listings, with the desktop path (the scale bench's
 * child: the real main process on the Electron double) as the baseline in
 * the same run, on copies of one seeded profile, in live mode against the
 * simulator this process runs. Each shell is measured from a child process
 * (serve-child.ts, scale/child.ts), never from the simulator's. Each run is a fresh process of each shell,
 * alternating; each figure is the median of the runs. Goals are printed
 * beside the figures; a missed goal does not fail the bench.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { scaledClock } from '../../../src-main/core/clock.ts';
import { SERVE_ENTRY } from '../../e2e/server/serve-process.ts';
import { percentile } from '../page-samples.ts';
import { copyFileSynced } from '../../../src-main/core/whole-file.ts';
import { buildChild } from '../scale/build-child.ts';
import type { ChildResult, ChildTask } from '../scale/child.ts';
import { spread } from '../scale/scale-report.ts';
import { PROBE_WORKER, runChild, SCALE_TIME, startScaleService } from '../scale/scale.ts';
import { liveBenchSettings, seedProfile } from '../scale/seed-profile.ts';
import { credentialsFor, prepareAccess, profileFolder } from './serve-access.ts';
import { summarizeServe, type ServeFigures } from './serve-report.ts';
import type { ServeRunFigures } from './serve-run.ts';

const LISTINGS = 50_000;
/** Each serve run's sockets measure from a process of their own, as the desktop path's child does. */
const SERVE_CHILD = fileURLToPath(new URL('./serve-child.ts', import.meta.url));
const DRAFT_CHANGES = 47_000;

export interface ServeBenchOptions {
  /** Fresh processes of each shell; default 3. */
  readonly runs?: number;
  /** Browser sessions connected at once; default 20. */
  readonly sessions?: number;
  /** Price edits in a draft while they are connected (each one a `drafts:changed` event); default 200. */
  readonly edits?: number;
  /** `ledger:page` calls timed one at a time; default 200. */
  readonly pageSamples?: number;
  readonly log?: (line: string) => void;
}

export async function runServeBench(options: ServeBenchOptions = {}): Promise<ServeFigures> {
  if (!existsSync(SERVE_ENTRY)) throw new Error('The serve bench runs the server as built: run `npm run build` first.');
  const runs = options.runs ?? 3;
  const sessions = options.sessions ?? 20;
  const edits = options.edits ?? 200;
  const pageSamples = options.pageSamples ?? 200;
  const log = options.log ?? (() => undefined);
  const started = performance.now();
  const childScript = await buildChild();
  const dir = mkdtempSync(join(tmpdir(), 'desk-serve-bench-'));
  const timeScale = { scale: SCALE_TIME, origin: Date.now() };
  const { service, serviceListings } = await startScaleService(scaledClock(timeScale.scale, timeScale.origin));
  try {
    const seedPath = join(dir, 'seed', 'default.sqlite');
    const seeded = seedProfile(seedPath, {
      account: service.accounts.main,
      settings: liveBenchSettings(service.url),
      serviceListings, listings: LISTINGS, draftChanges: DRAFT_CHANGES, applyDraft: false,
    });
    log(`  seeded the 50k profile in ${(seeded.seedMs / 1000).toFixed(1)} s`);
    const credentialsDir = credentialsFor(dir, service.apiKey);
    // Each run starts on a copy of the access files this start left (and of its compiled code, as the desktop runs keep theirs).
    const prepared = profileFolder(join(dir, 'prepared'), seedPath);
    const token = await prepareAccess(prepared, credentialsDir, timeScale);

    const desktop: ChildResult[] = [];
    const served: ServeRunFigures[] = [];
    for (let run = 1; run <= runs; run++) {
      const runDir = join(dir, `desktop-${run}`);
      const userData = join(runDir, 'user-data');
      mkdirSync(join(userData, 'profiles'), { recursive: true });
      copyFileSynced(seedPath, join(userData, 'profiles', 'default.sqlite'));
      const task: ChildTask = {
        probeWorker: PROBE_WORKER, root: runDir, userData, apiKey: service.apiKey, timeScale,
        listings: LISTINGS, draftChanges: DRAFT_CHANGES, bigDraft: seeded.bigDraft, applyDraft: null,
        jobs: false, pageSamples, resultPath: join(runDir, 'result.json'),
      };
      writeFileSync(join(runDir, 'task.json'), JSON.stringify(task));
      await runChild(childScript, join(runDir, 'task.json'));
      const result = JSON.parse(readFileSync(task.resultPath, 'utf8')) as ChildResult;
      desktop.push(result);
      rmSync(runDir, { recursive: true, force: true });

      const profileDir = join(dir, `serve-${run}`);
      mkdirSync(join(profileDir, 'profiles'), { recursive: true, mode: 0o700 });
      cpSync(join(prepared, 'server'), join(profileDir, 'server'), { recursive: true });
      if (existsSync(join(prepared, 'compile-cache'))) cpSync(join(prepared, 'compile-cache'), join(profileDir, 'compile-cache'), { recursive: true });
      copyFileSynced(seedPath, join(profileDir, 'profiles', 'default.sqlite'));
      const serveTask = { profileDir, credentialsDir, token, clock: timeScale, listings: LISTINGS, pageSamples, sessions, edits, resultPath: join(dir, `serve-${run}.json`) };
      writeFileSync(join(dir, `serve-${run}-task.json`), JSON.stringify(serveTask));
      await runChild(SERVE_CHILD, join(dir, `serve-${run}-task.json`));
      const figures = JSON.parse(readFileSync(serveTask.resultPath, 'utf8')) as ServeRunFigures;
      served.push(figures);
      rmSync(profileDir, { recursive: true, force: true });
      log(`  run ${run}/${runs}: desktop first page ${result.bootToFirstPageMs} ms, RSS ${result.rssMainGcMb} MB (${result.rssMb} MB after the worker's GC too), page p95 ${percentile(result.pageMs, 95)} ms; ` +
        `serve (${figures.launchedWith}) listening ${figures.startToListeningMs} ms, first page ${figures.startToFirstPageMs} ms, RSS ${figures.rssMb} MB (${figures.rssBeforeSignInMb} MB before a sign-in, ${figures.rssAfterPagesMb} MB after the pages), ` +
        `page p95 ${percentile(figures.pageMs, 95)} ms, ${sessions} sessions: events ${Math.min(...figures.eventsPerSession)}–${Math.max(...figures.eventsPerSession)} of ${figures.eventsSent}, loop p99 ${figures.loopP99Ms} ms`);
    }
    return summarizeServe({
      runs, sessions, edits, pageSamples, listings: LISTINGS, realSeconds: (performance.now() - started) / 1000,
      desktop: {
        bootToFirstPageMs: spread(desktop.map((r) => r.bootToFirstPageMs)),
        rssMb: spread(desktop.map((r) => r.rssMb)),
        rssMainGcMb: spread(desktop.map((r) => r.rssMainGcMb)),
        pageP95Ms: spread(desktop.map((r) => percentile(r.pageMs, 95))),
      },
      served,
    });
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
