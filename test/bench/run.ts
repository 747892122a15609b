/**
 * `npm run bench [-- --json] [-- --time-scale S] [-- --naive-minutes M] [-- --scenarios edits,mixed,clock-step]
 *   [-- --scale] [-- --scale-runs N] [-- --scale-profiles empty,50k,500k] [-- --scale-jobs review,csvExport,ledgerExport,…]
 *   [-- --serve] [-- --serve-runs N] [-- --serve-week] [-- --serve-week-scale S] [-- --pricing] [-- --pricing-runs N]`
 *
 * Runs the real client, scheduler, heartbeat and trade watcher against the
 * sandbox over HTTP on 127.0.0.1, with time scaled down by S (a simulated
 * minute lasts 60/S seconds), and prints for each scenario the time taken,
 * the lower bound the limits allow (estimateDurationMs), their ratio, the
 * 429s the sandbox sent and the heartbeat's lateness, beside a naive baseline
 * run for a bounded slice of simulated time and extrapolated (`clock-step`
 * steps the desk's wall clock 2 h back and forth during its apply, and adds
 * the lapses of the automated mark the sandbox saw). `--scenarios` runs the
 * named scenarios alone. Then the main
 * thread's event loop while the desk works, one load of 10,000 and 20,000
 * pending trades as the app makes it (history-record.ts: the data worker's
 * event loop meanwhile), and the `scale` block (start,
 * memory and responsiveness at 50,000 and 500,000 listings, each run a fresh
 * process: scale/scale.ts). `--scale` runs the scale block alone;
 * `--scale-runs`, `--scale-profiles` and `--scale-jobs` narrow it to look
 * into one figure. Last the `serve` block: the server shell at 50,000
 * listings over HTTP and its WebSocket, the desktop path beside it, each run
 * a fresh process of each (serve/serve-bench.ts), then a simulated week of
 * the server headless (serve/serve-week.ts); `--serve` runs the block alone,
 * `--serve-runs` sets its runs, `--serve-week` runs the week alone and
 * `--serve-week-scale` how much faster than real time it runs. Then the
 * `pricing` block: "Reprice now" over 50,000 listings in a fresh process, the
 * data worker's event loop and the pages asked meanwhile, beside the time its
 * changes take at the rate limit (pricing/pricing-bench.ts); `--pricing` runs
 * it alone, `--pricing-runs` sets its runs. With --json the same figures end
 * the output as one JSON object.
 */
import { parseArgs } from 'node:util';
import { prepareNaive } from './naive.ts';
import { formatScenario, goalsMet, type ScenarioResult } from './report.ts';
import { prepareScheduled } from './scheduled.ts';
import { SCENARIOS } from './scenarios.ts';
import { formatMainLoop, runMainLoopScenario } from './main-loop.ts';
import { benchLoad, loadRows, type LoadFigures } from './history-record.ts';
import { formatScale, isProfileName, PROFILE_NAMES } from './scale/scale-report.ts';
import { runScaleBench } from './scale/scale.ts';
import { runServeBench } from './serve/serve-bench.ts';
import { formatServe } from './serve/serve-report.ts';
import { formatPricing, runPricingBench } from './pricing/pricing-bench.ts';
import { formatWeek, runServeWeek } from './serve/serve-week.ts';

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    'time-scale': { type: 'string', default: '30' },
    'naive-minutes': { type: 'string', default: '10' },
    scenarios: { type: 'string' },
    scale: { type: 'boolean', default: false },
    'scale-runs': { type: 'string', default: '5' },
    'scale-profiles': { type: 'string' },
    'scale-jobs': { type: 'string' },
    serve: { type: 'boolean', default: false },
    'serve-runs': { type: 'string', default: '3' },
    pricing: { type: 'boolean', default: false },
    'pricing-runs': { type: 'string', default: '3' },
    'serve-week': { type: 'boolean', default: false },
    'serve-week-scale': { type: 'string', default: '1000' },
  },
});
const scale = Number(values['time-scale']);
const naiveSliceMs = Number(values['naive-minutes']) * 60_000;
const scaleRuns = Number(values['scale-runs']);
const serveRuns = Number(values['serve-runs']);
const pricingRuns = Number(values['pricing-runs']);
const weekScale = Number(values['serve-week-scale']);
if (!(scale > 0) || !(naiveSliceMs > 0) || !(weekScale > 0) || ![scaleRuns, serveRuns, pricingRuns].every((n) => Number.isInteger(n) && n > 0)) {
  throw new RangeError('--time-scale, --naive-minutes, --scale-runs, --serve-runs, --serve-week-scale and --pricing-runs must be positive numbers');
}

const list = (value: string | undefined) => value?.split(',').map((v) => v.trim()).filter(Boolean);
const scenarioIds = list(values.scenarios);
const unknownScenario = scenarioIds?.find((id) => !SCENARIOS.some((s) => s.id === id));
if (unknownScenario !== undefined) throw new RangeError(`--scenarios takes ${SCENARIOS.map((s) => s.id).join(', ')}`);
const scenarios = scenarioIds ? SCENARIOS.filter((s) => scenarioIds.includes(s.id)) : SCENARIOS;
const scaleProfiles = list(values['scale-profiles']);
if (scaleProfiles && !scaleProfiles.every(isProfileName)) throw new RangeError(`--scale-profiles takes ${PROFILE_NAMES.join(', ')}`);
const scaleOptions = {
  runs: scaleRuns,
  ...(scaleProfiles ? { profiles: scaleProfiles.filter(isProfileName) } : {}),
  ...(values['scale-jobs'] ? { jobs: list(values['scale-jobs']) } : {}),
  log: (line: string) => console.log(line),
};

const serveOptions = { runs: serveRuns, log: (line: string) => console.log(line) };
const weekOptions = { scale: weekScale, log: (line: string) => console.log(line) };
if (values['serve-week']) {
  console.log('Marketplace Desk benchmark, the serve block\'s simulated week only.\n');
  const week = await runServeWeek(weekOptions);
  console.log('');
  console.log(formatWeek(week));
  if (values.json) console.log(JSON.stringify({ serveWeek: week }));
  process.exit(0);
}
if (values.serve) {
  console.log('Marketplace Desk benchmark, serve block only.\n');
  const serveFigures = await runServeBench(serveOptions);
  console.log('');
  console.log(formatServe(serveFigures));
  const week = await runServeWeek(weekOptions);
  console.log('');
  console.log(formatWeek(week));
  if (values.json) console.log(JSON.stringify({ serve: serveFigures, serveWeek: week }));
  process.exit(0);
}

const pricingOptions = { runs: pricingRuns, log: (line: string) => console.log(line) };
if (values.pricing) {
  console.log('Marketplace Desk benchmark, pricing block only.\n');
  const pricingFigures = await runPricingBench(pricingOptions);
  console.log('');
  console.log(formatPricing(pricingFigures));
  if (values.json) console.log(JSON.stringify({ pricing: pricingFigures }));
  process.exit(0);
}

if (values.scale) {
  console.log('Marketplace Desk benchmark, scale block only.\n');
  const scaleFigures = await runScaleBench(scaleOptions);
  console.log('');
  console.log(formatScale(scaleFigures));
  if (values.json) console.log(JSON.stringify({ scale: scaleFigures }));
  process.exit(0);
}

console.log(
  `Marketplace Desk benchmark: client + scheduler against the sandbox over HTTP on 127.0.0.1,\n` +
    `time scaled ×${scale} (a simulated minute lasts ${(60 / scale).toFixed(2)} s of real time).\n`,
);

const started = performance.now();
const results: ScenarioResult[] = [];
for (const scenario of scenarios) {
  // Seeding is heavy and synchronous: both are prepared before either clock matters.
  const runScheduled = await prepareScheduled(scenario, scale);
  const runNaive = await prepareNaive(scenario, scale);
  // The naive baseline runs on its own sandbox (its own key and budget) at the same time.
  const [scheduler, naive] = await Promise.all([runScheduled(), runNaive(naiveSliceMs)]);
  const result: ScenarioResult = { id: scenario.id, title: scenario.title, scheduler, naive };
  results.push(result);
  console.log(formatScenario(result));
  console.log('');
}
if (scenarioIds) {
  if (values.json) console.log(JSON.stringify({ timeScale: scale, scenarios: results.map((r) => ({ id: r.id, title: r.title, ...r.scheduler, goalsMet: goalsMet(r.scheduler) })) }));
  process.exit(0);
}
// The main thread while the desk does its heaviest work at once.
// First the app as it runs (the desk in its data worker), then the same work on the main thread, as before.
const mainLoop = await runMainLoopScenario(scale, 'worker');
console.log(formatMainLoop(mainLoop));
console.log('');
const mainLoopOnMainThread = await runMainLoopScenario(scale, 'main-thread');
console.log(formatMainLoop(mainLoopOnMainThread));
console.log('');
console.log('One load of N pending trades as the app makes it: the simulator answers over HTTP, the client reads the answer,');
console.log('the watcher tells what is new, History records it; the data worker\'s event loop meanwhile. Every step runs in parts;');
console.log('JSON.parse of the whole answer and the answer read in one step are timed alone for comparison:');
const historyLoads: LoadFigures[] = [];
for (const n of [10_000, 20_000]) historyLoads.push(await benchLoad(n));
console.table(loadRows(historyLoads));
console.log('');
const scaleFigures = await runScaleBench(scaleOptions);
console.log('');
console.log(formatScale(scaleFigures));
console.log('');
const serveFigures = await runServeBench(serveOptions);
console.log('');
console.log(formatServe(serveFigures));
console.log('');
const serveWeek = await runServeWeek(weekOptions);
console.log('');
console.log(formatWeek(serveWeek));
console.log('');
const pricingFigures = await runPricingBench(pricingOptions);
console.log('');
console.log(formatPricing(pricingFigures));
console.log('');
const realSeconds = (performance.now() - started) / 1000;
console.log(`Finished in ${realSeconds.toFixed(0)} s of real time.`);

if (values.json) {
  const json = {
    timeScale: scale,
    realSeconds,
    scenarios: results.map((r) => ({
      id: r.id,
      title: r.title,
      ...r.scheduler,
      goalsMet: goalsMet(r.scheduler),
      naive: { ...r.naive, heartbeatLateMs: null },
    })),
    mainLoop,
    mainLoopOnMainThread,
    historyLoads,
    scale: scaleFigures,
    serve: serveFigures,
    serveWeek,
    pricing: pricingFigures,
  };
  console.log(JSON.stringify(json));
}
