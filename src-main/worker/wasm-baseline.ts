import { setFlagsFromString } from 'node:v8';

/**
 * Keeps WebAssembly on V8's baseline compiler (Liftoff) for the rest of the
 * process's life. undici parses HTTP/1.1 with llhttp compiled to
 * WebAssembly, and by default V8 recompiles a hot wasm function with
 * TurboFan on a background thread. For llhttp's parser that compile grows a
 * buffer to about 7 MB; glibc keeps the freed memory (freeing a block that
 * large raises its trim threshold to match), so a tray app that runs for
 * weeks holds about 12 MB more from its first few requests on. The desk's
 * responses are few and small, and Liftoff's parser is as quick for them:
 * an 80 kB response takes 0.10 ms either way.
 *
 * The flags are process-wide, apply to modules compiled after they are set,
 * and are part of the version tag of Node's compile cache: the worker's entry
 * sets them before it turns that cache on (compiled-start.ts), or every start
 * would look for its compiled code under another tag and compile afresh. The
 * desk compiles no other WebAssembly.
 */
export function keepWasmOnBaseline(): void {
  // --liftoff-only would say it in one flag, but its implications are applied only at V8's start.
  setFlagsFromString('--no-wasm-dynamic-tiering');
  setFlagsFromString('--no-wasm-tier-up');
}
