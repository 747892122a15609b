/**
 * `npm run bench [-- --json] [-- --scale S] [-- --naive-minutes M]`
 *
 * Runs the real client, scheduler, heartbeat and trade watcher against the
 * sandbox over HTTP on 127.0.0.1, with time scaled down by S (a simulated
 * minute lasts 60/S seconds), and prints for each scenario the time taken,
 * the lower bound the limits allow (estimateDurationMs), their ratio, the
 * 429s the sandbox sent and the heartbeat's lateness, beside a naive baseline
 * run for a bounded slice of simulated time and extrapolated. With --json the
 * same figures end the output as one JSON object.
 */
import { parseArgs } from 'node:util';
import { prepareNaive } from './naive.ts';
import { formatScenario, goalsMet, type ScenarioResult } from './report.ts';
import { prepareScheduled } from './scheduled.ts';
import { SCENARIOS } from './scenarios.ts';
import { formatMainLoop, runMainLoopScenario } from './main-loop.ts';

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    scale: { type: 'string', default: '30' },
    'naive-minutes': { type: 'string', default: '10' },
  },
});
const scale = Number(values.scale);
const naiveSliceMs = Number(values['naive-minutes']) * 60_000;
if (!(scale > 0) || !(naiveSliceMs > 0)) throw new RangeError('--scale and --naive-minutes must be positive numbers');

console.log(
  `Marketplace Desk benchmark: client + scheduler against the sandbox over HTTP on 127.0.0.1,\n` +
    `time scaled ×${scale} (a simulated minute lasts ${(60 / scale).toFixed(2)} s of real time).\n`,
);

const started = Date.now();
const results: ScenarioResult[] = [];
for (const scenario of SCENARIOS) {
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
// The main thread while the desk does its heaviest work at once.
// First the app as it runs (the desk in its data worker), then the same work on the main thread, as before.
const mainLoop = await runMainLoopScenario(scale, 'worker');
console.log(formatMainLoop(mainLoop));
console.log('');
const mainLoopOnMainThread = await runMainLoopScenario(scale, 'main-thread');
console.log(formatMainLoop(mainLoopOnMainThread));
console.log('');
const realSeconds = (Date.now() - started) / 1000;
console.log(`Finished in ${realSeconds.toFixed(0)} s of real time.`);

if (values.json) {
  const json = {
    scale,
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
  };
  console.log(JSON.stringify(json));
}
