#!/usr/bin/env node
/**
 * `marketplace-desk serve [options]`: the desk as a server (see `--help`).
 * The built server (out/main/serve.js) ships in the package; this file only
 * checks the Node version and hands over the arguments.
 */
import { fileURLToPath } from 'node:url';

const [command, ...args] = process.argv.slice(2);
const NEED_MAJOR = 24;

if (command !== 'serve') {
  console.error('usage: marketplace-desk serve [options]   (marketplace-desk serve --help lists them)');
  process.exit(command === undefined || command === '--help' || command === '-h' ? 0 : 2);
}
const major = Number(process.versions.node.split('.')[0]);
if (major < NEED_MAJOR) {
  console.error(`marketplace-desk needs Node ${NEED_MAJOR} or newer (its store is Node's built-in SQLite); this is Node ${process.versions.node}.`);
  process.exit(1);
}
process.argv = [process.argv[0], fileURLToPath(new URL('../out/main/serve.js', import.meta.url)), ...args];
await import('../out/main/serve.js');
