/**
 * What item names cost in the main process: loading the schema, heap kept,
 * and the per-row cost of naming and filtering a 50,000-row ledger (the
 * ledger filter runs on every keystroke and must stay within a few ms).
 * Run: `node --experimental-strip-types test/bench/item-names.ts` (Node 24 from
 * node_modules/.bin, as npm scripts and npx put it first on PATH).
 */
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createItemNames } from '../../src-main/core/items/index.ts';

// A real gc() to read the heap that stays, not the garbage of loading.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapMB = () => {
  gc();
  return process.memoryUsage().heapUsed / 1e6;
};
const ms = (from: number) => performance.now() - from;
const fmt = (n: number, digits = 1) => n.toFixed(digits).padStart(7);

const ROWS = 50_000;

// Real defindexes from the schema file, so most SKUs are known items.
const itemNames = createRequire(import.meta.url)('tf2-static-schema/static/item-names.json') as Record<string, string>;
const defindexes = Object.keys(itemNames);
const variants = ['6', '11', '11;kt-3', '5;u13', '6;uncraftable', '11;australium;kt-2;festive', '1', '3'];
function ledgerSkus(distinct: number): string[] {
  const pool = Array.from({ length: distinct }, (_, i) => `${defindexes[(i * 7919) % defindexes.length]};${variants[i % variants.length]}`);
  return Array.from({ length: ROWS }, (_, i) => pool[(i * 31) % pool.length] ?? '5021;6');
}

const baseHeap = heapMB();
const names = createItemNames();
let t = performance.now();
names.describe('5021;6');
const loadMs = ms(t);
const forwardHeap = heapMB() - baseHeap;

console.log(`item names: tf2-item-format over tf2-static-schema, ${ROWS.toLocaleString('en')} ledger rows`);
console.log(`  load (SKU → name files, first describe)      ${fmt(loadMs)} ms   heap kept ${fmt(forwardHeap)} MB`);

for (const distinct of [2_000, ROWS]) {
  const rows = ledgerSkus(distinct);
  const label = `${distinct.toLocaleString('en')} distinct SKUs`;
  t = performance.now();
  for (const sku of rows) names.describe(sku);
  const cold = ms(t);
  const warmRuns: number[] = [];
  for (let run = 0; run < 5; run++) {
    t = performance.now();
    for (const sku of rows) names.describe(sku);
    warmRuns.push(ms(t));
  }
  const warm = [...warmRuns].sort((a, b) => a - b)[2] ?? 0;
  console.log(`  describe ${ROWS.toLocaleString('en')} rows, ${label.padEnd(22)} cold ${fmt(cold)} ms (${fmt((cold * 1e3) / ROWS, 2)} µs/row)   warm (median of 5) ${fmt(warm)} ms (${fmt((warm * 1e6) / ROWS, 0)} ns/row)`);
  // Typing "rocket launcher" one key at a time: one fresh filter per keystroke.
  const typed = 'rocket launcher';
  const perKey: number[] = [];
  let hits = 0;
  for (let n = 1; n <= typed.length; n++) {
    t = performance.now();
    const filter = names.nameFilter(typed.slice(0, n));
    hits = 0;
    for (const sku of rows) if (filter(sku)) hits++;
    perKey.push(ms(t));
  }
  report(`nameFilter per keystroke, ${label}`, perKey, hits);

  // The same, with each row keeping its searchName from when the ledger was loaded.
  const keptNames = rows.map((sku) => names.searchName(sku));
  const perKeyKept: number[] = [];
  for (let n = 1; n <= typed.length; n++) {
    t = performance.now();
    const needle = typed.slice(0, n);
    hits = 0;
    for (const name of keptNames) if (name.includes(needle)) hits++;
    perKeyKept.push(ms(t));
  }
  report(`rows keep searchName, ${label}`, perKeyKept, hits);
}

/** One line per way of filtering: the median, first and worst keystroke. */
function report(label: string, times: readonly number[], hits: number): void {
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  console.log(`  filter, ${label.padEnd(42)} per keystroke: median ${fmt(median, 2)} ms   first ${fmt(times[0] ?? 0, 2)} ms   worst ${fmt(sorted.at(-1) ?? 0, 2)} ms   (${hits.toLocaleString('en')} rows match "rocket launcher")`);
}
const describedHeap = heapMB() - baseHeap;
console.log(`  heap kept after naming ${ROWS.toLocaleString('en')} distinct SKUs            ${fmt(describedHeap)} MB`);

const csvNames = ['Mann Co. Supply Crate Key', 'Strange Professional Killstreak Rocket Launcher', 'Burning Flames Team Captain',
  'Red Rock Roscoe Pistol (Field-Tested)', 'Non-Craftable Ghostly Gibus', 'Strange Festivized Australium Medi Gun'];
t = performance.now();
names.skuForName(csvNames[0] ?? '');
const firstReverse = ms(t);
t = performance.now();
for (const name of csvNames) names.skuForName(name);
const warmup = ms(t);
t = performance.now();
const LINES = 5_000;
for (let i = 0; i < LINES; i++) names.skuForName(csvNames[i % csvNames.length] ?? '');
const perName = ms(t) / LINES;
console.log(`  name → SKU, first call (reads items.json, items-game.json)  ${fmt(firstReverse)} ms`);
console.log(`  name → SKU, first use of effect and paint kit tables         ${fmt(warmup)} ms`);
console.log(`  name → SKU, then per CSV line (${LINES.toLocaleString('en')} lines)             ${fmt(perName * 1e3, 0)} µs`);
console.log(`  heap kept with the name → SKU tables                          ${fmt(heapMB() - baseHeap)} MB`);
