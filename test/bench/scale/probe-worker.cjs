/**
 * The real data worker (`desk-worker.ts`) with the scale bench's probe in
 * its thread: asked by the main thread (messages tagged `desk-scale-probe`,
 * see probe.ts), it starts a measurement window (the thread's event-loop delay,
 * its heap sampled every few ms) and ends it with the figures, and runs a
 * full GC on request. The desk itself is the app's, untouched: the built
 * bundle, as the app runs it. Plain CommonJS, so the thread loads no
 * TypeScript loader and no ES module loader the app does not have: the app
 * starts its worker from `desk-worker.cjs`, and its memory and start are the
 * app's.
 */
const { monitorEventLoopDelay } = require('node:perf_hooks');
const { getHeapStatistics, setFlagsFromString } = require('node:v8');
const { runInNewContext } = require('node:vm');
const { postMessageToThread } = require('node:worker_threads');

/** As probe.ts has it (this file is plain JavaScript and cannot import it). */
const PROBE_TAG = 'desk-scale-probe';
const MAIN_THREAD = 0;

const delay = monitorEventLoopDelay({ resolution: 1 });
const heapMb = () => getHeapStatistics().used_heap_size / 2 ** 20;
let window = null;

const send = (body) => void postMessageToThread(MAIN_THREAD, { tag: PROBE_TAG, body });
process.on('workerMessage', (value) => {
  const ask = typeof value === 'object' && value !== null && value.tag === PROBE_TAG ? value.body : null;
  if (!ask) return;
  if (ask.ask === 'gc') {
    // Exposed when first asked, as the bench's main thread does (a process started with --expose-gc boots its
    // threads without V8's startup snapshot).
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc');
    gc();
    gc();
    send({ ask: 'gc', heapUsedMb: heapMb(), collected: true });
  } else if (ask.ask === 'start') {
    if (window) clearInterval(window.sampler);
    delay.reset();
    delay.enable();
    const baseline = heapMb();
    const opened = { baseline, peak: baseline, sampler: setInterval(() => (opened.peak = Math.max(opened.peak, heapMb())), 5) };
    window = opened;
    // The histogram counts from its timer's first tick: a block before that would go unseen.
    setTimeout(() => send({ ask: 'start' }), 20);
  } else if (ask.ask === 'stop' && window) {
    clearInterval(window.sampler);
    const peak = Math.max(window.peak, heapMb());
    delay.disable();
    send({ ask: 'stop', loopDelayMaxMs: delay.max / 1e6, loopDelayP99Ms: delay.percentile(99) / 1e6, heapBaselineMb: window.baseline, heapPeakMb: peak });
    window = null;
  }
});
// The main thread learns which thread to ask (the desk may restart its worker, and the new one says it again).
send({ ask: 'hello' });

// The worker as the app ships it (electron-vite's bundle: `npm run build` first), loaded as the app's Worker loads it.
require('../../../out/main/desk-worker.cjs');
