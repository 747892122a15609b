/**
 * One fresh process of the scale bench: the real main process
 * (src-main/main-thread/desktop/main-process.ts) booted on the Electron double with the data
 * worker (with the bench's probe in its thread, `probe-worker.cjs`), in live
 * mode against the simulator the parent runs. It measures boot → the first
 * Listings page answered through ipcMain (the draft laid over it), the
 * process's RSS after that and a GC, and with `jobs`, each of the desk's
 * heavy jobs through the bridge (`jobs.ts`). Writes its figures as JSON to
 * the path it is given.
 *
 * Built by `build-child.ts` (with `electron` mapped to the Electron double)
 * and started by `scale.ts` as `node child.mjs <task.json>`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { scaledClock } from '../../../src-main/core/clock.ts';
import { startMainProcess } from '../../../src-main/main-thread/desktop/main-process.ts';
import type { ChannelOutput } from '../../../src-shared/contract.ts';
import { fakeBuild, invoke } from '../../desktop/boot-support.ts';
import { app, resetFakeElectron, Tray } from '../../desktop/fake-electron.ts';
import { memoryKeychain } from '../../support/memory-keychain.ts';
import { importCsvInParts } from '../../support/router-call.ts';
import { pageOffsets, PAGE_ROWS } from '../page-samples.ts';
import { measureJob, waitUntil, type JobContext, type JobFigures } from './jobs.ts';
import { probeClient } from './probe.ts';

export interface ChildTask {
  /** The data worker with the bench's probe (probe-worker.cjs), which loads the built worker. */
  readonly probeWorker: string;
  readonly root: string;
  readonly userData: string;
  readonly apiKey: string;
  readonly timeScale: { readonly scale: number; readonly origin: number };
  readonly listings: number;
  readonly draftChanges: number;
  readonly bigDraft: string | null;
  readonly applyDraft: string | null;
  /** Run the jobs after the first page. */
  readonly jobs: boolean;
  /** Listings pages to time one at a time through ipcMain after the RSS is read (page-samples.ts; none when absent). */
  readonly pageSamples?: number;
  /** Only these jobs (all when absent). */
  readonly only?: readonly string[];
  /**
   * How long before a planned heartbeat each job starts (default: just
   * before): half the job's time in the run before, so the beat falls inside
   * whatever part of the job holds the worker.
   */
  readonly leadsMs?: Readonly<Record<string, number>>;
  readonly resultPath: string;
}

export interface ChildResult {
  readonly listings: number;
  readonly draftChanges: number;
  /** startMainProcess called → the first Listings page answered through ipcMain. */
  readonly bootToFirstPageMs: number;
  /** startMainProcess called → the app up (the desk open in its worker). */
  readonly bootToReadyMs: number;
  readonly pageTotal: number;
  readonly pageChanged: number;
  /** The whole process (main thread and data worker), after the first page and a GC of both. */
  readonly rssMb: number;
  /** The same before the data worker's GC (the main thread's alone). */
  readonly rssMainGcMb: number;
  readonly workerHeapMb: number;
  /** Each sampled `ledger:page` through ipcMain, in ms. */
  readonly pageMs: readonly number[];
  readonly jobs: readonly JobFigures[];
  /** Date.now() when Apply was asked (the parent finds the first write request after it). */
  readonly applyAskedAt: number | null;
  readonly applyItemsDone: number | null;
  /** Store states the desk went through after it was up (a restart shows as 'restarting'). */
  readonly storeStates: readonly string[];
}

const taskPath = process.argv[2];
if (!taskPath) throw new Error('usage: child.ts <task.json>');
const task = JSON.parse(readFileSync(taskPath, 'utf8')) as ChildTask;
const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

resetFakeElectron();
app.setPath('userData', task.userData);
const mainDir = await fakeBuild(task.root);
const secrets = memoryKeychain();
await secrets.set('api-key:default', task.apiKey);
const probe = probeClient();

const t0 = performance.now();
const running = await startMainProcess({
  secrets,
  timeScale: task.timeScale,
  workerScript: task.probeWorker,
  // The worker runs as in the app, with no Node flags of its own.
  workerExecArgv: [],
  // Kept beside the runs, as an installed app keeps it between starts (its first run compiles and fills it).
  compileCache: join(dirname(task.root), 'compile-cache'),
  mainDir,
  argv: ['/opt/marketplace-desk/marketplace-desk'],
  log: { level: 'info' },
}).started;
if (!running) throw new Error('the main process gave way to another instance');
const bootToReadyMs = performance.now() - t0;
const storeStates: string[] = [];
running.desk.on('store', (state) => storeStates.push(state));
const page = await invoke<{ total: number; changed: number; draftId: string | null }>('ledger:page', { domain: 'listings', filter: {}, offset: 0, limit: 100 });
const bootToFirstPageMs = performance.now() - t0;
if (page.total !== task.listings || page.changed !== task.draftChanges) {
  throw new Error(`the first page is not the profile's: ${page.total} rows, ${page.changed} changed (expected ${task.listings}, ${task.draftChanges})`);
}

const gc = exposedGc();
gc();
gc();
await new Promise((resolve) => setTimeout(resolve, 200));
// What the serve bench can read of the server (its probe collects the main thread's garbage, not the worker's).
const rssMainGcMb = mb(process.memoryUsage().rss);
const worker = await probe.gc();
await new Promise((resolve) => setTimeout(resolve, 200));
const rssMb = mb(process.memoryUsage().rss);

const pageMs: number[] = [];
for (const offset of pageOffsets(task.listings, task.pageSamples ?? 0)) {
  const before = performance.now();
  await invoke('ledger:page', { domain: 'listings', filter: {}, offset, limit: PAGE_ROWS });
  pageMs.push(Math.round((performance.now() - before) * 10) / 10);
}

const jobs: JobFigures[] = [];
let applyAskedAt: number | null = null;
let applyItemsDone: number | null = null;
if (task.jobs) {
  const ctx: JobContext = { invoke, probe, clock: scaledClock(task.timeScale.scale, task.timeScale.origin), scale: task.timeScale.scale };
  // The jobs come after the start's own beats (one, then one more once the linked accounts are read): the heartbeat's
  // one-a-minute slot is a second of real time here, and a beat planned inside it waits for the slot, not for a job.
  await new Promise((resolve) => setTimeout(resolve, (2 * 60_000) / task.timeScale.scale));
  const measured = async (job: string, work: () => Promise<void>) => {
    if (!task.only || task.only.includes(job)) jobs.push(await measureJob(ctx, job, work, task.leadsMs?.[job]));
  };
  const big = task.bigDraft;
  const applyDraft = task.applyDraft;
  if (!big || !applyDraft) throw new Error('the jobs need the profile’s two drafts');
  await measured('review', async () => void (await invoke('drafts:review', { draftId: big })));
  await measured('csvExport', async () => void (await invoke('drafts:exportCsv', { draftId: big })));
  await measured('ledgerExport', async () => void (await invoke('ledger:exportCsv', { domain: 'listings', filter: null })));
  await measured('ledgerCheck', async () => void (await invoke('ledger:check', {})));
  // The CSV jobs go into a draft of their own, so the big draft stays as it was for the bulk edit below.
  await invoke('drafts:create', { name: 'CSV import' });
  // Each file is sent as the renderer sends a chosen one: a part at a time, each after the answer to the one before.
  const importCsv = (text: string) => importCsvInParts((part) => invoke<ChannelOutput<'drafts:importCsvPart'>>('drafts:importCsvPart', part), 'draft', text);
  let csv = draftCsv(1_000_000);
  await measured('csvPreview1M', async () => void (await importCsv(csv)));
  csv = draftCsv(200_000);
  let token = '';
  await measured('csvPreview200k', async () => void ({ token } = await importCsv(csv)));
  csv = '';
  await measured('csvCommit200k', async () => void (await invoke('drafts:importCommit', { token })));
  const scratch = await invoke<{ id: string }>('drafts:create', { name: 'Scratch' });
  await invoke('drafts:select', { draftId: big });
  // A bulk edit over every listing answers once journaled and writes its parts after: the job lasts until they are
  // written, which a change to any draft waits for (discarding an empty one, which is otherwise instant).
  await measured('bulkEdit', async () => {
    await invoke('ledger:preview', { domain: 'listings', selection: { filter: {} }, op: { op: 'multiply', percent: 99, rounding: 'nearest' } });
    await invoke('ledger:bulk', { domain: 'listings', selection: { filter: {} }, op: { op: 'multiply', percent: 99, rounding: 'nearest' } });
    await invoke('drafts:discard', { draftId: scratch.id });
  });
  // As the Drafts screen has it when Apply is clicked: the draft shown and its review read.
  await invoke('drafts:select', { draftId: applyDraft });
  await invoke('drafts:review', { draftId: applyDraft });
  await measured('apply5000', async () => {
    applyAskedAt = Date.now();
    await invoke('drafts:apply', { draftId: applyDraft });
    const state = async () => (await invoke<{ job: { state: string; itemsDone: number } | null }>('apply:state')).job;
    if (!(await waitUntil(async () => ['done', 'stopped', 'cancelled'].includes((await state())?.state ?? ''), 10 * 60_000))) throw new Error('the apply did not end within 10 minutes');
    applyItemsDone = (await state())?.itemsDone ?? null;
  });
}

const result: ChildResult = {
  listings: task.listings,
  draftChanges: task.draftChanges,
  bootToFirstPageMs: Math.round(bootToFirstPageMs),
  bootToReadyMs: Math.round(bootToReadyMs),
  pageTotal: page.total,
  pageChanged: page.changed,
  rssMb,
  rssMainGcMb,
  workerHeapMb: Math.round(worker.heapUsedMb * 10) / 10,
  pageMs,
  jobs,
  applyAskedAt,
  applyItemsDone,
  storeStates,
};
writeFileSync(task.resultPath, JSON.stringify(result));

// Quit as the trader does: the store is closed and checkpointed, the worker ends.
const tray = Tray.instances[0];
tray?.clickItem('quit');
await waitUntil(async () => app.exitCode !== null, 60_000);
process.exit(0);

/**
 * gc(), exposed only now: a process started with --expose-gc boots its worker
 * threads without V8's startup snapshot, which made the data worker's start
 * ~25 ms slower than the app's.
 */
function exposedGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** A draft CSV of buy-order creates, one SKU per row (as the main-loop bench's). */
function draftCsv(rows: number): string {
  const lines = ['kind,sku,price_cents,quantity'];
  for (let i = 0; i < rows; i++) lines.push(`buyOrder.create,${100_000 + i};6,${100 + (i % 900)},1`);
  return `${lines.join('\n')}\n`;
}
