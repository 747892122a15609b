/**
 * One run of the serve bench in a process of its own: the browser's and the
 * script's sockets measure the server from here, as a trader's browser does
 * from its own machine. In the bench's process they shared an event loop
 * with the simulator, so a page's time took in whatever the simulator
 * answered meanwhile (the desk's start reads 50,000 listings from it). The
 * desktop path's pages are timed in a child of their own too (scale/child.ts).
 *
 * Usage: node test/bench/serve/serve-child.ts <task.json>; writes the
 * figures to the task's `resultPath`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { runServe, type ServeRunTask } from './serve-run.ts';

const taskPath = process.argv[2];
if (taskPath === undefined) throw new Error('usage: serve-child.ts <task.json>');
const task = JSON.parse(readFileSync(taskPath, 'utf8')) as ServeRunTask & { readonly resultPath: string };
writeFileSync(task.resultPath, JSON.stringify(await runServe(task)));
