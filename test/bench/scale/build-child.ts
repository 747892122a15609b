/**
 * The scale bench's child process (`child.ts`) as one JavaScript file, the
 * way electron-vite builds the app's main process: the process measured then
 * runs no TypeScript loader, which the app does not have either (it weighed
 * ~17 MB of the RSS measured). `electron` is the Electron double and `vitest`
 * the small shim the double needs, so no test runner is loaded into the
 * process whose memory is measured.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url));
const DOUBLE = fileURLToPath(new URL('../../desktop/fake-electron.ts', import.meta.url));
const VITEST_SHIM = fileURLToPath(new URL('./vitest-shim.ts', import.meta.url));
/** Beside the app's build, so the packages left out of the bundle (as the app's main leaves them) resolve. */
const OUT_DIR = fileURLToPath(new URL('../../../out/bench-scale/', import.meta.url));
/** The packages electron-vite's main build leaves out of the bundle (see electron.vite.config.ts). */
const EXTERNAL = ['keytar', 'electron-updater', 'builder-util-runtime', 'pino'];

/** Builds the child (or another entry of the same kind into its own folder); returns the file to run with plain `node`. */
export async function buildChild(entry = CHILD, outDir = OUT_DIR): Promise<string> {
  await build({
    configFile: false,
    logLevel: 'warn',
    resolve: { alias: [{ find: /^electron$/, replacement: DOUBLE }, { find: /^vitest$/, replacement: VITEST_SHIM }] },
    ssr: { noExternal: true, target: 'node' },
    build: {
      ssr: entry,
      outDir,
      emptyOutDir: true,
      minify: false,
      target: 'node24',
      rolldownOptions: { external: EXTERNAL, output: { format: 'es', entryFileNames: 'child.mjs', charset: 'ascii', comments: { legal: true, annotation: false, jsdoc: false } } },
    },
  });
  return join(outDir, 'child.mjs');
}
