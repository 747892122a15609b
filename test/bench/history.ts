/**
 * What the History screen costs main with a year of trading: 10,000 trades
 * and a balance reading every five minutes (105,120), in a real SQLite file.
 * Prints the time of each question the screen asks: the figures for a year,
 * a month and a week, the first page of the table and a page deep in it, the
 * CSV of the year. Then what recording one answer of 10,000 and of 20,000
 * trades costs the data worker (history-record.ts): the time of each step
 * and the event loop's longest delay meanwhile; and one whole load of as
 * many as the app makes it, from the simulator over HTTP to History, with
 * the event loop's delay, and JSON.parse of the whole answer timed alone
 * for comparison.
 * Run: `node --experimental-strip-types test/bench/history.ts` (Node 24
 * from node_modules/.bin, as npm scripts and npx put it first on PATH).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createTradeHistory } from '../../src-main/core/history/trade-history.ts';
import { openStore } from '../../src-main/core/store/db.ts';
import { createRepos } from '../../src-main/core/store/index.ts';
import { seedHistoryYear } from '../support/history-year.ts';
import { benchLoad, benchRecording, loadRows } from './history-record.ts';
import { loadavg } from 'node:os';

const dir = mkdtempSync(join(tmpdir(), 'desk-history-bench-'));
const store = openStore(join(dir, 'profile.sqlite'));
const history = createTradeHistory({ store, repos: createRepos(store), ownIds: () => [] });
const end = Date.UTC(2026, 2, 16);
const DAY = 86_400_000;
let t = performance.now();
seedHistoryYear(history.repo, { end, trades: 10_000, account: '76561198000000001', linked: '76561198000000002' });
console.log(`seeded 10,000 trades and 105,120 readings in ${Math.round(performance.now() - t)} ms`);

/** The median of `runs` timings of `work`, and the slowest. */
function time(work: () => unknown, runs = 9): string {
  const all: number[] = [];
  for (let i = 0; i < runs; i++) {
    t = performance.now();
    work();
    all.push(performance.now() - t);
  }
  all.sort((a, b) => a - b);
  return `${(all[Math.floor(runs / 2)] ?? 0).toFixed(1)} ms (slowest ${(all.at(-1) ?? 0).toFixed(1)} ms)`;
}

const year = { from: end - 365 * DAY, to: end, account: null };
const rows: Array<[string, string]> = [
  ['figures, a year (365 days, 53 weeks, 800 balance points, top items, listing to sale)', time(() => history.summary(year))],
  ['figures, a year, one account', time(() => history.summary({ ...year, account: '76561198000000002' }))],
  ['figures, 30 days', time(() => history.summary({ ...year, from: end - 30 * DAY }))],
  ['figures, 7 days', time(() => history.summary({ ...year, from: end - 7 * DAY }))],
  ['first page of the table (100 rows)', time(() => history.page(year, 'completed', 0, 100))],
  ['a page 8,000 rows deep', time(() => history.page(year, 'completed', 8_000, 100))],
  ['CSV of the year\'s completed trades', time(() => history.csv(year, 'completed'), 3)],
];
console.log('\nHistory with a year of trading (10,000 trades), median of 9 runs:');
console.table(Object.fromEntries(rows.map(([what, figure]) => [what, { time: figure }])));
store.close();
rmSync(dir, { recursive: true, force: true });

console.log(`\nRecording one answer of N pending trades (pending list, ledger sales, History), load average ${loadavg()[0]?.toFixed(1)}:`);
const recorded = [];
for (const n of [10_000, 20_000]) recorded.push(await benchRecording(n));
const ms = (v: number) => `${Math.round(v)} ms`;
console.table(Object.fromEntries(recorded.map((r) => [`${r.trades.toLocaleString('en-US')} trades`, {
  'listed': ms(r.listedMs), 'all gone': ms(r.goneMs), '2 readings (all matched)': ms(r.readingsMs),
  'loop delay max': `${r.loopDelayMaxMs.toFixed(1)} ms`, 'loop delay p99': `${r.loopDelayP99Ms.toFixed(1)} ms`, 'parts': r.turns, 'completed': r.completed,
}])));

console.log(`\nOne load of N trades as the app makes it (HTTP from the simulator in its own thread, the client's read, the watcher, the recording), load average ${loadavg()[0]?.toFixed(1)}.`);
console.log('Every step runs in parts; JSON.parse of the whole answer and the answer read in one step are timed alone for comparison:');
const loads = [];
for (const n of [10_000, 20_000]) loads.push(await benchLoad(n));
console.table(loadRows(loads));
