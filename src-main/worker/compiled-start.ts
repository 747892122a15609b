/**
 * The data worker's entry, built as `desk-worker.cjs`: V8's compiled code of
 * the desk's bundle is kept on disk between starts (Node's compile cache,
 * in the folder main names), so a start does not parse and compile half a
 * megabyte of JavaScript again. Then the desk itself loads (desk-worker.ts).
 * Before either, WebAssembly is kept on V8's baseline compiler
 * (wasm-baseline.ts).
 */
import { enableCompileCache } from 'node:module';
import { workerData } from 'node:worker_threads';
import { keepWasmOnBaseline } from './wasm-baseline.ts';

// Before the compile cache is on: V8's flags are part of its tag.
keepWasmOnBaseline();

const data: unknown = workerData;
const folder = typeof data === 'object' && data !== null && 'compileCache' in data ? data.compileCache : undefined;
if (typeof folder === 'string') {
  try {
    // Not there before Node 22.1, and a folder it cannot write only costs the speed-up: the worker starts either way.
    enableCompileCache?.(folder);
  } catch {
    // As above.
  }
}
// Not awaited: the build is CommonJS, which has no top-level await. A failure to load still ends the
// thread with its error (an unhandled rejection), which main hears as the worker's 'error'.
void import('./desk-worker.ts');
