#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=1
/**
 * `marketplace-desk serve [options]`: the desk as a server (see `serve --help`).
 * `marketplace-desk health [--port 8790]`: exits 0 when a desk answers on this
 * machine (a container's health check; HTTPS or HTTP, any certificate).
 * The built server (out/main/serve.cjs) ships in the package; this file only
 * checks the Node version and hands over the arguments.
 *
 * Every launch of the server comes through this file (`npm run serve`, the
 * package's bin, the systemd unit, the Docker image), so its first line is
 * where the process's memory settings are given; both are read before any
 * JavaScript runs, so no code could set them. `npm run serve` runs it through
 * `node` with the same flag, since a shell on Windows reads no first line
 * (glibc's arenas are Linux's alone; a server there runs from the unit or the
 * image). A semi-space of 1 MB keeps each
 * thread's young generation at a few megabytes, where V8 lets the main
 * thread's grow to 16 MB and the data worker's to far more (the flag applies
 * to every isolate, over a worker's resourceLimits); two malloc arenas keep
 * glibc from holding freed memory in a pool per thread. docs/performance.md
 * has what each saves.
 */
import { fileURLToPath } from 'node:url';

const [command, ...args] = process.argv.slice(2);
const NEED_MAJOR = 24;
const USAGE = 'usage: marketplace-desk serve [options]   (marketplace-desk serve --help lists them)\n       marketplace-desk health [--port 8790]';

/** Whether /healthz answers 200 on this machine's port, over HTTPS or plain HTTP. */
function alive(port, request) {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/healthz', rejectUnauthorized: false, timeout: 4_000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
  });
}

if (command === 'health') {
  const at = args.indexOf('--port');
  const port = at >= 0 ? Number(args[at + 1]) : 8790;
  // Imported here, not above: an import of node:http loads Node's own fetch with it (~40 ms), before the server's start.
  const [{ request: httpRequest }, { request: httpsRequest }] = await Promise.all([import('node:http'), import('node:https')]);
  process.exit((await alive(port, httpsRequest)) || (await alive(port, httpRequest)) ? 0 : 1);
}
if (command !== 'serve') {
  console.error(USAGE);
  process.exit(command === undefined || command === '--help' || command === '-h' ? 0 : 2);
}
const major = Number(process.versions.node.split('.')[0]);
if (major < NEED_MAJOR) {
  console.error(`marketplace-desk needs Node ${NEED_MAJOR} or newer (its store is Node's built-in SQLite); this is Node ${process.versions.node}.`);
  process.exit(1);
}
process.argv = [process.argv[0], fileURLToPath(new URL('../out/main/serve.cjs', import.meta.url)), ...args];
await import('../out/main/serve.cjs');
