/**
 * Loaded into the real server process by the serve bench (`node --import`
 * before out/main/serve.cjs), so the product carries nothing of the bench.
 * It runs on the main thread only (Node does not load it into the data
 * worker), so it cannot collect the worker's garbage.
 *
 * On SIGUSR2 it writes one JSON line on standard output, beside the server's
 * own log lines: the main thread's event-loop delay since the signal before
 * (p99, max, mean, in ms), then, after two collections of the main thread's
 * garbage, the process's RSS (all threads) and the main thread's heap, and
 * what the process was launched with (Node's flags, malloc's arenas). Then
 * it starts counting anew.
 *
 * gc is exposed only when asked: a process started with --expose-gc boots its
 * worker threads without V8's startup snapshot, which slows the data worker's
 * start (test/bench/scale/child.ts found it so).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const ms = (ns) => Math.round((ns / 1e6) * 100) / 100;
const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();

process.on('SIGUSR2', () => {
  const loop = { p99Ms: ms(histogram.percentile(99)), maxMs: ms(histogram.max), meanMs: ms(histogram.mean) };
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  gc();
  gc();
  setTimeout(() => {
    const mb = (bytes) => Math.round((bytes / 2 ** 20) * 10) / 10;
    const memory = process.memoryUsage();
    process.stdout.write(`${JSON.stringify({ benchProbe: true, ...loop, rssMb: mb(memory.rss), mainHeapMb: mb(memory.heapUsed), execArgv: process.execArgv, mallocArenas: process.env.MALLOC_ARENA_MAX ?? null })}\n`);
    histogram.reset();
  }, 200);
});
