/**
 * The main process's entry: the composition itself is in main-process.ts,
 * where the boot test can run it; this file only supplies the built-in
 * simulator that sandbox mode talks to.
 */
import { startMainProcess } from './main-process.ts';
import { startSandbox } from './sandbox/index.ts';

startMainProcess({ openSandbox: (clock) => startSandbox({ clock }) });
