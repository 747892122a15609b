/**
 * The main process's entry: the composition itself is in main-process.ts,
 * where the boot test can run it. The data worker (src-main/worker/desk-worker.ts,
 * built beside this file's bundle) runs the desk and the built-in simulator
 * of sandbox mode.
 */
import { startMainProcess } from './main-process.ts';

startMainProcess({});
