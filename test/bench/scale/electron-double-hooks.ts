/**
 * Loaded with `--import` into a bench process that boots the real main
 * process (src-main/main-thread/main-process.ts): `electron` resolves to the typed
 * Electron double of the desktop tests, and `vitest` (which the double
 * imports for its recording mocks) to a small shim, so no test runner is
 * loaded into the process whose memory is measured.
 */
import { registerHooks } from 'node:module';

const DOUBLE = new URL('../../desktop/fake-electron.ts', import.meta.url).href;
const VITEST_SHIM = new URL('./vitest-shim.ts', import.meta.url).href;

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'electron') return { url: DOUBLE, shortCircuit: true };
    if (specifier === 'vitest') return { url: VITEST_SHIM, shortCircuit: true };
    return nextResolve(specifier, context);
  },
});
