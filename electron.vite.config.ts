import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import vue from '@vitejs/plugin-vue';

/**
 * Each entry is named explicitly because the folders are not electron-vite's
 * defaults (src/main, src/preload, src/renderer). The preload runs sandboxed,
 * where only CommonJS loads, hence the cjs output.
 */
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      externalizeDeps: { exclude: ['zod', 'undici', 'papaparse', 'tf2-item-format', 'tf2-static-schema'] },
      rolldownOptions: {
        // The data worker is a second entry: the main process starts it as a worker thread beside index.cjs.
        // The server shell is a third (`npm run serve`): plain Node starts serve.cjs and the same worker beside it.
        input: {
          index: resolve('src-main/main-thread/desktop/index.ts'),
          'desk-worker': resolve('src-main/worker/compiled-start.ts'),
          serve: resolve('src-main/main-thread/server/serve.ts'),
        },
        // CommonJS (index.cjs, serve.cjs, desk-worker.cjs): Node loads the same code sooner as CommonJS than as
        // ES modules, and the data worker's load is on the path to the first page (docs/performance.md).
        // V8 keeps each module's source in memory for as long as the app runs, and one non-ASCII character
        // makes it keep the whole file as two bytes a character. The shipped files carry no doc comments
        // (licences stay) and escape what is left, so the sources weigh a third of what they did.
        output: { format: 'cjs', charset: 'ascii', comments: { legal: true, annotation: false, jsdoc: false } },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload can require nothing but `electron`: bundle the rest (zod, via the contract).
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve('src-preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src-renderer',
    plugins: [vue()],
    build: {
      // Smaller is faster to parse on every window open; main and preload stay readable.
      minify: true,
      outDir: resolve('out/renderer'),
      rolldownOptions: {
        // The renderer parses nothing with the shared schemas but two forms' input (Settings, Pricing): built at
        // module load, the others would bring zod's code and its start into every window. A schema nothing reads
        // is dropped (zod's calls and the helpers that only build schemas have no other effect).
        treeshake: { manualPureFunctions: ['z', 'lazySchema', 'withoutHiddenControls'] },
        // The desk's page; the server shell's sign-in page; and its socket client (its preload), at a name the server knows.
        input: { index: resolve('src-renderer/index.html'), access: resolve('src-renderer/access.html'), socket: resolve('src-preload/socket.ts') },
        output: {
          entryFileNames: (chunk) => (chunk.name === 'socket' ? 'socket.js' : 'assets/[name]-[hash].js'),
          // A window loads few files, each asked for at once: the shell (main.ts alone in the entry, so the
          // screens it loads can import the shell while main.ts still awaits them); the ledger screens' code,
          // which Listings and Buy orders share; what two other screens share; then each screen its own.
          // The sign-in rule and the desk-wide styles stay apart: the server shell's sign-in page loads them too.
          codeSplitting: {
            groups: [
              // In a chunk of its own (with the one helper that only wraps it), loaded by the screens that parse with it.
              { name: 'zod', test: /node_modules[\\/]zod[\\/]|src-shared[\\/]lazy-schema\.ts$/, priority: 4 },
              { name: 'sign-in', test: /src-shared[\\/]sign-in\.ts$/, priority: 3 },
              { name: 'desk', tags: ['$initial'], test: (id) => /src-renderer[\\/]src[\\/]|node_modules/.test(id) && !/[\\/]styles[\\/]|[\\/]src[\\/]main\.ts$/.test(id), priority: 2 },
              { name: 'ledger', test: /src-renderer[\\/]src[\\/]views[\\/]LedgerView\.vue/, priority: 1 },
              { name: 'screens', minShareCount: 2, test: /src-renderer[\\/]src[\\/]|src-shared|node_modules/ },
            ],
          },
        },
      },
    },
  },
});
