/**
 * One fresh process of the pricing bench: the real main process on the
 * Electron double with the data worker (and the scale bench's probe in its
 * thread, `../scale/probe-worker.cjs`), in live mode against the simulator
 * the parent runs, on a 50,000-listing profile. It points the pricedb
 * source at the simulator's, reads it, adds a rule over every listing and
 * times "Reprice now" through the bridge while `ledger:page` is asked
 * meanwhile (`../scale/jobs.ts`): the worker's event-loop delay, the pages'
 * answers. Writes its figures as JSON to the path it is given.
 *
 * Built by `../scale/build-child.ts` and started by `pricing-bench.ts` as
 * `node child.mjs <task.json>`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { scaledClock } from '../../../src-main/core/clock.ts';
import { startMainProcess } from '../../../src-main/main-thread/desktop/main-process.ts';
import type { PricingState, RepriceRunView } from '../../../src-shared/contract.ts';
import { fakeBuild, invoke } from '../../desktop/boot-support.ts';
import { app, resetFakeElectron, Tray } from '../../desktop/fake-electron.ts';
import { memoryKeychain } from '../../support/memory-keychain.ts';
import { measureJob, waitUntil, type JobFigures } from '../scale/jobs.ts';
import { probeClient } from '../scale/probe.ts';

export interface PricingTask {
  readonly probeWorker: string;
  readonly root: string;
  readonly userData: string;
  readonly apiKey: string;
  readonly pricedbUrl: string;
  readonly timeScale: { readonly scale: number; readonly origin: number };
  readonly resultPath: string;
}

export interface PricingResult {
  readonly listings: number;
  readonly job: JobFigures;
  /** The reprice as the desk tells it: its changes (each a listing edit in the draft) and held rows. */
  readonly changed: number;
  readonly held: number;
}

const taskPath = process.argv[2];
if (!taskPath) throw new Error('usage: pricing-child.ts <task.json>');
const task = JSON.parse(readFileSync(taskPath, 'utf8')) as PricingTask;

resetFakeElectron();
app.setPath('userData', task.userData);
const secrets = memoryKeychain();
await secrets.set('api-key:default', task.apiKey);
const probe = probeClient();
const running = await startMainProcess({
  secrets,
  timeScale: task.timeScale,
  workerScript: task.probeWorker,
  workerExecArgv: [],
  compileCache: join(dirname(task.root), 'compile-cache'),
  mainDir: await fakeBuild(task.root),
  argv: ['/opt/marketplace-desk/marketplace-desk'],
  log: { level: 'info' },
}).started;
if (!running) throw new Error('the main process gave way to another instance');
const first = await invoke<{ total: number }>('ledger:page', { domain: 'listings', filter: {}, offset: 0, limit: 100 });

// The pricedb source, at the simulator's, read whole.
await invoke('pricing:changeSource', {
  id: 'pricedb', config: { kind: 'pricedb', name: 'pricedb.io', url: task.pricedbUrl, refreshMinutes: 24 * 60, enabled: true, keyCents: 180, refinedPerKey: null },
});
await invoke('pricing:readNow', { id: 'pricedb' });
const fresh = async () => (await invoke<PricingState>('pricing:state')).sources.some((s) => s.id === 'pricedb' && s.state === 'fresh' && s.prices > 0);
if (!(await waitUntil(fresh, 60_000))) throw new Error('the simulated pricedb source was not read within a minute');
// Every listing: the source's sell less 3 %, to x.99.
await invoke('pricing:addRule', {
  rule: {
    name: 'Everything', enabled: true, scope: { by: 'filter', label: 'Unique', filter: { qualities: [6] } },
    intent: 'sell', source: 'pricedb', sides: { listings: 'sell', buyOrders: 'buy' }, offset: { percent: -3, cents: 0 },
    rounding: { mode: 'nearest', step: { size: 100, offset: 99 } }, minCents: null, maxCents: null, floor: null, maxAgeHours: 48, maxHeld: null,
  },
});
// After the start's own beats, as the scale bench's jobs are.
await new Promise((resolve) => setTimeout(resolve, (2 * 60_000) / task.timeScale.scale));
let run: RepriceRunView | null = null;
const ctx = { invoke, probe, clock: scaledClock(task.timeScale.scale, task.timeScale.origin), scale: task.timeScale.scale };
const job = await measureJob(ctx, 'reprice', async () => void (run = await invoke<RepriceRunView>('pricing:repriceNow')));
const built = run as RepriceRunView | null;
if (job.error !== undefined || built === null) throw new Error(`the reprice failed: ${job.error ?? 'no run'}`);
const result: PricingResult = { listings: first.total, job, changed: built.changed, held: built.held };
writeFileSync(task.resultPath, JSON.stringify(result));
// Quit as the trader does: the store is closed and checkpointed, the worker ends.
Tray.instances[0]?.clickItem('quit');
await waitUntil(async () => app.exitCode !== null, 60_000);
process.exit(0);
