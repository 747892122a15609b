/**
 * The real data worker (`desk-worker.ts`) with the scale bench's probe in
 * its thread: on the BroadcastChannel named `desk-scale-probe-<pid>` (see
 * probe.ts) it starts a measurement window (the thread's event-loop delay,
 * its heap sampled every few ms) and ends it with the figures, and runs a
 * full GC on request. The desk itself is the app's, untouched: the built
 * bundle, as the app runs it. Plain JavaScript, so the thread loads no
 * TypeScript loader the app does not have (its memory is the app's).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { BroadcastChannel } from 'node:worker_threads';

const delay = monitorEventLoopDelay({ resolution: 1 });
const heapMb = () => getHeapStatistics().used_heap_size / 2 ** 20;
let window = null;

const channel = new BroadcastChannel(`desk-scale-probe-${process.pid}`);
channel.unref();
channel.onmessage = (event) => {
  const ask = typeof event === 'object' && event !== null && 'data' in event ? event.data : null;
  if (!ask) return;
  const answer = (value) => channel.postMessage(value);
  if (ask.ask === 'gc') {
    // Exposed when first asked, as the bench's main thread does (a process started with --expose-gc boots its
    // threads without V8's startup snapshot).
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc');
    gc();
    gc();
    answer({ ask: 'gc', heapUsedMb: heapMb(), collected: true });
  } else if (ask.ask === 'start') {
    if (window) clearInterval(window.sampler);
    delay.reset();
    delay.enable();
    const baseline = heapMb();
    const opened = { baseline, peak: baseline, sampler: setInterval(() => (opened.peak = Math.max(opened.peak, heapMb())), 5) };
    window = opened;
    // The histogram counts from its timer's first tick: a block before that would go unseen.
    setTimeout(() => answer({ ask: 'start' }), 20);
  } else if (ask.ask === 'stop' && window) {
    clearInterval(window.sampler);
    const peak = Math.max(window.peak, heapMb());
    delay.disable();
    answer({ ask: 'stop', loopDelayMaxMs: delay.max / 1e6, loopDelayP99Ms: delay.percentile(99) / 1e6, heapBaselineMb: window.baseline, heapPeakMb: peak });
    window = null;
  }
};

// The worker as the app ships it (electron-vite's bundle: `npm run build` first).
await import(new URL('../../../out/main/desk-worker.js', import.meta.url).href);
